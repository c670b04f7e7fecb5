package fakeboard

import (
	"os"
	"sync"
	"testing"

	"github.com/creack/pty"

	"github.com/blueprints-companion/blueprints/hardware/protocol"
)

// Board answers on the master side of a pty with a handler.
type Board struct {
	// Path is the pty's slave side: the port the driver opens.
	Path string
	// Master is the board's side, for writing bytes nobody asked for.
	Master *os.File
	slave  *os.File
	wg     sync.WaitGroup
}

// New opens a pty and answers every whole frame the driver sends with
// the frames answer returns (none for silence), until the test ends.
func New(t testing.TB, answer func(cmd protocol.Frame) []protocol.Frame) *Board {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Fatalf("pty.Open: %v", err)
	}
	b := &Board{Path: s.Name(), Master: m, slave: s}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		var sp protocol.Splitter
		buf := make([]byte, 256)
		for {
			n, err := m.Read(buf)
			if err != nil {
				return
			}
			for _, c := range buf[:n] {
				block, done, _ := sp.Push(c)
				if !done || block == nil {
					continue
				}
				var f protocol.Frame
				if protocol.Decode(block, &f) != nil {
					continue
				}
				for _, a := range answer(f) {
					w, _ := protocol.AppendEncode(nil, &a)
					if _, err := m.Write(w[1:]); err != nil {
						return
					}
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = s.Close()
		_ = m.Close()
		b.wg.Wait()
	})
	return b
}
