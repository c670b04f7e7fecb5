package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Rows and Cols are the size of a blueprint card's grid; MaxHeight is the
// tallest stack a building can have (a player takes 6 dice a round).
const (
	Rows         = 3
	Cols         = 2
	MaxHeight    = 6
	DicePerRound = 6
)

// Hatched marks a cell of a Blueprint on which no die may ever go.
const Hatched int8 = -1

// Blueprint is a card's plan: for each cell, Hatched, 0 (open, planned empty)
// or the planned height 1..6. Rows run top to bottom, columns left to right.
type Blueprint [Rows][Cols]int8

// ParseBlueprint reads the notation "X1/31/1X": rows top to bottom separated
// by '/', one character per column: X hatched, 1-6 height, 0 or . open.
func ParseBlueprint(s string) (Blueprint, error) {
	var bp Blueprint
	rows := strings.Split(s, "/")
	if len(rows) != Rows {
		return bp, fmt.Errorf("%w: %q has %d rows, want %d separated by '/'", ErrBadBlueprint, s, len(rows), Rows)
	}
	for r, row := range rows {
		if len(row) != Cols {
			return bp, fmt.Errorf("%w: %q row %d is %q, want %d cells", ErrBadBlueprint, s, r+1, row, Cols)
		}
		for c := 0; c < Cols; c++ {
			switch ch := row[c]; {
			case ch == 'X' || ch == 'x':
				bp[r][c] = Hatched
			case ch == '.' || ch == '0':
				bp[r][c] = 0
			case ch >= '1' && ch <= '6':
				bp[r][c] = int8(ch - '0')
			default:
				return bp, fmt.Errorf("%w: %q row %d col %d is %q (want X, 1-6, 0 or .)", ErrBadBlueprint, s, r+1, c+1, string(ch))
			}
		}
	}
	return bp, nil
}

// String writes the blueprint in notation; open cells are written '.'.
func (bp Blueprint) String() string {
	b := make([]byte, 0, Rows*(Cols+1))
	for r := 0; r < Rows; r++ {
		if r > 0 {
			b = append(b, '/')
		}
		for c := 0; c < Cols; c++ {
			switch v := bp[r][c]; {
			case v == Hatched:
				b = append(b, 'X')
			case v == 0:
				b = append(b, '.')
			default:
				b = append(b, '0'+byte(v))
			}
		}
	}
	return string(b)
}

// Dice is the number of dice the plan uses (the sum of its heights).
func (bp Blueprint) Dice() int {
	n := 0
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			if bp[r][c] > 0 {
				n += int(bp[r][c])
			}
		}
	}
	return n
}

// MarshalText writes the notation.
func (bp Blueprint) MarshalText() ([]byte, error) { return []byte(bp.String()), nil }

// UnmarshalText reads the notation.
func (bp *Blueprint) UnmarshalText(b []byte) error {
	v, err := ParseBlueprint(string(b))
	if err != nil {
		return err
	}
	*bp = v
	return nil
}

// Card is one blueprint card of the deck.
type Card struct {
	ID     int       `json:"id"`
	Layout Blueprint `json:"layout"`
}

// Catalogue is the deck of blueprint cards.
type Catalogue struct {
	Cards []Card `json:"cards"`
}

// ParseCatalogue reads a catalogue file ({"cards":[{"id":1,"layout":"X1/31/1X"},...]}).
// Every card must have a unique id and a layout that uses exactly 6 dice.
func ParseCatalogue(data []byte) (Catalogue, error) {
	var cat Catalogue
	if err := json.Unmarshal(data, &cat); err != nil {
		return cat, fmt.Errorf("%w: %v", ErrBadCatalogue, err)
	}
	if len(cat.Cards) == 0 {
		return cat, fmt.Errorf("%w: no cards", ErrBadCatalogue)
	}
	seen := make(map[int]bool, len(cat.Cards))
	for i, c := range cat.Cards {
		if seen[c.ID] {
			return cat, fmt.Errorf("%w: card %d: id %d used twice", ErrBadCatalogue, i+1, c.ID)
		}
		seen[c.ID] = true
		if n := c.Layout.Dice(); n != DicePerRound {
			return cat, fmt.Errorf("%w: card id %d layout %s uses %d dice, want %d", ErrBadCatalogue, c.ID, c.Layout, n, DicePerRound)
		}
	}
	return cat, nil
}
