package engine

import (
	"fmt"
	"strings"
)

// Material is a die's colour, which is its building material.
type Material uint8

// The four materials. NoMaterial is the zero value of an absent die.
const (
	NoMaterial Material = iota
	Wood                // orange, W
	Recycled            // green, R
	Stone               // black, S
	Glass               // clear, G
)

// NumMaterials is the number of real materials (Wood..Glass).
const NumMaterials = 4

// DicePerMaterial is how many dice of each colour the game has; 32 in all.
const DicePerMaterial = 8

// TotalDice is the number of dice in the game.
const TotalDice = NumMaterials * DicePerMaterial

// Materials lists the four materials in notation order.
var Materials = [NumMaterials]Material{Wood, Recycled, Stone, Glass}

var materialLetters = [...]byte{NoMaterial: '?', Wood: 'W', Recycled: 'R', Stone: 'S', Glass: 'G'}
var materialNames = [...]string{NoMaterial: "none", Wood: "wood", Recycled: "recycled", Stone: "stone", Glass: "glass"}
var materialColours = [...]string{NoMaterial: "none", Wood: "orange", Recycled: "green", Stone: "black", Glass: "clear"}

// Letter is the material's notation letter (W, R, S, G).
func (m Material) Letter() byte {
	if int(m) < len(materialLetters) {
		return materialLetters[m]
	}
	return '?'
}

// String is the material's name (wood, recycled, stone, glass).
func (m Material) String() string {
	if int(m) < len(materialNames) {
		return materialNames[m]
	}
	return fmt.Sprintf("material(%d)", uint8(m))
}

// Colour is the colour of the material's dice (orange, green, black, clear).
func (m Material) Colour() string {
	if int(m) < len(materialColours) {
		return materialColours[m]
	}
	return m.String()
}

// Valid reports whether m is one of the four materials.
func (m Material) Valid() bool { return m >= Wood && m <= Glass }

// index is 0..3 for the four materials.
func (m Material) index() int { return int(m) - 1 }

// ParseMaterial reads a material letter (W, R, S or G; case-insensitive).
func ParseMaterial(s string) (Material, error) {
	if len(s) == 1 {
		switch s[0] {
		case 'W', 'w':
			return Wood, nil
		case 'R', 'r':
			return Recycled, nil
		case 'S', 's':
			return Stone, nil
		case 'G', 'g':
			return Glass, nil
		}
	}
	return NoMaterial, fmt.Errorf("%w: %q (want W, R, S or G)", ErrUnknownMaterial, s)
}

// Die is one die: its material and the value it shows on top.
type Die struct {
	Mat  Material
	Pips uint8
}

// D builds a die; it is a shorthand for tests and examples.
func D(m Material, pips int) Die { return Die{Mat: m, Pips: uint8(pips)} }

// Valid reports whether d is a real die (a material and 1..6 pips).
func (d Die) Valid() bool { return d.Mat.Valid() && d.Pips >= 1 && d.Pips <= 6 }

// String is the die in notation: W3, G6.
func (d Die) String() string {
	if !d.Valid() {
		return "--"
	}
	return string([]byte{d.Mat.Letter(), '0' + d.Pips})
}

// ParseDie reads a die in notation (W3).
func ParseDie(s string) (Die, error) {
	if len(s) != 2 {
		return Die{}, fmt.Errorf("%w: %q (want a material letter and pips, like W3)", ErrBadDie, s)
	}
	m, err := ParseMaterial(s[:1])
	if err != nil {
		return Die{}, fmt.Errorf("%w: die %q has material %q (want W, R, S or G)", ErrUnknownMaterial, s, s[:1])
	}
	if s[1] < '1' || s[1] > '6' {
		return Die{}, fmt.Errorf("%w: die %q has pips %q", ErrBadPips, s, s[1:])
	}
	return Die{Mat: m, Pips: s[1] - '0'}, nil
}

// MarshalText writes the die in notation.
func (d Die) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("%w: invalid die %d/%d", ErrBadDie, d.Mat, d.Pips)
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads a die in notation.
func (d *Die) UnmarshalText(b []byte) error {
	v, err := ParseDie(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseDice reads a space-separated list of dice ("W3 G6"); "" is none.
func ParseDice(s string) ([]Die, error) {
	fields := strings.Fields(s)
	out := make([]Die, 0, len(fields))
	for _, f := range fields {
		d, err := ParseDie(f)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// FormatDice writes dice space-separated, the stack notation.
func FormatDice(dice []Die) string {
	var b strings.Builder
	for i, d := range dice {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.String())
	}
	return b.String()
}
