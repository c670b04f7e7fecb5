package hardware

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/segment"
)

// Scoreboard shows one 8-digit display per player. Every method is an
// idempotent update of what the displays should show (Alert excepted, which
// is a one-shot blink and beep); every method honours ctx.
type Scoreboard interface {
	SetScore(ctx context.Context, player int, score int) error    // player 0..3
	SetText(ctx context.Context, player int, text string) error   // up to 8 chars
	Alert(ctx context.Context, player int, d time.Duration) error // blink + buzzer
	SetBrightness(ctx context.Context, level int) error           // 0..15
	Clear(ctx context.Context) error
	Close() error
}

// Limits shared by every Scoreboard.
const (
	MaxDisplays   = 4
	MaxBrightness = 15
	MaxAlert      = 10 * time.Second
)

// Sentinel errors; every error returned wraps one of these or a context error.
var (
	ErrPlayer       = errors.New("hardware: no such player display")
	ErrBrightness   = errors.New("hardware: brightness out of range")
	ErrAlert        = errors.New("hardware: alert duration out of range")
	ErrClosed       = errors.New("hardware: scoreboard closed")
	ErrNotConnected = errors.New("hardware: scoreboard not connected (state kept, shown when the board is back)")
	ErrNoAck        = errors.New("hardware: board did not acknowledge (state kept, pushed again on reconnect)")
	ErrNak          = errors.New("hardware: board refused the command")
	ErrHandshake    = errors.New("hardware: no HELLO from the board")
	ErrNoPort       = errors.New("hardware: no serial port")
	// ErrText and ErrScore come from package segment.
	ErrText  = segment.ErrText
	ErrScore = segment.ErrScore
)

func checkPlayer(player, displays int) error {
	if player < 0 || player >= displays {
		return fmt.Errorf("%w: player %d, this board has displays 0..%d", ErrPlayer, player, displays-1)
	}
	return nil
}

func checkBrightness(level int) error {
	if level < 0 || level > MaxBrightness {
		return fmt.Errorf("%w: %d, want 0..%d", ErrBrightness, level, MaxBrightness)
	}
	return nil
}

func checkAlert(d time.Duration) error {
	if d <= 0 || d > MaxAlert {
		return fmt.Errorf("%w: %v, want more than 0 and at most %v", ErrAlert, d, MaxAlert)
	}
	return nil
}
