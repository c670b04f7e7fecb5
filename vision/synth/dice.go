package synth

import (
	"errors"
	"fmt"
	"strings"
)

// Material is a die colour, by its letter in the project notation.
type Material byte

// The four materials.
const (
	Wood     Material = 'W' // orange
	Recycled Material = 'R' // green
	Stone    Material = 'S' // black
	Glass    Material = 'G' // clear
)

// Materials lists the four materials in a fixed order.
var Materials = []Material{Wood, Recycled, Stone, Glass}

// ErrNotation is wrapped by every notation parse error.
var ErrNotation = errors.New("bad notation")

// Die is one die: material and the value on its top face.
type Die struct {
	Mat  Material
	Pips int
}

// String is the project notation, e.g. "W3".
func (d Die) String() string { return fmt.Sprintf("%c%d", d.Mat, d.Pips) }

// ParseDie reads "W3".
func ParseDie(s string) (Die, error) {
	if len(s) != 2 || !strings.ContainsRune("WRSG", rune(s[0])) || s[1] < '1' || s[1] > '6' {
		return Die{}, fmt.Errorf("synth: %w: die %q", ErrNotation, s)
	}
	return Die{Material(s[0]), int(s[1] - '0')}, nil
}

// Stack is dice bottom to top.
type Stack []Die

// String is the project notation, e.g. "S1 W3 G6"; "" when empty.
func (s Stack) String() string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = d.String()
	}
	return strings.Join(parts, " ")
}

// ParseStack reads "S1 W3 G6" and checks it is legal (each die equal to or
// higher than the one below it).
func ParseStack(s string) (Stack, error) {
	var st Stack
	for _, f := range strings.Fields(s) {
		d, err := ParseDie(f)
		if err != nil {
			return nil, err
		}
		if n := len(st); n > 0 && st[n-1].Pips > d.Pips {
			return nil, fmt.Errorf("synth: %w: stack %q puts %s on %s", ErrNotation, s, d, st[n-1])
		}
		st = append(st, d)
	}
	if len(st) > 6 {
		return nil, fmt.Errorf("synth: %w: stack %q higher than 6", ErrNotation, s)
	}
	return st, nil
}

// Layout is a blueprint: 3 rows x 2 columns; -1 hatched, 0 open and empty,
// 1-6 required height.
type Layout [3][2]int

// Hatched is the Layout value of a hatched cell.
const Hatched = -1

// ParseLayout reads the notation "X1/31/1X".
func ParseLayout(s string) (Layout, error) {
	var l Layout
	rows := strings.Split(s, "/")
	if len(rows) != 3 {
		return l, fmt.Errorf("synth: %w: blueprint %q needs 3 rows", ErrNotation, s)
	}
	for r, row := range rows {
		if len(row) != 2 {
			return l, fmt.Errorf("synth: %w: blueprint %q row %d needs 2 cells", ErrNotation, s, r+1)
		}
		for c := 0; c < 2; c++ {
			switch ch := row[c]; {
			case ch == 'X':
				l[r][c] = Hatched
			case ch == '.' || ch == '0':
				l[r][c] = 0
			case ch >= '1' && ch <= '6':
				l[r][c] = int(ch - '0')
			default:
				return l, fmt.Errorf("synth: %w: blueprint %q has %q", ErrNotation, s, ch)
			}
		}
	}
	return l, nil
}

// String is the notation, with '.' for open cells.
func (l Layout) String() string {
	var b strings.Builder
	for r := 0; r < 3; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := 0; c < 2; c++ {
			switch v := l[r][c]; v {
			case Hatched:
				b.WriteByte('X')
			case 0:
				b.WriteByte('.')
			default:
				b.WriteByte(byte('0' + v))
			}
		}
	}
	return b.String()
}
