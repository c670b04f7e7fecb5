package protocol

import (
	"bytes"
	"testing"
)

// FuzzDecode feeds arbitrary bytes through the Splitter and Decode: nothing
// may panic, every decoded frame must encode back to the same block, and a
// valid frame must still come through after the noise.
func FuzzDecode(f *testing.F) {
	score, _ := NewSetScore(7, 2, 42)
	for _, fr := range []Frame{NewPing(1), score, NewSetText(3, 1, [8]byte{'A', 'B'}), NewHello(0, HelloInfo{1, 1, 0, 0, 4})} {
		w, _ := AppendEncode(nil, &fr)
		f.Add(w)
		f.Add(w[:len(w)/2])
	}
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{0xFF, 1, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Splitter
		var fr Frame
		for _, c := range data {
			block, done, _ := s.Push(c)
			if !done || block == nil {
				continue
			}
			if err := Decode(block, &fr); err != nil {
				continue
			}
			_ = Check(&fr)
			w, err := AppendEncode(nil, &fr)
			if err != nil {
				t.Fatalf("decoded frame %v does not encode: %v", &fr, err)
			}
			if !bytes.Equal(w[1:len(w)-1], block) {
				t.Fatalf("block % x decodes to %v which encodes to % x", block, &fr, w)
			}
		}
		// After any noise, a delimiter and a good frame get through.
		want := NewPing(42)
		w, _ := AppendEncode(nil, &want)
		got := false
		for _, c := range w {
			if block, done, _ := s.Push(c); done && block != nil {
				if Decode(block, &fr) == nil && fr == want {
					got = true
				}
			}
		}
		if !got {
			t.Fatalf("good frame lost after % x", data)
		}
	})
}
