package hardware

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blueprints-companion/blueprints/hardware/protocol"
)

// conn is one open port with its reader goroutine.
type conn struct {
	port    Port
	frames  chan protocol.Frame
	errc    chan error
	stop    chan struct{}
	wg      sync.WaitGroup
	seq     uint8
	garbage atomic.Int64 // bytes that were not valid frames
	wire    []byte
}

func newConn(p Port) *conn {
	c := &conn{
		port:   p,
		frames: make(chan protocol.Frame, 32),
		errc:   make(chan error, 1),
		stop:   make(chan struct{}),
		wire:   make([]byte, 0, protocol.MaxWire),
	}
	c.wg.Add(1)
	go c.read()
	return c
}

func (c *conn) read() {
	defer c.wg.Done()
	buf := make([]byte, 256)
	var sp protocol.Splitter
	for {
		select {
		case <-c.stop:
			return
		default:
		}
		n, err := c.port.Read(buf)
		if err != nil {
			select {
			case c.errc <- fmt.Errorf("%w: read: %v", errLinkDown, err):
			default:
			}
			return
		}
		for _, b := range buf[:n] {
			block, done, overflow := sp.Push(b)
			if !done {
				continue
			}
			if overflow {
				c.garbage.Add(protocol.MaxEncoded)
				continue
			}
			if block == nil {
				continue
			}
			var f protocol.Frame
			if err := protocol.Decode(block, &f); err != nil {
				c.garbage.Add(int64(len(block)))
				continue
			}
			select {
			case c.frames <- f:
			case <-c.stop:
				return
			}
		}
	}
}

// readerGrace is how long close waits for the reader to leave on its own
// (it reads with a 50 ms timeout and looks at stop between reads) before it
// closes the port under a read that is still in flight.
const readerGrace = time.Second

// close stops the reader and closes the port. The port is closed after the
// reader has left where it can: closing a file descriptor while another
// goroutine is between select and read lets that read land on whatever file
// next takes the number, and go.bug.st/serial's Close then waits for that
// read forever (a CI run hung nine minutes there).
func (c *conn) close() {
	close(c.stop)
	left := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(left)
	}()
	t := time.NewTimer(readerGrace)
	select {
	case <-left:
	case <-t.C:
	}
	t.Stop()
	_ = c.port.Close()
	<-left
}

func (c *conn) nextSeq() uint8 {
	c.seq++
	if c.seq == 0 {
		c.seq = 1
	}
	return c.seq
}

func (c *conn) send(f *protocol.Frame) error {
	wire, err := protocol.AppendEncode(c.wire[:0], f)
	if err != nil {
		return err
	}
	if _, err := c.port.Write(wire); err != nil {
		return fmt.Errorf("%w: write: %v", errLinkDown, err)
	}
	return nil
}

// errRebooted reports a HELLO with seq 0: the board restarted.
var errRebooted = errors.New("hardware: board restarted")

// exchange sends f and waits for its answer, resending on timeout or on a
// NAK that says the frame arrived damaged. It returns the answer (ACK, or
// HELLO for INFO). rebooted is set when an unsolicited HELLO was seen.
func (s *Serial) exchange(ctx context.Context, c *conn, f protocol.Frame, retries int, rebooted *bool) (protocol.Frame, error) {
	var lastNak error
	for attempt := 0; attempt <= retries; attempt++ {
		f.Seq = c.nextSeq()
		if err := c.send(&f); err != nil {
			return protocol.Frame{}, err
		}
		timer := time.NewTimer(s.opts.AckTimeout)
	wait:
		for {
			select {
			case a := <-c.frames:
				if a.Type == protocol.Hello && a.Seq == 0 {
					*rebooted = true
					continue
				}
				if a.Seq != f.Seq {
					continue // stale answer to an earlier send
				}
				switch a.Type {
				case protocol.Ack:
					if t, _, _, err := protocol.ParseAnswer(&a); err == nil && t == f.Type {
						timer.Stop()
						return a, nil
					}
				case protocol.Hello:
					if f.Type == protocol.Info {
						timer.Stop()
						return a, nil
					}
				case protocol.Nak:
					t, _, r, err := protocol.ParseAnswer(&a)
					if err != nil {
						continue
					}
					// BAD_VALUE and UNKNOWN_TYPE on an intact frame are final;
					// BAD_LENGTH is what a frame cut short by lost bytes gets
					if t == f.Type && (r == protocol.BadValue || r == protocol.UnknownType) {
						timer.Stop()
						return a, fmt.Errorf("%w: %v: %v", ErrNak, f.Type, r)
					}
					lastNak = fmt.Errorf("board answered %v", r)
					timer.Stop()
					break wait // damaged on the way: send again now
				}
			case err := <-c.errc:
				timer.Stop()
				return protocol.Frame{}, err
			case <-timer.C:
				break wait
			case <-s.done:
				timer.Stop()
				return protocol.Frame{}, ErrClosed
			case <-ctx.Done():
				timer.Stop()
				return protocol.Frame{}, ctx.Err()
			}
		}
	}
	if lastNak != nil {
		return protocol.Frame{}, fmt.Errorf("%w: %v after %d sends (last: %v)", ErrNoAck, f.Type, retries+1, lastNak)
	}
	return protocol.Frame{}, fmt.Errorf("%w: %v, %d sends of %v each", ErrNoAck, f.Type, retries+1, s.opts.AckTimeout)
}

// connect opens the port and waits for HELLO, until ctx ends.
func (s *Serial) connect(ctx context.Context) (*conn, protocol.HelloInfo, error) {
	p, err := s.opts.Opener(ctx)
	if err != nil {
		return nil, protocol.HelloInfo{}, err
	}
	if err := p.SetReadTimeout(50 * time.Millisecond); err != nil {
		_ = p.Close()
		return nil, protocol.HelloInfo{}, fmt.Errorf("hardware: setting read timeout: %w", err)
	}
	if r, ok := p.(inputResetter); ok {
		_ = r.ResetInputBuffer()
	}
	c := newConn(p)
	for {
		info := protocol.NewInfo(0)
		var rebooted bool
		a, err := s.exchange(ctx, c, info, 0, &rebooted)
		if err == nil {
			h, perr := protocol.ParseHello(&a)
			if perr != nil {
				err = perr
			} else if h.Protocol != protocol.Version {
				c.close()
				return nil, h, fmt.Errorf("%w: board speaks protocol %d, this driver %d (update the firmware or the program)", ErrHandshake, h.Protocol, protocol.Version)
			} else {
				return c, h, nil
			}
		}
		if errors.Is(err, errLinkDown) || errors.Is(err, ErrClosed) {
			c.close()
			return nil, protocol.HelloInfo{}, err
		}
		if ctx.Err() != nil {
			g := c.garbage.Load()
			c.close()
			if g > 0 {
				return nil, protocol.HelloInfo{}, fmt.Errorf("%w: %d bytes arrived that are not scoreboard frames (wrong port or baud rate, or not the scoreboard firmware?)", ErrHandshake, g)
			}
			return nil, protocol.HelloInfo{}, fmt.Errorf("%w: the port is silent (is the scoreboard firmware flashed?)", ErrHandshake)
		}
	}
}

// run is the background link: serve the connection, and when it fails,
// reconnect with backoff.
func (s *Serial) run(c *conn) {
	defer s.wg.Done()
	backoff := s.opts.BackoffMin
	for {
		if c != nil {
			s.opts.Logf("scoreboard connected (%v)", s.Hello())
			err := s.serve(c)
			c.close()
			s.mu.Lock()
			s.connected = false
			s.lastErr = err
			alerts := s.alerts
			s.alerts = nil
			s.broadcast()
			s.mu.Unlock()
			for _, a := range alerts {
				a.done <- fmt.Errorf("%w: %v", ErrNotConnected, err)
			}
			if errors.Is(err, ErrClosed) {
				return
			}
			s.opts.Logf("scoreboard link lost: %v", err)
			backoff = s.opts.BackoffMin
			c = nil
		}
		select {
		case <-s.done:
			return
		case <-time.After(backoff):
		}
		backoff *= 2
		if backoff > s.opts.BackoffMax {
			backoff = s.opts.BackoffMax
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.opts.HandshakeTimeout)
		nc, hello, err := s.connect(ctx)
		cancel()
		if err != nil {
			s.mu.Lock()
			s.lastErr = err
			s.mu.Unlock()
			if errors.Is(err, ErrNoPort) {
				// nothing there yet: looking is cheap, so look often and
				// catch the board the moment it is plugged in again
				backoff = s.opts.BackoffMin
			}
			continue
		}
		s.mu.Lock()
		s.connected, s.hello = true, hello
		s.markAllUnconfirmed()
		s.broadcast()
		s.mu.Unlock()
		c = nc
	}
}

// markAllUnconfirmed makes the next serve push everything; s.mu held.
func (s *Serial) markAllUnconfirmed() {
	for i := range s.displays {
		d := &s.displays[i]
		d.confirmed = 0
		if d.failed > 0 && !errors.Is(d.failErr, ErrNak) {
			d.failed, d.failErr = 0, nil // the board never refused it: try again
		}
	}
	if s.brightness >= 0 {
		s.brightConf = 0
	}
	s.clearRefused = false // a restarted board may take CLEAR again
}

// item is one thing to push.
type item struct {
	frame  protocol.Frame
	clear  bool
	player int // display, or -1
	ver    uint64
	bright bool
	alert  *alertReq
}

// next picks what to push next; s.mu held. Order: CLEAR when several
// displays should become blank, brightness, displays, alerts.
func (s *Serial) next() (item, bool) {
	blanks := 0
	for i := range s.displays {
		d := &s.displays[i]
		if d.confirmed < d.ver && d.failed < d.ver && d.blank() {
			blanks++
		}
	}
	if blanks >= 2 && !s.clearRefused {
		return item{frame: protocol.NewClear(0), clear: true, player: -1}, true
	}
	if s.brightConf < s.brightVer && s.brightness >= 0 {
		f, _ := protocol.NewBrightness(0, s.brightness)
		return item{frame: f, bright: true, player: -1, ver: s.brightVer}, true
	}
	for i := range s.displays {
		d := &s.displays[i]
		if d.confirmed >= d.ver || d.failed >= d.ver {
			continue
		}
		var f protocol.Frame
		if d.isScore {
			f, _ = protocol.NewSetScore(0, uint8(i), d.score)
		} else {
			f = protocol.NewSetText(0, uint8(i), d.cells)
		}
		return item{frame: f, player: i, ver: d.ver}, true
	}
	if len(s.alerts) > 0 {
		a := s.alerts[0]
		s.alerts = s.alerts[1:]
		f, _ := protocol.NewAlert(0, uint8(a.player), a.ms)
		return item{frame: f, player: -1, alert: a}, true
	}
	return item{}, false
}

// complete records the outcome of pushing it; s.mu held.
func (s *Serial) complete(it item, err error) {
	switch {
	case it.alert != nil:
		it.alert.done <- err
	case it.clear:
		if err != nil {
			// A board that refuses CLEAR (or does not answer it) gets the
			// blank displays one by one instead, which a refusal stops
			// for each; sending CLEAR again would loop for ever.
			if errors.Is(err, ErrNak) || errors.Is(err, ErrNoAck) {
				s.clearRefused = true
			}
			break
		}
		for i := range s.displays {
			d := &s.displays[i]
			if d.blank() {
				d.confirmed = d.ver
			} else {
				d.confirmed = 0 // CLEAR blanked it: push it again
			}
		}
	case it.bright:
		if err == nil && s.brightConf < it.ver {
			s.brightConf = it.ver
		}
	default:
		d := &s.displays[it.player]
		if err == nil {
			if d.confirmed < it.ver {
				d.confirmed = it.ver
			}
		} else if errors.Is(err, ErrNak) || errors.Is(err, ErrNoAck) {
			d.failed, d.failErr = it.ver, err
		}
	}
	s.broadcast()
}

// serve pushes changes and pings the idle link until it fails.
func (s *Serial) serve(c *conn) error {
	ping := time.NewTimer(s.opts.PingInterval)
	defer ping.Stop()
	for {
		var rebooted bool
		s.mu.Lock()
		it, ok := s.next()
		s.mu.Unlock()
		if ok {
			_, err := s.exchange(s.ctx, c, it.frame, s.opts.Retries, &rebooted)
			s.mu.Lock()
			s.complete(it, err)
			if rebooted {
				s.markAllUnconfirmed()
			}
			s.mu.Unlock()
			if err != nil && !errors.Is(err, ErrNak) {
				return err
			}
			resetTimer(ping, s.opts.PingInterval)
			continue
		}
		select {
		case <-s.done:
			return ErrClosed
		case <-s.kick:
		case err := <-c.errc:
			return err
		case a := <-c.frames:
			if a.Type == protocol.Hello && a.Seq == 0 {
				s.opts.Logf("scoreboard restarted: pushing the whole state again")
				s.mu.Lock()
				s.markAllUnconfirmed()
				s.mu.Unlock()
			}
		case <-ping.C:
			if _, err := s.exchange(s.ctx, c, protocol.NewPing(0), s.opts.Retries, &rebooted); err != nil {
				return err
			}
			if rebooted {
				s.mu.Lock()
				s.markAllUnconfirmed()
				s.mu.Unlock()
			}
			ping.Reset(s.opts.PingInterval)
		}
	}
}

func resetTimer(t *time.Timer, d time.Duration) {
	t.Stop()
	t.Reset(d)
}
