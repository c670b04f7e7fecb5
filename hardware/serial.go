package hardware

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/protocol"
	"github.com/blueprints-companion/blueprints/hardware/segment"
)

// SerialOptions configures OpenSerial. Zero values take the defaults named.
type SerialOptions struct {
	// Port is the path of the serial port (or of a symlink to it). If
	// empty, VIDPID is used.
	Port string
	// VIDPID finds the board by USB IDs ("2341:0043") on every
	// (re)connect, as the device may come back under another name.
	VIDPID string
	// Baud is the line speed; default 115200.
	Baud int
	// Opener overrides Port and VIDPID (tests, other transports).
	Opener Opener

	// AckTimeout is how long to wait for the ACK of one send; default
	// 100ms. Retries is how many times a command is sent again after a
	// timeout or a garbled answer; default 3.
	AckTimeout time.Duration
	Retries    int
	// HandshakeTimeout bounds waiting for HELLO after opening; default 3s
	// (an Arduino's bootloader takes up to 2 s after the port opens).
	HandshakeTimeout time.Duration
	// BackoffMin and BackoffMax bound the wait between reconnect
	// attempts; defaults 50ms and 500ms.
	BackoffMin, BackoffMax time.Duration
	// PingInterval is how often an idle link is checked; default 1s.
	PingInterval time.Duration
	// Logf, if set, receives one line per connection event.
	Logf func(format string, args ...any)
}

func (o *SerialOptions) defaults() error {
	if o.Baud == 0 {
		o.Baud = DefaultBaud
	}
	if o.Baud < 0 {
		return fmt.Errorf("hardware: baud %d: want a positive line speed", o.Baud)
	}
	if o.Opener == nil {
		switch {
		case o.Port != "":
			o.Opener = OpenPath(o.Port, o.Baud)
		case o.VIDPID != "":
			vid, pid, err := ParseVIDPID(o.VIDPID)
			if err != nil {
				return err
			}
			o.Opener = OpenVIDPID(vid, pid, o.Baud)
		default:
			return fmt.Errorf("%w: give a port path or a USB VID:PID", ErrNoPort)
		}
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.AckTimeout, 100*time.Millisecond)
	def(&o.HandshakeTimeout, 3*time.Second)
	def(&o.BackoffMin, 50*time.Millisecond)
	def(&o.BackoffMax, 500*time.Millisecond)
	def(&o.PingInterval, time.Second)
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = o.BackoffMin
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return nil
}

// display is the desired and the confirmed state of one display.
type display struct {
	cells     [segment.Digits]byte // what it should show (text cells)
	score     int
	isScore   bool
	ver       uint64 // bumped on every change
	confirmed uint64 // version the board acknowledged
	failed    uint64 // version whose push failed
	failErr   error
}

func (d *display) blank() bool {
	if d.isScore {
		return false
	}
	for _, c := range d.cells {
		if c != ' ' && c != 0 {
			return false
		}
	}
	return true
}

type alertReq struct {
	player int
	ms     int
	done   chan error
}

// Serial is the Scoreboard on the real board (or the simulated one). It
// keeps the desired state of every display; a background goroutine pushes
// changes with ACK wait, timeout and bounded retry, pings the idle link, and
// reconnects with backoff when the port disappears or the board stops
// answering, pushing the whole state again. Methods wait until the board
// acknowledged the change, ctx ends, or delivery failed; after a failure the
// state is kept and pushed on the next connection.
type Serial struct {
	opts SerialOptions

	mu         sync.Mutex
	displays   []display
	brightness int
	brightVer  uint64
	brightConf uint64
	alerts     []*alertReq
	// clearRefused: the board refused CLEAR (or never acknowledged it);
	// blank displays are pushed one by one until it restarts
	clearRefused bool
	connected    bool
	hello        protocol.HelloInfo
	changed      chan struct{} // closed and replaced on every change
	closed       bool
	lastErr      error

	kick   chan struct{}
	done   chan struct{}
	ctx    context.Context // cancelled by Close; bounds reconnects
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

var _ Scoreboard = (*Serial)(nil)

// OpenSerial connects to the board: opens the port, waits for its HELLO and
// pushes a blank state; ctx bounds this first connection only (like a
// dialer's). Then the link runs in the background until Close.
func OpenSerial(ctx context.Context, opts SerialOptions) (*Serial, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	s := &Serial{
		opts:    opts,
		changed: make(chan struct{}),
		kick:    make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	hctx, cancel := context.WithTimeout(ctx, opts.HandshakeTimeout)
	defer cancel()
	c, hello, err := s.connect(hctx)
	if err != nil {
		s.cancel()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hardware: connecting to the scoreboard: %w", ctx.Err())
		}
		return nil, err
	}
	n := int(hello.Displays)
	if n < 1 || n > MaxDisplays {
		c.close()
		s.cancel()
		return nil, fmt.Errorf("%w: board reports %d displays, want 1..%d", ErrHandshake, n, MaxDisplays)
	}
	s.displays = make([]display, n)
	for i := range s.displays {
		d := &s.displays[i]
		for j := range d.cells {
			d.cells[j] = ' '
		}
		d.ver = 1
	}
	s.brightness = -1
	s.connected, s.hello = true, hello
	s.wg.Add(1)
	go s.run(c)
	return s, nil
}

// Hello returns what the board said about itself at the last handshake.
func (s *Serial) Hello() protocol.HelloInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hello
}

// Connected tells whether the link is up now.
func (s *Serial) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connected
}

// Displays returns the number of displays the board reported.
func (s *Serial) Displays() int { return len(s.displays) }

// Synced tells whether the board has acknowledged the whole desired state.
func (s *Serial) Synced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.syncedLocked()
}

func (s *Serial) syncedLocked() bool {
	if !s.connected || s.brightConf < s.brightVer {
		return false
	}
	for i := range s.displays {
		if s.displays[i].confirmed < s.displays[i].ver {
			return false
		}
	}
	return true
}

// WaitSynced waits until the board shows the whole desired state.
func (s *Serial) WaitSynced(ctx context.Context) error {
	return s.wait(ctx, func() (bool, error) { return s.syncedLocked(), nil })
}

// broadcast wakes every waiter; s.mu must be held.
func (s *Serial) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Serial) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// wait calls check (with s.mu held) after every change until it is done.
func (s *Serial) wait(ctx context.Context, check func() (bool, error)) error {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return ErrClosed
		}
		ok, err := check()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return err
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("hardware: waiting for the scoreboard: %w", ctx.Err())
		case <-s.done:
			return ErrClosed
		}
	}
}

// setDisplay records the desired state of one display and waits for it.
func (s *Serial) setDisplay(ctx context.Context, player int, apply func(d *display)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if err := checkPlayer(player, len(s.displays)); err != nil {
		s.mu.Unlock()
		return err
	}
	d := &s.displays[player]
	apply(d)
	d.ver++
	want := d.ver
	s.mu.Unlock()
	s.poke()
	return s.wait(ctx, func() (bool, error) {
		switch {
		case d.confirmed >= want:
			return true, nil
		case d.failed >= want:
			return true, fmt.Errorf("hardware: player %d: %w", player, d.failErr)
		case !s.connected:
			return true, fmt.Errorf("hardware: player %d: %w", player, s.notConnected())
		}
		return false, nil
	})
}

func (s *Serial) notConnected() error {
	if s.lastErr != nil {
		return fmt.Errorf("%w: %v", ErrNotConnected, s.lastErr)
	}
	return ErrNotConnected
}

// SetScore shows score right-aligned on player's display.
func (s *Serial) SetScore(ctx context.Context, player int, score int) error {
	if _, err := segment.FormatScore(score); err != nil {
		return fmt.Errorf("hardware: player %d: %w", player, err)
	}
	return s.setDisplay(ctx, player, func(d *display) {
		d.isScore, d.score = true, score
	})
}

// SetText shows up to 8 characters on player's display ('.' lights the
// decimal point of the character before it).
func (s *Serial) SetText(ctx context.Context, player int, text string) error {
	cells, err := segment.Cells(text)
	if err != nil {
		return fmt.Errorf("hardware: player %d: %w", player, err)
	}
	return s.setDisplay(ctx, player, func(d *display) {
		d.isScore, d.cells = false, cells
	})
}

// Clear blanks every display.
func (s *Serial) Clear(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	want := make([]uint64, len(s.displays))
	for i := range s.displays {
		d := &s.displays[i]
		d.isScore = false
		for j := range d.cells {
			d.cells[j] = ' '
		}
		d.ver++
		want[i] = d.ver
	}
	s.mu.Unlock()
	s.poke()
	return s.wait(ctx, func() (bool, error) {
		for i, w := range want {
			d := &s.displays[i]
			if d.failed >= w {
				return true, fmt.Errorf("hardware: clear: %w", d.failErr)
			}
			if d.confirmed < w {
				if !s.connected {
					return true, fmt.Errorf("hardware: clear: %w", s.notConnected())
				}
				return false, nil
			}
		}
		return true, nil
	})
}

// SetBrightness sets the intensity 0..15 of every display.
func (s *Serial) SetBrightness(ctx context.Context, level int) error {
	if err := checkBrightness(level); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.brightness = level
	s.brightVer++
	want := s.brightVer
	s.mu.Unlock()
	s.poke()
	return s.wait(ctx, func() (bool, error) {
		switch {
		case s.brightConf >= want:
			return true, nil
		case !s.connected:
			return true, fmt.Errorf("hardware: brightness: %w", s.notConnected())
		}
		return false, nil
	})
}

// Alert blinks player's display and sounds the buzzer for d (at most 10 s).
// It returns once the board has acknowledged, not after d. An alert is not
// kept for a later connection: when the link is down it fails with
// ErrNotConnected.
func (s *Serial) Alert(ctx context.Context, player int, d time.Duration) error {
	if err := checkAlert(d); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ms := int((d + time.Millisecond - 1) / time.Millisecond)
	req := &alertReq{player: player, ms: ms, done: make(chan error, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if err := checkPlayer(player, len(s.displays)); err != nil {
		s.mu.Unlock()
		return err
	}
	if !s.connected {
		err := s.notConnected()
		s.mu.Unlock()
		return fmt.Errorf("hardware: alert player %d: %w", player, err)
	}
	s.alerts = append(s.alerts, req)
	s.mu.Unlock()
	s.poke()
	select {
	case err := <-req.done:
		if err != nil {
			return fmt.Errorf("hardware: alert player %d: %w", player, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("hardware: alert player %d: %w", player, ctx.Err())
	case <-s.done:
		return ErrClosed
	}
}

// Close stops the background link and closes the port. It waits for every
// goroutine of the driver to end.
func (s *Serial) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	s.cancel()
	s.broadcast()
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// errLinkDown marks errors after which the connection is dropped.
var errLinkDown = errors.New("hardware: link down")
