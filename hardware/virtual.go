package hardware

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/segment"
)

// Virtual is a Scoreboard drawn as text: after every change it writes all
// displays to w as 7-segment ASCII art, one row of digits per player. It is
// safe for concurrent use.
type Virtual struct {
	mu         sync.Mutex
	w          io.Writer
	segs       [][segment.Digits]byte
	brightness int
	closed     bool
}

var _ Scoreboard = (*Virtual)(nil)

// NewVirtual returns a virtual scoreboard with the given number of displays
// (1..4; other values are clamped) drawing to w. It draws nothing until the
// first update.
func NewVirtual(w io.Writer, displays int) *Virtual {
	if displays < 1 {
		displays = 1
	}
	if displays > MaxDisplays {
		displays = MaxDisplays
	}
	return &Virtual{w: w, segs: make([][segment.Digits]byte, displays), brightness: MaxBrightness}
}

// Displays returns the number of displays.
func (v *Virtual) Displays() int { return len(v.segs) }

// Segments returns what display player shows, leftmost digit first.
func (v *Virtual) Segments(player int) ([segment.Digits]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := checkPlayer(player, len(v.segs)); err != nil {
		return [segment.Digits]byte{}, err
	}
	return v.segs[player], nil
}

// allPlayers marks an update that is not about one display.
const allPlayers = -1 << 31

func (v *Virtual) update(ctx context.Context, player int, f func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return ErrClosed
	}
	if player != allPlayers {
		if err := checkPlayer(player, len(v.segs)); err != nil {
			return err
		}
	}
	if err := f(); err != nil {
		return err
	}
	return v.draw("")
}

// SetScore shows score right-aligned on player's display.
func (v *Virtual) SetScore(ctx context.Context, player int, score int) error {
	return v.update(ctx, player, func() error {
		s, err := segment.FormatScore(score)
		if err != nil {
			return fmt.Errorf("hardware: player %d: %w", player, err)
		}
		v.segs[player], _ = segment.Encode(s)
		return nil
	})
}

// SetText shows up to 8 characters on player's display.
func (v *Virtual) SetText(ctx context.Context, player int, text string) error {
	return v.update(ctx, player, func() error {
		segs, err := segment.Encode(text)
		if err != nil {
			return fmt.Errorf("hardware: player %d: %w", player, err)
		}
		v.segs[player] = segs
		return nil
	})
}

// Alert marks player's display and rings the terminal bell once; it does
// not wait for d to pass.
func (v *Virtual) Alert(ctx context.Context, player int, d time.Duration) error {
	if err := checkAlert(d); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return ErrClosed
	}
	if err := checkPlayer(player, len(v.segs)); err != nil {
		return err
	}
	return v.draw(fmt.Sprintf("\a*** ALERT P%d (%v) ***", player+1, d))
}

// SetBrightness records the brightness 0..15 and shows it in the header.
func (v *Virtual) SetBrightness(ctx context.Context, level int) error {
	if err := checkBrightness(level); err != nil {
		return err
	}
	return v.update(ctx, allPlayers, func() error { v.brightness = level; return nil })
}

// Clear blanks every display.
func (v *Virtual) Clear(ctx context.Context) error {
	return v.update(ctx, allPlayers, func() error {
		for i := range v.segs {
			v.segs[i] = [segment.Digits]byte{}
		}
		return nil
	})
}

// Close stops drawing; later calls return ErrClosed.
func (v *Virtual) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.closed = true
	return nil
}

// draw writes the whole board; called with v.mu held.
func (v *Virtual) draw(note string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "scoreboard (brightness %d/%d)", v.brightness, MaxBrightness)
	if note != "" {
		b.WriteString("  " + note)
	}
	b.WriteByte('\n')
	for i, s := range v.segs {
		for row, line := range segment.Render(s) {
			label := "    "
			if row == 1 {
				label = fmt.Sprintf("P%d  ", i+1)
			}
			b.WriteString(strings.TrimRight(label+line, " ") + "\n")
		}
	}
	if _, err := io.WriteString(v.w, b.String()); err != nil {
		return fmt.Errorf("hardware: virtual scoreboard: %w", err)
	}
	return nil
}
