package protocol

import (
	"encoding/binary"
	"fmt"
)

func frame(seq uint8, t Type, payload ...byte) Frame {
	f := Frame{Seq: seq, Type: t, Len: uint8(len(payload))}
	copy(f.Data[:], payload)
	return f
}

// NewPing returns a PING.
func NewPing(seq uint8) Frame { return frame(seq, Ping) }

// NewInfo returns an INFO (the board answers with HELLO).
func NewInfo(seq uint8) Frame { return frame(seq, Info) }

// NewClear returns a CLEAR.
func NewClear(seq uint8) Frame { return frame(seq, Clear) }

// NewSetScore returns a SET_SCORE; it fails with ErrValue outside
// MinScore..MaxScore.
func NewSetScore(seq, player uint8, score int) (Frame, error) {
	if score < MinScore || score > MaxScore {
		return Frame{}, fmt.Errorf("%w: score %d, want %d..%d", ErrValue, score, MinScore, MaxScore)
	}
	f := frame(seq, SetScore, player, 0, 0, 0, 0)
	binary.BigEndian.PutUint32(f.Data[1:], uint32(int32(score)))
	return f, nil
}

// NewSetText returns a SET_TEXT with 8 cells (ASCII in bits 0..6, decimal
// point in bit 7).
func NewSetText(seq, player uint8, cells [TextCells]byte) Frame {
	f := frame(seq, SetText, player)
	f.Len += uint8(copy(f.Data[1:], cells[:]))
	return f
}

// NewAlert returns an ALERT of ms milliseconds (1..MaxAlertMS).
func NewAlert(seq, player uint8, ms int) (Frame, error) {
	if ms < 1 || ms > MaxAlertMS {
		return Frame{}, fmt.Errorf("%w: alert %d ms, want 1..%d", ErrValue, ms, MaxAlertMS)
	}
	return frame(seq, Alert, player, byte(ms>>8), byte(ms)), nil
}

// NewBrightness returns a BRIGHTNESS (0..MaxLevel).
func NewBrightness(seq uint8, level int) (Frame, error) {
	if level < 0 || level > MaxLevel {
		return Frame{}, fmt.Errorf("%w: brightness %d, want 0..%d", ErrValue, level, MaxLevel)
	}
	return frame(seq, Brightness, byte(level)), nil
}

// NewAck returns an ACK of a command of type t (what the board sends).
func NewAck(seq uint8, t Type) Frame { return frame(seq, Ack, byte(t)) }

// NewNak returns a NAK (what the board sends).
func NewNak(seq uint8, t Type, r Reason) Frame { return frame(seq, Nak, byte(t), byte(r)) }

// HelloInfo is the payload of HELLO.
type HelloInfo struct {
	Protocol                    uint8
	FirmwareMajor, Minor, Patch uint8
	Displays                    uint8
}

func (h HelloInfo) String() string {
	return fmt.Sprintf("protocol %d, firmware %d.%d.%d, %d displays", h.Protocol, h.FirmwareMajor, h.Minor, h.Patch, h.Displays)
}

// NewHello returns a HELLO (what the board sends).
func NewHello(seq uint8, h HelloInfo) Frame {
	return frame(seq, Hello, h.Protocol, h.FirmwareMajor, h.Minor, h.Patch, h.Displays)
}

// ParseHello reads a HELLO.
func ParseHello(f *Frame) (HelloInfo, error) {
	if f.Type != Hello {
		return HelloInfo{}, fmt.Errorf("%w: %v, want HELLO", ErrType, f.Type)
	}
	if err := Check(f); err != nil {
		return HelloInfo{}, err
	}
	d := f.Data
	return HelloInfo{Protocol: d[0], FirmwareMajor: d[1], Minor: d[2], Patch: d[3], Displays: d[4]}, nil
}

// ParseAnswer reads an ACK or NAK: the type of command answered, whether it
// was acknowledged, and for a NAK the reason.
func ParseAnswer(f *Frame) (t Type, ok bool, r Reason, err error) {
	if f.Type != Ack && f.Type != Nak {
		return 0, false, 0, fmt.Errorf("%w: %v, want ACK or NAK", ErrType, f.Type)
	}
	if err := Check(f); err != nil {
		return 0, false, 0, err
	}
	if f.Type == Ack {
		return Type(f.Data[0]), true, 0, nil
	}
	return Type(f.Data[0]), false, Reason(f.Data[1]), nil
}
