package hardware

import (
	"context"
	"errors"
	"math/rand"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/blueprints-companion/blueprints/hardware/fakeboard"
	"github.com/blueprints-companion/blueprints/hardware/protocol"
)

var fourDisplays = protocol.HelloInfo{Protocol: 1, FirmwareMajor: 1, Displays: 4}

func TestOpenSerialErrors(t *testing.T) {
	noLeak(t)
	ctx := context.Background()
	t.Run("no port given", func(t *testing.T) {
		_, err := OpenSerial(ctx, SerialOptions{})
		if !errors.Is(err, ErrNoPort) {
			t.Fatalf("error %v, want ErrNoPort", err)
		}
	})
	t.Run("missing port", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nothing")
		_, err := OpenSerial(ctx, SerialOptions{Port: path})
		if !errors.Is(err, ErrNoPort) || !strings.Contains(err.Error(), path) {
			t.Fatalf("error %v, want ErrNoPort naming %s", err, path)
		}
	})
	t.Run("bad VID:PID", func(t *testing.T) {
		_, err := OpenSerial(ctx, SerialOptions{VIDPID: "2341-0043"})
		if err == nil || !strings.Contains(err.Error(), "VID:PID") {
			t.Fatalf("error %v, want one about VID:PID", err)
		}
	})
	t.Run("silent port", func(t *testing.T) {
		fb := fakeboard.New(t, func(protocol.Frame) []protocol.Frame { return nil })
		_, err := OpenSerial(ctx, SerialOptions{Port: fb.Path, HandshakeTimeout: 400 * time.Millisecond})
		if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "silent") {
			t.Fatalf("error %v, want ErrHandshake saying the port is silent", err)
		}
	})
	t.Run("garbage on the line", func(t *testing.T) {
		m, s, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		defer s.Close()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // a board at the wrong baud rate: bytes, never a frame
			defer wg.Done()
			rnd := rand.New(rand.NewSource(1))
			buf := make([]byte, 64)
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				for i := range buf {
					buf[i] = byte(rnd.Intn(255) + 1)
				}
				buf[rnd.Intn(len(buf))] = 0
				if _, err := m.Write(buf); err != nil {
					return
				}
			}
		}()
		_, err = OpenSerial(ctx, SerialOptions{Port: s.Name(), HandshakeTimeout: 400 * time.Millisecond})
		close(stop)
		wg.Wait()
		if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "not scoreboard frames") {
			t.Fatalf("error %v, want ErrHandshake about garbage", err)
		}
	})
	t.Run("wrong protocol version", func(t *testing.T) {
		fb := fakeboard.New(t, func(f protocol.Frame) []protocol.Frame {
			h := fourDisplays
			h.Protocol = 2
			return []protocol.Frame{protocol.NewHello(f.Seq, h)}
		})
		_, err := OpenSerial(ctx, SerialOptions{Port: fb.Path, HandshakeTimeout: time.Second})
		if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), "protocol 2") {
			t.Fatalf("error %v, want ErrHandshake about protocol 2", err)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		fb := fakeboard.New(t, func(protocol.Frame) []protocol.Frame { return nil })
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := OpenSerial(cctx, SerialOptions{Port: fb.Path})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want the context's", err)
		}
	})
}

func TestFakeBoardRefusals(t *testing.T) {
	noLeak(t)
	var mu sync.Mutex
	damaged := 0
	fb := fakeboard.New(t, func(f protocol.Frame) []protocol.Frame {
		switch f.Type {
		case protocol.Info:
			return []protocol.Frame{protocol.NewHello(f.Seq, fourDisplays)}
		case protocol.SetScore:
			return []protocol.Frame{protocol.NewNak(f.Seq, f.Type, protocol.BadValue)}
		case protocol.SetText:
			mu.Lock()
			defer mu.Unlock()
			damaged++
			if damaged <= 2 { // the first two arrive damaged
				return []protocol.Frame{protocol.NewNak(f.Seq, f.Type, protocol.BadCRC)}
			}
		}
		// stale answers and noise frames must be ignored
		return []protocol.Frame{protocol.NewAck(f.Seq+100, f.Type), protocol.NewAck(f.Seq, f.Type)}
	})
	ctx := context.Background()
	s, err := OpenSerial(ctx, SerialOptions{Port: fb.Path, AckTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetScore(ctx, 0, 5); !errors.Is(err, ErrNak) || !strings.Contains(err.Error(), "value out of range") {
		t.Fatalf("SetScore refused by the board: error %v, want ErrNak", err)
	}
	if err := s.SetText(ctx, 1, "HI"); err != nil {
		t.Fatalf("SetText after two damaged sends: %v", err)
	}
	if !s.Connected() {
		t.Fatal("a refusal must not drop the link")
	}
	if err := s.Alert(ctx, 2, time.Second); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.SetText(cctx, 1, "X"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled SetText: %v", err)
	}
}

// A board that refuses CLEAR (older firmware, a fault) gets its blank
// displays one by one; the driver used to send CLEAR again for ever.
func TestFakeBoardRefusesClear(t *testing.T) {
	noLeak(t)
	var mu sync.Mutex
	clears, texts := 0, 0
	fb := fakeboard.New(t, func(f protocol.Frame) []protocol.Frame {
		mu.Lock()
		defer mu.Unlock()
		switch f.Type {
		case protocol.Info:
			return []protocol.Frame{protocol.NewHello(f.Seq, fourDisplays)}
		case protocol.Clear:
			clears++
			return []protocol.Frame{protocol.NewNak(f.Seq, f.Type, protocol.BadValue)}
		case protocol.SetText:
			texts++
		}
		return []protocol.Frame{protocol.NewAck(f.Seq, f.Type)}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := OpenSerial(ctx, SerialOptions{Port: fb.Path, AckTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for p := 0; p < 4; p++ {
		if err := s.SetScore(ctx, p, p+1); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Clear(ctx); err != nil {
		t.Fatalf("Clear on a board that refuses CLEAR: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	// (one CLEAR: refused once, it is not sent again until the board
	// restarts; the blank displays at the start go one by one too)
	if clears != 1 || texts < 4 {
		t.Fatalf("the board got %d CLEARs and %d SET_TEXTs, want 1 and at least 4", clears, texts)
	}
}

// A board that restarts on its own (brown-out, watchdog) says HELLO with
// seq 0 without the port going away: the driver pushes everything again.
func TestFakeBoardRestartPushesEverythingAgain(t *testing.T) {
	noLeak(t)
	var mu sync.Mutex
	shown := map[uint8]string{}
	fb := fakeboard.New(t, func(f protocol.Frame) []protocol.Frame {
		mu.Lock()
		defer mu.Unlock()
		switch f.Type {
		case protocol.Info:
			return []protocol.Frame{protocol.NewHello(f.Seq, fourDisplays)}
		case protocol.SetScore:
			shown[f.Data[0]] = "score"
		case protocol.SetText:
			shown[f.Data[0]] = "text"
		case protocol.Clear:
			shown = map[uint8]string{}
		}
		return []protocol.Frame{protocol.NewAck(f.Seq, f.Type)}
	})
	ctx := context.Background()
	s, err := OpenSerial(ctx, SerialOptions{Port: fb.Path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for p := 0; p < 4; p++ {
		if err := s.SetScore(ctx, p, p); err != nil {
			t.Fatal(err)
		}
	}
	// the board restarts: it forgets everything and says HELLO
	mu.Lock()
	shown = map[uint8]string{}
	mu.Unlock()
	hello := protocol.NewHello(0, fourDisplays)
	w, _ := protocol.AppendEncode(nil, &hello)
	if _, err := fb.Master.Write(w); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	n := 0
	for time.Now().Before(deadline) {
		mu.Lock()
		n = len(shown)
		mu.Unlock()
		if n == 4 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("after the board's HELLO the driver pushed %d of 4 displays", n)
}
