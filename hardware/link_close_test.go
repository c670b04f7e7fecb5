package hardware

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// timeoutPort reads nothing, each Read returning after its timeout as
// go.bug.st/serial does, and records a Close that came while a Read was in
// flight.
type timeoutPort struct {
	inRead       atomic.Int32
	closedInRead atomic.Bool
	closed       atomic.Bool
	once         sync.Once
	gone         chan struct{}
}

func (p *timeoutPort) Read(b []byte) (int, error) {
	p.inRead.Add(1)
	defer p.inRead.Add(-1)
	select {
	case <-time.After(5 * time.Millisecond):
		return 0, nil
	case <-p.gone:
		return 0, errLinkDown
	}
}

func (p *timeoutPort) Write(b []byte) (int, error)          { return len(b), nil }
func (p *timeoutPort) SetReadTimeout(d time.Duration) error { return nil }
func (p *timeoutPort) Close() error {
	if p.inRead.Load() > 0 {
		p.closedInRead.Store(true)
	}
	p.closed.Store(true)
	p.once.Do(func() { close(p.gone) })
	return nil
}

// TestConnCloseAfterReaderLeft: the port is closed only once the reader has
// stopped reading, never under a read in flight.
func TestConnCloseAfterReaderLeft(t *testing.T) {
	for i := 0; i < 50; i++ {
		p := &timeoutPort{gone: make(chan struct{})}
		c := newConn(p)
		time.Sleep(time.Duration(i%7) * time.Millisecond)
		c.close()
		if !p.closed.Load() {
			t.Fatalf("round %d: the port was not closed", i)
		}
		if p.closedInRead.Load() {
			t.Fatalf("round %d: the port was closed while a read was in flight", i)
		}
	}
}

// blockingPort's Read returns only when the port is closed, like a port
// without a read timeout.
type blockingPort struct {
	once    sync.Once
	gone    chan struct{}
	reading chan struct{} // gets a value when a Read begins
}

func (p *blockingPort) Read(b []byte) (int, error) {
	select {
	case p.reading <- struct{}{}:
	default:
	}
	<-p.gone
	return 0, errLinkDown
}
func (p *blockingPort) Write(b []byte) (int, error)          { return len(b), nil }
func (p *blockingPort) SetReadTimeout(d time.Duration) error { return nil }
func (p *blockingPort) Close() error {
	p.once.Do(func() { close(p.gone) })
	return nil
}

// TestConnCloseUnblocksReader: a reader that never leaves by itself is
// unblocked by closing the port after the grace period.
func TestConnCloseUnblocksReader(t *testing.T) {
	p := &blockingPort{gone: make(chan struct{}), reading: make(chan struct{}, 1)}
	c := newConn(p)
	<-p.reading
	start := time.Now()
	done := make(chan struct{})
	go func() {
		c.close()
		close(done)
	}()
	select {
	case <-done:
		if d := time.Since(start); d < readerGrace {
			t.Fatalf("close returned after %v with the reader still in Read; it should have waited %v for it", d, readerGrace)
		}
	case <-time.After(readerGrace + 5*time.Second):
		t.Fatal("close did not return with a reader blocked in Read")
	}
}
