package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Version is the protocol version carried in HELLO.
const Version = 1

// Sizes of a frame.
const (
	MaxPayload = 16
	MinRaw     = 4                   // seq, type, crc
	MaxRaw     = MinRaw + MaxPayload // decoded frame
	MaxEncoded = MaxRaw + 1          // COBS adds one byte per 254
	MaxWire    = 1 + MaxEncoded + 1  // leading and trailing delimiter
	Delimiter  = 0x00                // ends every frame on the wire
	TextCells  = 8                   // cells of SET_TEXT
	MaxAlertMS = 10000               // longest ALERT
	MaxLevel   = 15                  // highest BRIGHTNESS
	MinScore   = -9999999            // lowest SET_SCORE
	MaxScore   = 99999999            // highest SET_SCORE
)

// Type is the frame type.
type Type uint8

// Commands (host to board) and answers (board to host).
const (
	Ping       Type = 0x01
	Info       Type = 0x02
	SetScore   Type = 0x10
	SetText    Type = 0x11
	Alert      Type = 0x12
	Brightness Type = 0x13
	Clear      Type = 0x14
	Ack        Type = 0x80
	Nak        Type = 0x81
	Hello      Type = 0x82
)

var typeNames = map[Type]string{
	Ping: "PING", Info: "INFO", SetScore: "SET_SCORE", SetText: "SET_TEXT",
	Alert: "ALERT", Brightness: "BRIGHTNESS", Clear: "CLEAR",
	Ack: "ACK", Nak: "NAK", Hello: "HELLO",
}

func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type 0x%02x", uint8(t))
}

// PayloadLen returns the payload length a type must have, and false for an
// unknown type.
func PayloadLen(t Type) (int, bool) {
	switch t {
	case Ping, Info, Clear:
		return 0, true
	case SetScore:
		return 5, true
	case SetText:
		return 1 + TextCells, true
	case Alert:
		return 3, true
	case Brightness:
		return 1, true
	case Ack:
		return 1, true
	case Nak:
		return 2, true
	case Hello:
		return 5, true
	}
	return 0, false
}

// Reason is why the board refused a frame (the second byte of NAK).
type Reason uint8

// NAK reasons.
const (
	BadCRC      Reason = 1
	UnknownType Reason = 2
	BadLength   Reason = 3
	BadValue    Reason = 4
	Overflow    Reason = 5
)

func (r Reason) String() string {
	switch r {
	case BadCRC:
		return "bad CRC"
	case UnknownType:
		return "unknown type"
	case BadLength:
		return "bad length"
	case BadValue:
		return "value out of range"
	case Overflow:
		return "frame too long or bad COBS"
	}
	return fmt.Sprintf("reason %d", uint8(r))
}

// Errors of Decode and the Parse functions.
var (
	ErrEmpty    = errors.New("protocol: empty frame")
	ErrCOBS     = errors.New("protocol: bad COBS encoding")
	ErrTooLong  = errors.New("protocol: frame too long")
	ErrTooShort = errors.New("protocol: frame too short")
	ErrCRC      = errors.New("protocol: bad CRC")
	ErrType     = errors.New("protocol: unexpected frame type")
	ErrLength   = errors.New("protocol: wrong payload length for type")
	ErrValue    = errors.New("protocol: value out of range")
)

// Frame is one decoded frame. The payload lives inside the struct, so
// frames can be kept and reused without allocating.
type Frame struct {
	Seq  uint8
	Type Type
	Len  uint8
	Data [MaxPayload]byte
}

// Payload returns the payload bytes.
func (f *Frame) Payload() []byte { return f.Data[:f.Len] }

func (f *Frame) String() string {
	return fmt.Sprintf("%v seq=%d payload=% x", f.Type, f.Seq, f.Payload())
}

// crcTable is CRC-16/CCITT-FALSE one byte at a time.
var crcTable = func() (t [256]uint16) {
	for i := range t {
		crc := uint16(i) << 8
		for b := 0; b < 8; b++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
		t[i] = crc
	}
	return t
}()

// CRC16 is CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF.
func CRC16(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, c := range b {
		crc = crc<<8 ^ crcTable[byte(crc>>8)^c]
	}
	return crc
}

// AppendEncode appends f to dst as it goes on the wire: a 0x00, the COBS
// encoding of seq, type, payload and CRC, and a 0x00. It does not allocate
// when dst has MaxWire bytes of spare capacity.
func AppendEncode(dst []byte, f *Frame) ([]byte, error) {
	if f.Len > MaxPayload {
		return dst, fmt.Errorf("%w: payload %d bytes, at most %d", ErrTooLong, f.Len, MaxPayload)
	}
	var raw [MaxRaw]byte
	raw[0], raw[1] = f.Seq, byte(f.Type)
	n := 2 + copy(raw[2:], f.Payload())
	binary.BigEndian.PutUint16(raw[n:], CRC16(raw[:n]))
	n += 2
	dst = append(dst, Delimiter)
	dst = appendCOBS(dst, raw[:n])
	return append(dst, Delimiter), nil
}

func appendCOBS(dst, src []byte) []byte {
	codeAt := len(dst)
	dst = append(dst, 0)
	code := byte(1)
	for _, c := range src {
		if c != 0 {
			dst = append(dst, c)
			code++
		}
		if c == 0 || code == 0xFF {
			dst[codeAt] = code
			codeAt = len(dst)
			dst = append(dst, 0)
			code = 1
		}
	}
	dst[codeAt] = code
	return dst
}

// Decode decodes one COBS block (without delimiters) into f, checking the
// encoding, the size and the CRC. It does not check the type or the payload
// length: see Check.
func Decode(block []byte, f *Frame) error {
	if len(block) == 0 {
		return ErrEmpty
	}
	if len(block) > MaxEncoded {
		return fmt.Errorf("%w: %d bytes encoded, at most %d", ErrTooLong, len(block), MaxEncoded)
	}
	var raw [MaxEncoded]byte
	n := 0
	for i := 0; i < len(block); {
		code := block[i]
		if code == 0 {
			return fmt.Errorf("%w: zero byte at %d", ErrCOBS, i)
		}
		i++
		for j := 1; j < int(code); j++ {
			if i >= len(block) {
				return fmt.Errorf("%w: block cut short", ErrCOBS)
			}
			if block[i] == 0 {
				return fmt.Errorf("%w: zero byte at %d", ErrCOBS, i)
			}
			raw[n] = block[i]
			n++
			i++
		}
		if code != 0xFF && i < len(block) {
			raw[n] = 0
			n++
		}
	}
	if n < MinRaw {
		return fmt.Errorf("%w: %d bytes, at least %d", ErrTooShort, n, MinRaw)
	}
	if n > MaxRaw {
		return fmt.Errorf("%w: %d bytes decoded, at most %d", ErrTooLong, n, MaxRaw)
	}
	want := binary.BigEndian.Uint16(raw[n-2:])
	if got := CRC16(raw[:n-2]); got != want {
		return fmt.Errorf("%w: computed %04x, frame says %04x", ErrCRC, got, want)
	}
	f.Seq, f.Type, f.Len = raw[0], Type(raw[1]), uint8(n-MinRaw)
	f.Data = [MaxPayload]byte{}
	copy(f.Data[:], raw[2:n-2])
	return nil
}

// Check verifies that f has a known type and the payload length of it.
func Check(f *Frame) error {
	want, ok := PayloadLen(f.Type)
	if !ok {
		return fmt.Errorf("%w: %v", ErrType, f.Type)
	}
	if int(f.Len) != want {
		return fmt.Errorf("%w: %v has %d payload bytes, want %d", ErrLength, f.Type, f.Len, want)
	}
	return nil
}
