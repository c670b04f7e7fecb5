package protocol

// Splitter cuts a byte stream into COBS blocks at each 0x00. Blocks longer
// than MaxEncoded are cut off and reported as overflowed, so noise can never
// make it grow or wedge. The zero value is ready to use.
type Splitter struct {
	buf      [MaxEncoded]byte
	n        int
	overflow bool
}

// Push adds one byte. At a delimiter it returns the block collected since
// the previous one (nil for an empty block) and done == true; overflow says
// the block was longer than MaxEncoded (then block is nil). The block is
// only valid until the next Push.
func (s *Splitter) Push(c byte) (block []byte, done, overflow bool) {
	if c == Delimiter {
		n, of := s.n, s.overflow
		s.n, s.overflow = 0, false
		if of {
			return nil, true, true
		}
		if n == 0 {
			return nil, true, false
		}
		return s.buf[:n], true, false
	}
	if s.n == len(s.buf) {
		s.overflow = true
		return nil, false, false
	}
	s.buf[s.n] = c
	s.n++
	return nil, false, false
}

// Reset forgets any partial block.
func (s *Splitter) Reset() { s.n, s.overflow = 0, false }
