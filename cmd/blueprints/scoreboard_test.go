package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/fakeboard"
	"github.com/blueprints-companion/blueprints/hardware/protocol"
	"github.com/blueprints-companion/blueprints/hardware/simboard"
	"github.com/spf13/viper"
)

func runBlueprints(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestParseScores(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		errPart string
	}{
		{in: "12,23,7,0", want: []int{12, 23, 7, 0}},
		{in: " 5 , -3 ", want: []int{5, -3}},
		{in: "99999999", want: []int{99999999}},
		{in: "", errPart: "no scores"},
		{in: "1,x", errPart: `score 2 "x" is not a whole number`},
		{in: "1,,2", errPart: `score 2 "" is not a whole number`},
		{in: "1,2,3,4,5", errPart: "at most 4"},
		{in: "100000000", errPart: "does not fit 8 digits"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseScores(tt.in)
			if tt.errPart != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errPart) {
					t.Fatalf("parseScores(%q) error %v, want one containing %q", tt.in, err, tt.errPart)
				}
				return
			}
			if err != nil || len(got) != len(tt.want) {
				t.Fatalf("parseScores(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("parseScores(%q) = %v, want %v", tt.in, got, tt.want)
				}
			}
		})
	}
}

func FuzzParseScores(f *testing.F) {
	for _, s := range []string{"12,23,7,0", "", "-1", "1,,", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseScores(s)
		if err == nil && (len(got) == 0 || len(got) > 4) {
			t.Fatalf("parseScores(%q) = %v without error", s, got)
		}
	})
}

func TestScoreboardCommandErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		code    int
		errPart string
	}{
		{"no board", []string{"scoreboard", "show", "--scores", "1"}, 2, "no board given"},
		{"bad scores", []string{"scoreboard", "show", "--virtual", "--scores", "1,a"}, 2, `"a" is not a whole number`},
		{"too many for the board", []string{"scoreboard", "show", "--virtual", "--displays", "2", "--scores", "1,2,3"}, 2, "3 scores but the board has 2 displays"},
		{"bad displays", []string{"scoreboard", "test", "--virtual", "--displays", "9"}, 2, "--displays 9"},
		{"list bad displays", []string{"scoreboard", "list", "--virtual", "--displays", "-5"}, 2, "--displays -5"},
		{"bad vid-pid", []string{"scoreboard", "test", "--vid-pid", "2341"}, 2, "VID:PID"},
		{"missing port", []string{"scoreboard", "show", "--port", filepath.Join(t.TempDir(), "none"), "--scores", "1"}, 1, "does not exist"},
		{"bad brightness", []string{"scoreboard", "show", "--virtual", "--scores", "1", "--brightness", "16"}, 2, "--brightness 16"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runBlueprints(t, tt.args...)
			if exitCode(err) != tt.code || err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("blueprints %v: exit %d (%v), want %d with %q", tt.args, exitCode(err), err, tt.code, tt.errPart)
			}
		})
	}
}

func TestScoreboardVirtual(t *testing.T) {
	out, err := runBlueprints(t, "scoreboard", "show", "--virtual", "--scores", "12,23,7,0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "P4") || !strings.Contains(out, " _|") {
		t.Fatalf("virtual drawing:\n%s", out)
	}
	out, err = runBlueprints(t, "scoreboard", "test", "--virtual", "--hold", "0s")
	if err != nil || !strings.Contains(out, "ALERT P1") {
		t.Fatalf("test --virtual: %v\n%s", err, out)
	}
	out, err = runBlueprints(t, "scoreboard", "list", "--virtual")
	if err != nil || !strings.Contains(out, "virtual") {
		t.Fatalf("list --virtual: %v\n%s", err, out)
	}
}

// The commands against the real firmware in the simulated board.
func TestScoreboardOnSimulatedBoard(t *testing.T) {
	link := filepath.Join(t.TempDir(), "scoreboard")
	b := simboard.Start(t, link)
	if _, err := runBlueprints(t, "scoreboard", "show", "--port", link, "--scores", "12,23,7,0"); err != nil {
		t.Fatal(err)
	}
	want := []string{"      12", "      23", "       7", "       0"}
	if _, err := b.WaitFor(10*time.Second, func(s simboard.State) bool {
		return strings.Join(s.Texts(), "|") == strings.Join(want, "|")
	}); err != nil {
		t.Fatal(err)
	}
	// BLUEPRINTS_PORT works as well as --port.
	t.Setenv("BLUEPRINTS_PORT", link)
	if _, err := runBlueprints(t, "scoreboard", "test", "--hold", "100ms"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WaitFor(10*time.Second, func(s simboard.State) bool {
		return strings.Join(s.Texts(), "") == strings.Repeat(" ", 32)
	}); err != nil {
		t.Fatalf("not cleared after the test: %v", err)
	}
	allLit, beeps, prev := false, 0, false
	for _, s := range b.History() {
		lit := len(s.Displays) == 4
		for _, d := range s.Displays {
			lit = lit && d.Segs == "ffffffffffffffff" && d.Intensity == 15
		}
		allLit = allLit || lit
		if s.Buzzer && !prev {
			beeps++
		}
		prev = s.Buzzer
	}
	if !allLit || beeps != 1 {
		t.Fatalf("scoreboard test: every segment lit %v, beeps %d; want true, 1", allLit, beeps)
	}
}

// stalledBoard never takes a change: its calls wait until ctx ends (a
// board restarting over and over, say).
type stalledBoard struct {
	waits []time.Duration // how long each call was given
}

func (b *stalledBoard) wait(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok {
		b.waits = append(b.waits, time.Until(d))
	} else {
		b.waits = append(b.waits, -1)
	}
	<-ctx.Done()
	return fmt.Errorf("hardware: waiting for the scoreboard: %w", ctx.Err())
}
func (b *stalledBoard) SetScore(ctx context.Context, _, _ int) error       { return b.wait(ctx) }
func (b *stalledBoard) SetText(ctx context.Context, _ int, _ string) error { return b.wait(ctx) }
func (b *stalledBoard) Alert(ctx context.Context, _ int, _ time.Duration) error {
	return b.wait(ctx)
}
func (b *stalledBoard) Close() error { return nil }

// TestPersistGivesUpAfterTimeout: a change the board never takes ends
// after --timeout with a message that says so (it used to wait for ever).
func TestPersistGivesUpAfterTimeout(t *testing.T) {
	v := viper.New()
	v.Set("timeout", 100*time.Millisecond)
	b := &stalledBoard{}
	start := time.Now()
	err := persist(context.Background(), v, nil, func(ctx context.Context) error { return b.SetScore(ctx, 0, 1) })
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("persist took %v", took)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "within --timeout 100ms") {
		t.Fatalf("error %v, want one naming --timeout", err)
	}
}

// TestPlayBoardDoesNotStallTheGame: play gives a stalled board boardWait
// once, then only stuckWait a call.
func TestPlayBoardDoesNotStallTheGame(t *testing.T) {
	sb := &stalledBoard{}
	b := &patientBoard{display: sb, wait: boardWait}
	ctx := context.Background()
	if err := b.SetScore(ctx, 0, 1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("first call: %v", err)
	}
	for i := 0; i < 3; i++ {
		_ = b.SetText(ctx, i, "x")
	}
	_ = b.Alert(ctx, 0, time.Second)
	if len(sb.waits) != 5 || sb.waits[0] <= stuckWait || sb.waits[0] > boardWait {
		t.Fatalf("calls were given %v: want %v first", sb.waits, boardWait)
	}
	for _, w := range sb.waits[1:] {
		if w > stuckWait {
			t.Fatalf("calls were given %v: want at most %v after the first ran out", sb.waits, stuckWait)
		}
	}
}

// fakeBoard is a scoreboard with displays displays on a pty of its own: it
// says HELLO, acknowledges every command and counts the players each
// command was for (the real firmware has its display count built in).
type fakeBoard struct {
	path string
	mu   sync.Mutex
	seen map[uint8]int // player: SET_SCORE, SET_TEXT and ALERT commands
}

func newFakeBoard(t *testing.T, displays uint8) *fakeBoard {
	t.Helper()
	fb := &fakeBoard{seen: map[uint8]int{}}
	fb.path = fakeboard.New(t, func(f protocol.Frame) []protocol.Frame {
		switch f.Type {
		case protocol.Info:
			return []protocol.Frame{protocol.NewHello(f.Seq, protocol.HelloInfo{Protocol: protocol.Version, FirmwareMajor: 1, Displays: displays})}
		case protocol.SetScore, protocol.SetText, protocol.Alert:
			fb.mu.Lock()
			fb.seen[f.Data[0]]++
			fb.mu.Unlock()
		}
		return []protocol.Frame{protocol.NewAck(f.Seq, f.Type)}
	}).Path
	return fb
}

// TestPlayRefusesABoardWithTooFewDisplays: play on a board with fewer
// displays than players refuses to start, naming both counts (players 3
// and 4 used to be shown nothing), and records nothing; as many players
// as displays play on it.
func TestPlayRefusesABoardWithTooFewDisplays(t *testing.T) {
	fb := newFakeBoard(t, 2)
	log := filepath.Join(t.TempDir(), "game.jsonl")
	out, code, msg := run(t, "", "play", "--players", "4", "--port", fb.path, "--log", log)
	if code != 2 || !strings.Contains(msg, "scoreboard on "+fb.path+" has 2 displays; 4 players need 4") || !strings.Contains(msg, "--players 2") {
		t.Fatalf("play --players 4 on a 2-display board: exit %d %q, want 2 naming the board's 2 displays and the 4 players", code, msg)
	}
	if out != "" {
		t.Fatalf("refused play printed:\n%s", out)
	}
	if _, err := os.Stat(log); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("refused play left a log: %v", err)
	}
	fb.mu.Lock()
	n := len(fb.seen)
	fb.mu.Unlock()
	if n != 0 {
		t.Fatalf("refused play drew on the board: %v", fb.seen)
	}

	_, code, msg = run(t, "", "play", "--players", "2", "--port", fb.path, "--mistakes", "0")
	if code != 0 {
		t.Fatalf("play --players 2 on a 2-display board: exit %d %s", code, msg)
	}
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.seen) != 2 || fb.seen[0] == 0 || fb.seen[1] == 0 {
		t.Fatalf("the board was drawn on for players %v, want 0 and 1", fb.seen)
	}
}
