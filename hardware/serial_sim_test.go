package hardware

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/segment"
	"github.com/blueprints-companion/blueprints/hardware/simboard"
)

// These tests drive the real firmware in the simulated board
// (firmware/build/scoreboard-sim) through go.bug.st/serial on its pty.

// table is what the host wants the displays to show.
type table struct {
	text [MaxDisplays]string // exactly as given to SetText, or a formatted score
}

func (tb *table) segs(player int) string {
	s, err := segment.Encode(tb.text[player])
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(s[:])
}

// shows tells whether the board lights exactly what tb says.
func (tb *table) shows(st simboard.State, n int) bool {
	if len(st.Displays) < n {
		return false
	}
	for p := 0; p < n; p++ {
		d := st.Displays[p]
		if !d.On || d.Segs != tb.segs(p) {
			return false
		}
	}
	return true
}

func (tb *table) String() string { return fmt.Sprintf("%q", tb.text[:]) }

func startBoard(t *testing.T, args ...string) (*simboard.Board, string) {
	t.Helper()
	link := filepath.Join(t.TempDir(), "scoreboard")
	return simboard.Start(t, link, args...), link
}

func openSim(t *testing.T, link string) *Serial {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// a generous ACK timeout: CI runs other heavy tests beside the simulator
	s, err := OpenSerial(ctx, SerialOptions{Port: link, Logf: t.Logf, AckTimeout: 250 * time.Millisecond})
	if err != nil {
		t.Fatalf("OpenSerial(%s): %v", link, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// waitShows waits (generously) for the board to show tb and returns how long
// it took.
func waitShows(t *testing.T, b *simboard.Board, tb *table, n int) time.Duration {
	t.Helper()
	start := time.Now()
	if _, err := b.WaitFor(10*time.Second, func(s simboard.State) bool { return tb.shows(s, n) }); err != nil {
		t.Fatalf("want %v: %v", tb, err)
	}
	return time.Since(start)
}

// shownBeforeAnswer waits for the board to show tb and checks, in
// simulated time, that it did so before it answered the frame that asked
// for it: no answer left the board between that frame's arrival and the
// display showing it (the firmware acknowledges a command only once the
// displays show it). Simulated time, because the simulator reports
// display states and frames on its stdout, which can reach the test after
// the answer has come through the pty when the machine is busy. It
// returns the first state that shows tb.
func shownBeforeAnswer(t *testing.T, b *simboard.Board, tb *table, n int) simboard.State {
	t.Helper()
	if _, err := b.WaitFor(10*time.Second, func(s simboard.State) bool { return tb.shows(s, n) }); err != nil {
		t.Fatalf("want %v: %v", tb, err)
	}
	var shown simboard.State
	for _, h := range b.History() {
		if tb.shows(h, n) {
			shown = h
			break
		}
	}
	var frames []simboard.FrameEvent
	deadline := time.Now().Add(10 * time.Second)
	for {
		frames = append(frames, b.Frames()...)
		answered := false
		for _, f := range frames {
			answered = answered || (f.Dir == "out" && f.TUS >= shown.TUS)
		}
		if answered {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer from the board reported after it showed %v at %d us: %+v", tb, shown.TUS, frames)
		}
		time.Sleep(time.Millisecond)
	}
	in := int64(-1)
	for _, f := range frames {
		if f.Dir == "in" && f.TUS <= shown.TUS {
			in = f.TUS
		}
	}
	if in < 0 {
		t.Fatalf("no frame reached the board before it showed %v at %d us: %+v", tb, shown.TUS, frames)
	}
	for _, f := range frames {
		if f.Dir == "out" && f.TUS > in && f.TUS < shown.TUS {
			t.Fatalf("the board answered at %d us, before it showed %v at %d us (the frame came in at %d us)", f.TUS, tb, shown.TUS, in)
		}
	}
	t.Logf("frame in at %d us, shown at %d us, frames %+v", in, shown.TUS, frames)
	return shown
}

func TestSimulatedBoardShowsWhatTheHostSets(t *testing.T) {
	noLeak(t)
	b, link := startBoard(t)
	s := openSim(t, link)
	ctx := context.Background()
	if h := s.Hello(); h.Protocol != 1 || h.Displays != 4 {
		t.Fatalf("HELLO = %v", h)
	}
	var tb table
	for p, score := range []int{12, 23, 7, 0} {
		if err := s.SetScore(ctx, p, score); err != nil {
			t.Fatalf("SetScore(%d, %d): %v", p, score, err)
		}
		tb.text[p], _ = segment.FormatScore(score)
	}
	waitShows(t, b, &tb, 4)

	t.Run("text with decimal points", func(t *testing.T) {
		b.Frames() // forget the frames so far
		if err := s.SetText(ctx, 2, "P3 1.5"); err != nil {
			t.Fatal(err)
		}
		tb.text[2] = "P3 1.5"
		st := shownBeforeAnswer(t, b, &tb, 4)
		if st.Displays[2].Text != "P3 1.5   " {
			t.Fatalf("display 2 text %q", st.Displays[2].Text)
		}
	})
	t.Run("negative score", func(t *testing.T) {
		if err := s.SetScore(ctx, 3, -42); err != nil {
			t.Fatal(err)
		}
		tb.text[3] = "     -42"
		waitShows(t, b, &tb, 4)
	})
	t.Run("brightness", func(t *testing.T) {
		if err := s.SetBrightness(ctx, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := b.WaitFor(5*time.Second, func(st simboard.State) bool {
			for _, d := range st.Displays {
				if d.Intensity != 3 {
					return false
				}
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("alert blinks and beeps, then shows the score again", func(t *testing.T) {
		if err := s.Alert(ctx, 1, 600*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := b.WaitFor(5*time.Second, func(st simboard.State) bool {
			return st.Buzzer && !st.Displays[1].On
		}); err != nil {
			t.Fatalf("no blink with buzzer: %v", err)
		}
		st, err := b.WaitFor(5*time.Second, func(st simboard.State) bool { return !st.Buzzer && tb.shows(st, 4) })
		if err != nil {
			t.Fatalf("alert did not end: %v", err)
		}
		t.Logf("alert over at %d µs simulated", st.TUS)
	})
	t.Run("every segment", func(t *testing.T) {
		for p := 0; p < 4; p++ {
			if err := s.SetText(ctx, p, "8.8.8.8.8.8.8.8."); err != nil {
				t.Fatal(err)
			}
			tb.text[p] = "8.8.8.8.8.8.8.8."
		}
		st := waitShows(t, b, &tb, 4)
		_ = st
		if got := b.State().Displays[0].Segs; got != "ffffffffffffffff" {
			t.Fatalf("segments %s, want all lit", got)
		}
	})
	t.Run("clear", func(t *testing.T) {
		if err := s.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		tb = table{}
		waitShows(t, b, &tb, 4)
	})
	t.Run("bad input is refused before it is sent", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			err  error
			call func() error
		}{
			{"player 4", ErrPlayer, func() error { return s.SetScore(ctx, 4, 1) }},
			{"score 100000000", ErrScore, func() error { return s.SetScore(ctx, 0, 100000000) }},
			{"text with *", ErrText, func() error { return s.SetText(ctx, 0, "A*B") }},
			{"brightness -1", ErrBrightness, func() error { return s.SetBrightness(ctx, -1) }},
			{"alert 11s", ErrAlert, func() error { return s.Alert(ctx, 0, 11*time.Second) }},
		} {
			if err := tc.call(); !errors.Is(err, tc.err) {
				t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
			}
		}
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.SetScore(ctx, 0, 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("SetScore after Close: %v", err)
	}
}

// game makes random updates like a game loop would, tolerating the errors
// a faulty link gives (the state is kept and pushed later), and records what
// the host wants in tb.
func game(t *testing.T, s *Serial, rnd *rand.Rand, tb *table, moves int) (failures int) {
	t.Helper()
	for i := 0; i < moves; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		p := rnd.Intn(4)
		var err error
		if rnd.Intn(4) == 0 {
			text := fmt.Sprintf("P%d r%d", p+1, rnd.Intn(10))
			err = s.SetText(ctx, p, text)
			tb.text[p] = text
		} else {
			score := rnd.Intn(200)
			err = s.SetScore(ctx, p, score)
			tb.text[p], _ = segment.FormatScore(score)
		}
		cancel()
		time.Sleep(20 * time.Millisecond) // players take their time
		if err != nil {
			if !errors.Is(err, ErrNoAck) && !errors.Is(err, ErrNotConnected) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("move %d: unexpected error %v", i, err)
			}
			failures++
		}
	}
	return failures
}

func TestFaultBoardKilledAndRestartedAtTheSamePath(t *testing.T) {
	noLeak(t)
	b, link := startBoard(t)
	s := openSim(t, link)
	rnd := rand.New(rand.NewSource(1))
	var tb table
	game(t, s, rnd, &tb, 10)
	waitShows(t, b, &tb, 4)

	b.Kill() // USB cable pulled mid-game
	if _, err := os.Lstat(link); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the killed board's link %s is still there (%v): a reconnecting driver could reach whatever pty takes its number next", link, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s.Connected() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if s.Connected() {
		t.Fatal("driver did not notice the board went away")
	}
	if err := s.SetScore(context.Background(), 0, 99); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("SetScore with the board gone: %v, want ErrNotConnected", err)
	}
	tb.text[0], _ = segment.FormatScore(99)
	game(t, s, rnd, &tb, 5) // the game goes on meanwhile
	time.Sleep(700 * time.Millisecond)

	b2 := simboard.Start(t, link) // plugged in again: same path, new pty
	back := time.Now()
	if b2.PTY == b.PTY {
		t.Logf("note: the new board got the same pty %s", b2.PTY)
	}
	d := waitShows(t, b2, &tb, 4)
	t.Logf("recovery after restart: display right %v after the board was back", d.Round(time.Millisecond))
	_ = back
	game(t, s, rnd, &tb, 5)
	waitShows(t, b2, &tb, 4)
}

func testLineFault(t *testing.T, name, on, off string) {
	noLeak(t)
	b, link := startBoard(t, "--seed", "7")
	s := openSim(t, link)
	rnd := rand.New(rand.NewSource(2))
	var tb table
	game(t, s, rnd, &tb, 5)
	waitShows(t, b, &tb, 4)
	if err := b.Fault(on); err != nil {
		t.Fatal(err)
	}
	failures := game(t, s, rnd, &tb, 30)
	// The driver keeps pushing the state even while the line stays bad.
	under := waitShows(t, b, &tb, 4)
	if err := b.Fault(off); err != nil {
		t.Fatal(err)
	}
	d := waitShows(t, b, &tb, 4)
	t.Logf("%s: %d of 30 updates not acknowledged in time; display right %v after the last update with the fault still on, %v after the line was clean again",
		name, failures, under.Round(time.Millisecond), d.Round(time.Millisecond))
	game(t, s, rnd, &tb, 5)
	waitShows(t, b, &tb, 4)
}

func TestFaultNoise(t *testing.T)   { testLineFault(t, "noise", "noise 0.03", "noise 0") }
func TestFaultDropped(t *testing.T) { testLineFault(t, "drop", "drop 0.03", "drop 0") }

func TestFaultStall(t *testing.T) {
	noLeak(t)
	b, link := startBoard(t)
	s := openSim(t, link)
	rnd := rand.New(rand.NewSource(3))
	var tb table
	game(t, s, rnd, &tb, 5)
	waitShows(t, b, &tb, 4)
	const stall = 1500 * time.Millisecond
	if err := b.Fault(fmt.Sprintf("stall %d", stall.Milliseconds())); err != nil {
		t.Fatal(err)
	}
	end := time.Now().Add(stall)
	failures := game(t, s, rnd, &tb, 3)
	wait := time.Until(end)
	if wait > 0 {
		time.Sleep(wait)
	}
	d := waitShows(t, b, &tb, 4)
	t.Logf("stall %v: %d of 3 updates failed; display right %v after the board was back", stall, failures, d.Round(time.Millisecond))
}

func TestConcurrentPlayersOnTheSimulatedBoard(t *testing.T) {
	noLeak(t)
	b, link := startBoard(t)
	s := openSim(t, link)
	ctx := context.Background()
	errs := make(chan error, 4)
	for p := 0; p < 4; p++ {
		go func() {
			for i := 0; i <= 20; i++ {
				if err := s.SetScore(ctx, p, p*100+i); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var tb table
	for p := 0; p < 4; p++ {
		tb.text[p], _ = segment.FormatScore(p*100 + 20)
	}
	waitShows(t, b, &tb, 4)
	if !s.Synced() {
		t.Fatal("board shows the state but the driver says it is not synced")
	}
}
