package protocol

import (
	"bytes"
	"errors"
	"testing"
)

func TestCRC16KnownValue(t *testing.T) {
	// The check value of CRC-16/CCITT-FALSE.
	if got := CRC16([]byte("123456789")); got != 0x29B1 {
		t.Fatalf("CRC16(123456789) = %04x, want 29b1", got)
	}
}

func TestCOBSVectors(t *testing.T) {
	long := bytes.Repeat([]byte{0x11}, 254)
	tests := []struct {
		name     string
		raw, enc []byte
	}{
		{"one zero", []byte{0}, []byte{1, 1}},
		{"two zeros", []byte{0, 0}, []byte{1, 1, 1}},
		{"zero inside", []byte{0x11, 0x22, 0x00, 0x33}, []byte{3, 0x11, 0x22, 2, 0x33}},
		{"no zero", []byte{0x11, 0x22, 0x33, 0x44}, []byte{5, 0x11, 0x22, 0x33, 0x44}},
		{"254 non-zero", long, append(append([]byte{0xFF}, long...), 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := appendCOBS(nil, tt.raw); !bytes.Equal(got, tt.enc) {
				t.Fatalf("appendCOBS(% x) = % x, want % x", tt.raw, got, tt.enc)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	score, _ := NewSetScore(7, 2, 42)
	neg, _ := NewSetScore(8, 3, MinScore)
	alert, _ := NewAlert(9, 1, 1500)
	bright, _ := NewBrightness(10, 15)
	frames := map[string]Frame{
		"ping":      NewPing(1),
		"info":      NewInfo(2),
		"clear":     NewClear(3),
		"score":     score,
		"negative":  neg,
		"text":      NewSetText(4, 0, [8]byte{'H', 'E', 'L', 'L', 'O' | 0x80, 0, 0, 0}),
		"alert":     alert,
		"bright":    bright,
		"ack":       NewAck(7, SetScore),
		"nak":       NewNak(7, SetScore, BadCRC),
		"hello":     NewHello(0, HelloInfo{Protocol: 1, FirmwareMajor: 1, Displays: 4}),
		"zero seq":  NewPing(0),
		"all zeros": {Len: MaxPayload},
	}
	for name, f := range frames {
		t.Run(name, func(t *testing.T) {
			wire, err := AppendEncode(nil, &f)
			if err != nil {
				t.Fatal(err)
			}
			if wire[0] != 0 || wire[len(wire)-1] != 0 || bytes.IndexByte(wire[1:len(wire)-1], 0) >= 0 {
				t.Fatalf("wire % x: zero bytes must only delimit", wire)
			}
			if len(wire) > MaxWire {
				t.Fatalf("wire is %d bytes, more than MaxWire %d", len(wire), MaxWire)
			}
			var got Frame
			if err := Decode(wire[1:len(wire)-1], &got); err != nil {
				t.Fatalf("Decode(% x): %v", wire, err)
			}
			if got != f {
				t.Fatalf("round trip: got %v, want %v", &got, &f)
			}
			if f.Type != 0 {
				if err := Check(&got); err != nil {
					t.Fatalf("Check: %v", err)
				}
			}
		})
	}
}

func TestDecodeMalformed(t *testing.T) {
	good, _ := AppendEncode(nil, &Frame{Seq: 5, Type: Ping})
	block := good[1 : len(good)-1]
	flip := append([]byte(nil), block...)
	flip[len(flip)-1] ^= 0x80
	tests := []struct {
		name  string
		block []byte
		err   error
	}{
		{"empty", nil, ErrEmpty},
		{"truncated", block[:len(block)-1], ErrCOBS},
		{"truncated at a block end", []byte{3, 5, 1}, ErrTooShort},
		{"code points past the end", []byte{9, 1, 2}, ErrCOBS},
		{"zero inside a block", []byte{3, 0, 1}, ErrCOBS},
		{"too short", []byte{3, 1, 2}, ErrTooShort},
		{"too long", bytes.Repeat([]byte{1}, MaxEncoded+1), ErrTooLong},
		{"bit flipped", flip, ErrCRC},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f Frame
			if err := Decode(tt.block, &f); !errors.Is(err, tt.err) {
				t.Fatalf("Decode(% x) error = %v, want %v", tt.block, err, tt.err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	if err := Check(&Frame{Type: 0x55}); !errors.Is(err, ErrType) {
		t.Fatalf("unknown type: %v", err)
	}
	if err := Check(&Frame{Type: SetScore, Len: 4}); !errors.Is(err, ErrLength) {
		t.Fatalf("short SET_SCORE: %v", err)
	}
	if _, err := NewSetScore(1, 0, MaxScore+1); !errors.Is(err, ErrValue) {
		t.Fatalf("big score: %v", err)
	}
	if _, err := NewAlert(1, 0, 0); !errors.Is(err, ErrValue) {
		t.Fatalf("zero alert: %v", err)
	}
	if _, err := NewBrightness(1, 16); !errors.Is(err, ErrValue) {
		t.Fatalf("brightness 16: %v", err)
	}
	f := NewNak(3, SetText, BadLength)
	typ, ok, r, err := ParseAnswer(&f)
	if err != nil || ok || typ != SetText || r != BadLength {
		t.Fatalf("ParseAnswer(NAK) = %v %v %v %v", typ, ok, r, err)
	}
	if _, err := ParseHello(&f); !errors.Is(err, ErrType) {
		t.Fatalf("ParseHello(NAK) error = %v", err)
	}
}

func TestSplitterResyncsAfterNoise(t *testing.T) {
	var s Splitter
	ping, _ := AppendEncode(nil, &Frame{Seq: 9, Type: Ping})
	stream := append(bytes.Repeat([]byte{0xAA}, 100), ping...)
	var blocks, overflows int
	var last Frame
	for _, c := range stream {
		b, done, of := s.Push(c)
		if !done {
			continue
		}
		if of {
			overflows++
			continue
		}
		if b != nil {
			blocks++
			if err := Decode(b, &last); err != nil {
				t.Fatalf("Decode: %v", err)
			}
		}
	}
	if overflows != 1 || blocks != 1 || last.Seq != 9 {
		t.Fatalf("overflows %d blocks %d last %v; want 1, 1, seq 9", overflows, blocks, &last)
	}
}

func BenchmarkEncodeDecode(b *testing.B) {
	f, _ := NewSetScore(7, 2, 12345)
	buf := make([]byte, 0, MaxWire)
	var out Frame
	b.ReportAllocs()
	for b.Loop() {
		wire, err := AppendEncode(buf[:0], &f)
		if err != nil {
			b.Fatal(err)
		}
		if err := Decode(wire[1:len(wire)-1], &out); err != nil {
			b.Fatal(err)
		}
	}
}
