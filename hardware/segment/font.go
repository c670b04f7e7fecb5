package segment

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Digits is the number of characters on one display.
const Digits = 8

// Segment bits in MAX7219 no-decode order.
const (
	DP byte = 0x80
	A  byte = 0x40
	B  byte = 0x20
	C  byte = 0x10
	D  byte = 0x08
	E  byte = 0x04
	F  byte = 0x02
	G  byte = 0x01
)

// ErrText is wrapped by every error about text that cannot be shown.
var ErrText = errors.New("segment: text cannot be shown")

// font maps the printable ASCII characters the displays know to segments.
// Keep it equal to firmware/src/font.c.
var font = map[byte]byte{
	' ': 0x00, '-': 0x01, '_': 0x08, '=': 0x09, '?': 0x65, '\'': 0x02, '"': 0x22,
	'0': 0x7E, '1': 0x30, '2': 0x6D, '3': 0x79, '4': 0x33,
	'5': 0x5B, '6': 0x5F, '7': 0x70, '8': 0x7F, '9': 0x7B,
	'A': 0x77, 'B': 0x1F, 'C': 0x4E, 'D': 0x3D, 'E': 0x4F, 'F': 0x47,
	'G': 0x5E, 'H': 0x37, 'I': 0x06, 'J': 0x3C, 'K': 0x57, 'L': 0x0E,
	'M': 0x76, 'N': 0x15, 'O': 0x7E, 'P': 0x67, 'Q': 0x73, 'R': 0x05,
	'S': 0x5B, 'T': 0x0F, 'U': 0x3E, 'V': 0x3E, 'W': 0x3F, 'X': 0x37,
	'Y': 0x3B, 'Z': 0x6D,
	'b': 0x1F, 'c': 0x0D, 'd': 0x3D, 'h': 0x17, 'i': 0x10, 'n': 0x15,
	'o': 0x1D, 'r': 0x05, 't': 0x0F, 'u': 0x1C,
}

// Lookup returns the segments of one character (without decimal point).
// Lower-case letters without a shape of their own use the upper-case one.
func Lookup(c byte) (byte, bool) {
	if s, ok := font[c]; ok {
		return s, true
	}
	if c >= 'a' && c <= 'z' {
		s, ok := font[c-'a'+'A']
		return s, ok
	}
	return 0, false
}

// Cells splits text into display cells: each cell is one character, with bit
// 7 set when a '.' follows it (a '.' with no character before it, or after
// another '.', is a blank cell with its decimal point lit). The result is
// left-aligned and padded with spaces to Digits.
// It fails, wrapping ErrText, on more than Digits cells or a character the
// font does not have.
func Cells(text string) ([Digits]byte, error) {
	var cells [Digits]byte
	for i := range cells {
		cells[i] = ' '
	}
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '.' {
			if n > 0 && text[i-1] != '.' {
				cells[n-1] |= 0x80
				continue
			}
			c = ' ' | 0x80
		} else if _, ok := Lookup(c); !ok {
			return cells, fmt.Errorf("%w: %q has %s at byte %d, which 7 segments cannot show", ErrText, text, strconv.QuoteRune(rune(c)), i)
		}
		if n == Digits {
			return cells, fmt.Errorf("%w: %q needs more than %d characters", ErrText, text, Digits)
		}
		cells[n] = c
		n++
	}
	return cells, nil
}

// Segments turns display cells (as from Cells, or as carried by the
// protocol) into segment bytes, leftmost digit first. Unknown characters
// show as blank.
func Segments(cells [Digits]byte) [Digits]byte {
	var segs [Digits]byte
	for i, c := range cells {
		s, _ := Lookup(c & 0x7F)
		segs[i] = s | (c & 0x80)
	}
	return segs
}

// Encode is Cells followed by Segments.
func Encode(text string) ([Digits]byte, error) {
	cells, err := Cells(text)
	if err != nil {
		return [Digits]byte{}, err
	}
	return Segments(cells), nil
}

// MinScore and MaxScore bound what fits on eight digits.
const (
	MinScore = -9999999
	MaxScore = 99999999
)

// ErrScore is wrapped by errors about scores that do not fit a display.
var ErrScore = errors.New("segment: score does not fit 8 digits")

// FormatScore right-aligns score on eight digits, as the firmware does.
func FormatScore(score int) (string, error) {
	if score < MinScore || score > MaxScore {
		return "", fmt.Errorf("%w: %d is outside %d..%d", ErrScore, score, MinScore, MaxScore)
	}
	s := strconv.Itoa(score)
	return strings.Repeat(" ", Digits-len(s)) + s, nil
}

// Render draws segment bytes as three lines of ASCII art, three columns per
// digit:
//
//	 _  _
//	|_| _|
//	|_.|_
func Render(segs [Digits]byte) [3]string {
	var l [3]strings.Builder
	on := func(s, bit byte, c byte) byte {
		if s&bit != 0 {
			return c
		}
		return ' '
	}
	for _, s := range segs {
		l[0].WriteByte(' ')
		l[0].WriteByte(on(s, A, '_'))
		l[0].WriteByte(' ')
		l[1].WriteByte(on(s, F, '|'))
		l[1].WriteByte(on(s, G, '_'))
		l[1].WriteByte(on(s, B, '|'))
		l[2].WriteByte(on(s, E, '|'))
		l[2].WriteByte(on(s, D, '_'))
		l[2].WriteByte(on(s, C, '|'))
		l[0].WriteByte(' ')
		l[1].WriteByte(' ')
		l[2].WriteByte(on(s, DP, '.'))
	}
	return [3]string{l[0].String(), l[1].String(), l[2].String()}
}
