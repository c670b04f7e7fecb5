package hardware

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/segment"
)

func TestVirtual(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	v := NewVirtual(&out, 4)
	var sb Scoreboard = v
	if err := sb.SetScore(ctx, 1, 23); err != nil {
		t.Fatal(err)
	}
	want, _ := segment.Encode("      23")
	if got, _ := v.Segments(1); got != want {
		t.Fatalf("display 1 = %x, want %x", got, want)
	}
	if !strings.Contains(out.String(), "P2") {
		t.Fatalf("drawing has no P2 label:\n%s", out.String())
	}
	if err := sb.SetText(ctx, 0, "HELLO"); err != nil {
		t.Fatal(err)
	}
	if err := sb.Alert(ctx, 0, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ALERT P1") {
		t.Fatalf("no alert drawn:\n%s", out.String())
	}
	if err := sb.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := v.Segments(1); got != ([8]byte{}) {
		t.Fatalf("after Clear display 1 = %x", got)
	}

	bad := []struct {
		name string
		call func() error
		err  error
	}{
		{"player too high", func() error { return sb.SetScore(ctx, 4, 1) }, ErrPlayer},
		{"negative player", func() error { return sb.SetText(ctx, -1, "x") }, ErrPlayer},
		{"score too big", func() error { return sb.SetScore(ctx, 0, 123456789) }, ErrScore},
		{"text too long", func() error { return sb.SetText(ctx, 0, "123456789") }, ErrText},
		{"brightness", func() error { return sb.SetBrightness(ctx, 16) }, ErrBrightness},
		{"alert zero", func() error { return sb.Alert(ctx, 0, 0) }, ErrAlert},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			if err := b.call(); !errors.Is(err, b.err) {
				t.Fatalf("error = %v, want %v", err, b.err)
			}
		})
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := sb.SetScore(cctx, 0, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled SetScore error = %v", err)
	}
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sb.SetScore(ctx, 0, 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close error = %v", err)
	}
}

func ExampleVirtual() {
	var out bytes.Buffer
	v := NewVirtual(&out, 1)
	_ = v.SetScore(context.Background(), 0, 7)
	fmt.Print(out.String())
	// Output:
	// scoreboard (brightness 15/15)
	//                                  _
	// P1                                |
	//                                   |
}
