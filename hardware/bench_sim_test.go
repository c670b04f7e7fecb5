package hardware

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/simboard"
)

// BenchmarkFourScoresSimulated measures one update of all four scores, each
// acknowledged, end to end: driver, pty, simulated UART, the real firmware,
// SPI to the MAX7219 chain and back. ns/op is wall time; sim-µs/op is the
// simulated time from the first byte of the first command reaching the
// board's UART to the last byte of the fourth ACK leaving it.
func BenchmarkFourScoresSimulated(b *testing.B) {
	link := filepath.Join(b.TempDir(), "scoreboard")
	board := simboard.Start(b, link)
	ctx := context.Background()
	s, err := OpenSerial(ctx, SerialOptions{Port: link, PingInterval: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.WaitSynced(ctx); err != nil {
		b.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	board.Frames()
	var simUS int64
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		for p := 0; p < 4; p++ {
			if err := s.SetScore(ctx, p, (i*7+p*13)%1000); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		var first, last int64 = -1, -1
		outs := 0
		deadline := time.Now().Add(2 * time.Second)
		var seen []simboard.FrameEvent
		for outs < 4 && time.Now().Before(deadline) {
			for _, f := range board.Frames() {
				seen = append(seen, f)
				switch f.Dir {
				case "in":
					if first < 0 {
						first = f.TUS
					}
				case "out":
					outs++
					last = f.TUS
				}
			}
			if outs < 4 {
				time.Sleep(time.Millisecond)
			}
		}
		if outs < 4 || first < 0 {
			b.Fatalf("frame trace incomplete: %+v", seen)
		}
		simUS += last - first
		b.StartTimer()
	}
	b.ReportMetric(float64(simUS)/float64(i), "sim-µs/op")
}

// BenchmarkRecoveryAfterRestart measures, per iteration, how long after a
// killed board is running again at the same path (the simulator's "ready")
// its displays show the host's state again. ms-to-right/op is that time;
// the target is under 2000.
func BenchmarkRecoveryAfterRestart(b *testing.B) {
	link := filepath.Join(b.TempDir(), "scoreboard")
	board := simboard.Start(b, link)
	ctx := context.Background()
	s, err := OpenSerial(ctx, SerialOptions{Port: link})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var total time.Duration
	i := 0
	for b.Loop() {
		i++
		var tb table
		for p := 0; p < 4; p++ {
			score := i*10 + p
			tb.text[p] = fmt.Sprintf("%8d", score)
			if err := s.SetScore(ctx, p, score); err != nil && !errors.Is(err, ErrNotConnected) {
				b.Fatal(err)
			}
		}
		board.Kill()
		for s.Connected() {
			time.Sleep(5 * time.Millisecond)
		}
		tb.text[0] = fmt.Sprintf("%8d", i)
		_ = s.SetScore(ctx, 0, i) // kept while the board is away
		time.Sleep(300 * time.Millisecond)
		board = simboard.Start(b, link)
		back := time.Now()
		if _, err := board.WaitFor(10*time.Second, func(st simboard.State) bool { return tb.shows(st, 4) }); err != nil {
			b.Fatal(err)
		}
		total += time.Since(back)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(i), "ms-to-right/op")
}
