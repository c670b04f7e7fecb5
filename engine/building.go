package engine

import (
	"fmt"
	"strings"
)

// Stack is the dice on one cell, bottom to top.
type Stack struct {
	n    uint8
	dice [MaxHeight]Die
}

// Height is the number of dice in the stack.
func (s *Stack) Height() int { return int(s.n) }

// At returns the die at level l (1 = on the card).
func (s *Stack) At(level int) Die { return s.dice[level-1] }

// Top returns the top die, and false for an empty stack.
func (s *Stack) Top() (Die, bool) {
	if s.n == 0 {
		return Die{}, false
	}
	return s.dice[s.n-1], true
}

// Dice returns the dice bottom to top (a copy).
func (s *Stack) Dice() []Die { return append([]Die(nil), s.dice[:s.n]...) }

// String is the stack notation, "S1 W3 G6".
func (s Stack) String() string { return FormatDice(s.dice[:s.n]) }

func (s *Stack) push(d Die) { s.dice[s.n] = d; s.n++ }

// Building is what stands on a card: a stack per cell, rows top to bottom.
// It is a value: copying it copies the building.
type Building [Rows][Cols]Stack

// Dice is the number of dice in the building.
func (b *Building) Dice() int {
	n := 0
	for r := 0; r < Rows; r++ {
		for c := 0; c < Cols; c++ {
			n += int(b[r][c].n)
		}
	}
	return n
}

// String writes the building as rows separated by " / " and cells by " | ".
func (b Building) String() string {
	var sb strings.Builder
	for r := 0; r < Rows; r++ {
		if r > 0 {
			sb.WriteString(" / ")
		}
		for c := 0; c < Cols; c++ {
			if c > 0 {
				sb.WriteString(" | ")
			}
			if b[r][c].n == 0 {
				sb.WriteString("-")
			} else {
				sb.WriteString(b[r][c].String())
			}
		}
	}
	return sb.String()
}

// CheckPlacement says whether die d may go on cell (row, col) (0-based) of a
// building with blueprint bp. It returns nil or a *PlacementError.
func CheckPlacement(bp *Blueprint, b *Building, d Die, row, col int) error {
	if row < 0 || row >= Rows || col < 0 || col >= Cols {
		return &PlacementError{Die: d, Row: row + 1, Col: col + 1, Rule: ErrOffCard}
	}
	st := &b[row][col]
	level := int(st.n) + 1
	if bp[row][col] == Hatched {
		return &PlacementError{Die: d, Row: row + 1, Col: col + 1, Level: level, Rule: ErrHatched}
	}
	if st.n >= MaxHeight {
		return &PlacementError{Die: d, Row: row + 1, Col: col + 1, Level: level, Rule: ErrStackTooTall}
	}
	if st.n > 0 && st.dice[st.n-1].Pips > d.Pips {
		below := st.dice[st.n-1]
		return &PlacementError{Die: d, Row: row + 1, Col: col + 1, Level: level, Below: &below, Rule: ErrHigherBelow}
	}
	return nil
}

// canPlace is CheckPlacement without building an error, for the hot path.
func canPlace(bp *Blueprint, b *Building, d Die, row, col int) bool {
	if bp[row][col] == Hatched {
		return false
	}
	st := &b[row][col]
	return st.n < MaxHeight && (st.n == 0 || st.dice[st.n-1].Pips <= d.Pips)
}

// Grid is a building as read from outside (JSON, camera): rows top to bottom,
// columns left to right, each cell its dice bottom to top. Unlike Building it
// can hold illegal content, so that it can be checked and reported.
type Grid [][][]Die

// ParseGrid reads a grid of stack notations, [["","W1"],["S3 G4","R2"],["W1",""]].
// It checks the shape (3 rows of 2 cells) and the notation, not the rules.
func ParseGrid(cells [][]string) (Grid, error) {
	if len(cells) != Rows {
		return nil, fmt.Errorf("%w: %d rows, want %d", ErrBadGrid, len(cells), Rows)
	}
	g := make(Grid, Rows)
	for r, row := range cells {
		if len(row) != Cols {
			return nil, fmt.Errorf("%w: row %d has %d cells, want %d", ErrBadGrid, r+1, len(row), Cols)
		}
		g[r] = make([][]Die, Cols)
		for c, cell := range row {
			dice, err := ParseDice(cell)
			if err != nil {
				return nil, fmt.Errorf("%w: row %d col %d: %w", ErrBadGrid, r+1, c+1, err)
			}
			g[r][c] = dice
		}
	}
	return g, nil
}

// ParseStack reads one stack ("S1 W3 G6", bottom to top) into a Stack; it
// checks the notation and the height, not the order of values.
func ParseStack(s string) (Stack, error) {
	var st Stack
	dice, err := ParseDice(s)
	if err != nil {
		return st, err
	}
	if len(dice) > MaxHeight {
		return st, fmt.Errorf("%w: stack %q has %d dice", ErrStackTooTall, s, len(dice))
	}
	for _, d := range dice {
		st.push(d)
	}
	return st, nil
}

// Violation is one broken building rule, at a die (1-based row, col, level).
type Violation struct {
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Level int    `json:"level"`
	Rule  string `json:"rule"`
	Die   string `json:"die"`
	Err   error  `json:"-"`
}

// Rule names used in Violation.Rule.
const (
	RuleHatched      = "hatched-cell"
	RuleHigherBelow  = "die-on-higher-value"
	RuleStackTooTall = "stack-over-6"
	RuleTooManyDice  = "building-over-6-dice"
)

// Validate checks a grid against a blueprint's building rules: no die on a
// hatched cell, every die on an equal or lower value, stacks of at most 6,
// at most 6 dice in all (dice past the sixth, counted row by row, cell by
// cell, bottom to top, are each reported). It returns the violations in that
// reading order, or nil for a legal building.
func Validate(bp *Blueprint, g Grid) []Violation {
	var out []Violation
	count := 0
	for r := 0; r < Rows && r < len(g); r++ {
		for c := 0; c < Cols && c < len(g[r]); c++ {
			st := g[r][c]
			for l, d := range st {
				v := Violation{Row: r + 1, Col: c + 1, Level: l + 1, Die: d.String()}
				count++
				switch {
				case bp[r][c] == Hatched:
					v.Rule, v.Err = RuleHatched, ErrHatched
					out = append(out, v)
				case l > 0 && st[l-1].Pips > d.Pips:
					v.Rule, v.Err = RuleHigherBelow, ErrHigherBelow
					out = append(out, v)
				}
				if l >= MaxHeight {
					v.Rule, v.Err = RuleStackTooTall, ErrStackTooTall
					out = append(out, v)
				}
				if count > DicePerRound {
					v.Rule, v.Err = RuleTooManyDice, ErrTooManyDice
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// Building converts a legal grid (Validate returned nil) into a Building.
func (g Grid) Building() (Building, error) {
	var b Building
	if len(g) != Rows {
		return b, fmt.Errorf("%w: %d rows, want %d", ErrBadGrid, len(g), Rows)
	}
	for r := range g {
		if len(g[r]) != Cols {
			return b, fmt.Errorf("%w: row %d has %d cells, want %d", ErrBadGrid, r+1, len(g[r]), Cols)
		}
		for c, st := range g[r] {
			if len(st) > MaxHeight {
				return b, fmt.Errorf("%w: row %d col %d has %d dice", ErrStackTooTall, r+1, c+1, len(st))
			}
			for _, d := range st {
				if !d.Valid() {
					return b, fmt.Errorf("%w: row %d col %d", ErrBadDie, r+1, c+1)
				}
				b[r][c].push(d)
			}
		}
	}
	return b, nil
}

// MustBuilding parses a building from stack notations, rows top to bottom,
// and panics on bad notation. It is for tests and examples only.
func MustBuilding(cells ...[Cols]string) Building {
	rows := make([][]string, len(cells))
	for i := range cells {
		rows[i] = cells[i][:]
	}
	g, err := ParseGrid(rows)
	if err != nil {
		panic(err)
	}
	b, err := g.Building()
	if err != nil {
		panic(err)
	}
	return b
}
