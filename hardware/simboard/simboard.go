package simboard

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Display is what one MAX7219 module lights.
type Display struct {
	Text      string `json:"text"` // characters, '.' after one with its decimal point lit
	Segs      string `json:"segs"` // 8 segment bytes in hex, leftmost digit first
	On        bool   `json:"on"`   // not shut down (an alert blinks it off)
	Intensity int    `json:"intensity"`
}

// State is one "display" event of the simulator.
type State struct {
	TUS      int64     `json:"t_us"` // simulated microseconds since reset
	Buzzer   bool      `json:"buzzer"`
	Displays []Display `json:"displays"`
}

// FrameEvent is a frame boundary seen on the simulated UART (with
// trace-frames): "in" when the first byte of a frame from the host reaches
// the UART, "out" when the board has sent the last byte of an answer.
type FrameEvent struct {
	Dir  string
	TUS  int64
	Wall time.Time
}

type event struct {
	Event string `json:"event"`
	PTY   string `json:"pty"`
	Dir   string `json:"dir"`
	TUS   int64  `json:"t_us"`
}

// Board is one running simulator process.
type Board struct {
	Link string // the symlink path the driver opens
	PTY  string // the pty behind it

	cmd     *exec.Cmd
	stdin   io.WriteCloser
	mu      sync.Mutex
	state   State
	history []State
	frames  []FrameEvent
	change  chan struct{}
	exited  chan struct{}
	args    []string

	killOnce sync.Once
}

// Root finds the repository root (the directory with go.mod) from the
// working directory of the test.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("simboard: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Binaries returns the paths of the simulator and the firmware ELF, or an
// error telling to build them.
func Binaries() (sim, elf string, err error) {
	root, err := Root()
	if err != nil {
		return "", "", err
	}
	sim = filepath.Join(root, "firmware", "build", "scoreboard-sim")
	elf = filepath.Join(root, "firmware", "build", "scoreboard.elf")
	for _, p := range []string{sim, elf} {
		if _, err := os.Stat(p); err != nil {
			return "", "", fmt.Errorf("simboard: %s is missing: run `make -C firmware` (needs gcc-avr avr-libc simavr libsimavr-dev libelf-dev pkg-config)", p)
		}
	}
	return sim, elf, nil
}

// Start runs the simulated board behind link with extra simulator flags
// (e.g. "--noise", "0.02"). It fails t if the binaries are missing or the
// board does not come up, and stops the board when t ends.
func Start(t testing.TB, link string, args ...string) *Board {
	t.Helper()
	b, err := StartBoard(link, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Kill)
	return b
}

// StartBoard is Start without testing.TB (for benchmarks run from tools).
func StartBoard(link string, args ...string) (*Board, error) {
	sim, elf, err := Binaries()
	if err != nil {
		return nil, err
	}
	b := &Board{Link: link, change: make(chan struct{}), exited: make(chan struct{}), args: args}
	full := append([]string{"-f", elf, "-l", link, "--trace-frames"}, args...)
	b.cmd = exec.Command(sim, full...)
	b.cmd.Stderr = io.Discard
	if os.Getenv("SIMBOARD_STDERR") != "" {
		b.cmd.Stderr = os.Stderr
	}
	dieWithParent(b.cmd)
	if b.stdin, err = b.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := b.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("simboard: starting %s: %w", sim, err)
	}
	ready := make(chan string, 1)
	go b.follow(out, ready)
	go func() {
		_ = b.cmd.Wait()
		close(b.exited)
	}()
	select {
	case pty := <-ready:
		b.PTY = pty
	case <-b.exited:
		return nil, fmt.Errorf("simboard: %s exited before it was ready", sim)
	case <-time.After(10 * time.Second):
		b.Kill()
		return nil, errors.New("simboard: simulator not ready after 10 s")
	}
	return b, nil
}

func (b *Board) follow(r io.Reader, ready chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			continue
		}
		switch e.Event {
		case "ready":
			ready <- e.PTY
		case "display":
			var st State
			if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
				continue
			}
			b.mu.Lock()
			b.state = st
			if len(b.history) < 100000 {
				b.history = append(b.history, st)
			}
			close(b.change)
			b.change = make(chan struct{})
			b.mu.Unlock()
		case "frame":
			b.mu.Lock()
			b.frames = append(b.frames, FrameEvent{Dir: e.Dir, TUS: e.TUS, Wall: time.Now()})
			b.mu.Unlock()
		}
	}
}

// State returns the last display state.
func (b *Board) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// History returns every display state seen so far, oldest first.
func (b *Board) History() []State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]State(nil), b.history...)
}

// Frames returns the frame events seen so far and forgets them.
func (b *Board) Frames() []FrameEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.frames
	b.frames = nil
	return f
}

// WaitFor waits until ok accepts the display state, up to timeout, and
// returns that state (or the last one with an error).
func (b *Board) WaitFor(timeout time.Duration, ok func(State) bool) (State, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		s, ch := b.state, b.change
		b.mu.Unlock()
		if ok(s) {
			return s, nil
		}
		select {
		case <-ch:
		case <-deadline.C:
			return s, fmt.Errorf("simboard: display not as wanted after %v; it shows %s", timeout, s)
		case <-b.exited:
			return s, errors.New("simboard: the simulator exited")
		}
	}
}

// Texts returns the text of every display.
func (s State) Texts() []string {
	out := make([]string, len(s.Displays))
	for i, d := range s.Displays {
		out[i] = d.Text
	}
	return out
}

func (s State) String() string {
	var b strings.Builder
	for i, d := range s.Displays {
		fmt.Fprintf(&b, "[%d %q on=%v i=%d] ", i, d.Text, d.On, d.Intensity)
	}
	fmt.Fprintf(&b, "buzzer=%v t=%dus", s.Buzzer, s.TUS)
	return b.String()
}

// Fault sends a control line to the simulator: "noise P", "drop P",
// "stall MS".
func (b *Board) Fault(line string) error {
	_, err := io.WriteString(b.stdin, line+"\n")
	return err
}

// Kill pulls the plug: the simulator dies at once and its pty goes away,
// with the link to it, as a board does when its USB cable is pulled. A
// second call does nothing.
func (b *Board) Kill() {
	b.killOnce.Do(func() {
		if b.cmd.Process != nil {
			_ = b.cmd.Process.Kill()
		}
		<-b.exited
		_ = b.stdin.Close()
		// A killed simulator cannot remove its link as it does on a clean
		// exit; left behind, it names a pty number the system hands to the
		// next pty opened, perhaps another test's board, which a driver
		// still reconnecting here would then reach. A pulled USB cable
		// takes its device node with it, so the link goes too.
		if dst, err := os.Readlink(b.Link); err == nil && dst == b.PTY {
			_ = os.Remove(b.Link)
		}
	})
}

// Exited is closed when the simulator process has ended.
func (b *Board) Exited() <-chan struct{} { return b.exited }
