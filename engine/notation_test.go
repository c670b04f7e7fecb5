package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseDie(t *testing.T) {
	good := map[string]Die{"W1": D(Wood, 1), "R6": D(Recycled, 6), "S3": D(Stone, 3), "G4": D(Glass, 4), "g2": D(Glass, 2)}
	for in, want := range good {
		t.Run(in, func(t *testing.T) {
			d, err := ParseDie(in)
			require.NoError(t, err)
			assert.Equal(t, want, d)
		})
	}
	bad := map[string]error{"": ErrBadDie, "W": ErrBadDie, "W10": ErrBadDie, "X3": ErrUnknownMaterial, "W0": ErrBadPips, "W7": ErrBadPips, "3W": ErrUnknownMaterial}
	for in, want := range bad {
		t.Run("bad "+in, func(t *testing.T) {
			_, err := ParseDie(in)
			require.Error(t, err)
			assert.ErrorIs(t, err, want)
			assert.Contains(t, err.Error(), in)
		})
	}
}

func TestParseBlueprint(t *testing.T) {
	bp, err := ParseBlueprint("X1/31/1X")
	require.NoError(t, err)
	assert.Equal(t, Blueprint{{Hatched, 1}, {3, 1}, {1, Hatched}}, bp)
	assert.Equal(t, "X1/31/1X", bp.String())
	assert.Equal(t, 6, bp.Dice())

	open, err := ParseBlueprint("3./.3/XX")
	require.NoError(t, err)
	assert.Equal(t, Blueprint{{3, 0}, {0, 3}, {Hatched, Hatched}}, open)
	zero, err := ParseBlueprint("30/03/XX")
	require.NoError(t, err)
	assert.Equal(t, open, zero, "0 and . are the same open cell")

	for _, in := range []string{"", "X1/31", "X1/31/1X/11", "X1/311/1X", "X1/37/1X", "X1/3a/1X", "X1//1X"} {
		t.Run("bad "+in, func(t *testing.T) {
			_, err := ParseBlueprint(in)
			assert.ErrorIs(t, err, ErrBadBlueprint)
		})
	}
}

func TestParseStackAndGrid(t *testing.T) {
	st, err := ParseStack("S1 W3 G6")
	require.NoError(t, err)
	assert.Equal(t, 3, st.Height())
	assert.Equal(t, D(Stone, 1), st.At(1))
	top, ok := st.Top()
	assert.True(t, ok)
	assert.Equal(t, D(Glass, 6), top)
	assert.Equal(t, "S1 W3 G6", st.String())

	empty, err := ParseStack("")
	require.NoError(t, err)
	_, ok = empty.Top()
	assert.False(t, ok)

	_, err = ParseStack("W1 W1 W1 W1 W1 W1 W1")
	assert.ErrorIs(t, err, ErrStackTooTall)

	_, err = ParseGrid([][]string{{"", "W1"}, {"S3"}, {"", ""}})
	assert.ErrorIs(t, err, ErrBadGrid)
	assert.Contains(t, err.Error(), "row 2")
	_, err = ParseGrid([][]string{{"", "W1"}, {"S3", ""}})
	assert.ErrorIs(t, err, ErrBadGrid)
	_, err = ParseGrid([][]string{{"", "W1"}, {"S3", "Q1"}, {"", ""}})
	assert.ErrorIs(t, err, ErrUnknownMaterial)
	assert.Contains(t, err.Error(), "row 2 col 2")
}

func TestParseCatalogue(t *testing.T) {
	cat := loadCatalogue(t)
	assert.Len(t, cat.Cards, 24, "the game has 24 blueprint cards")
	for _, c := range cat.Cards {
		assert.Equal(t, 6, c.Layout.Dice(), "card %d", c.ID)
	}
	cases := map[string]string{
		"not json":      `{`,
		"no cards":      `{"cards":[]}`,
		"duplicate id":  `{"cards":[{"id":1,"layout":"X1/31/1X"},{"id":1,"layout":"12/1X/2X"}]}`,
		"five dice":     `{"cards":[{"id":1,"layout":"X1/21/1X"}]}`,
		"bad notation":  `{"cards":[{"id":1,"layout":"X1/3Q/1X"}]}`,
		"layout number": `{"cards":[{"id":1,"layout":5}]}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseCatalogue([]byte(in))
			assert.ErrorIs(t, err, ErrBadCatalogue)
		})
	}
}

func TestPlacementErrors(t *testing.T) {
	bp, _ := ParseBlueprint("X1/31/1X")
	b := MustBuilding([2]string{"", ""}, [2]string{"G4", ""}, [2]string{"", ""})
	err := CheckPlacement(&bp, &b, D(Wood, 2), 1, 0)
	require.Error(t, err)
	assert.Equal(t, "engine: die W2 cannot go on G4 at row 2 col 1: a die goes only on an equal or lower value", err.Error())
	assert.ErrorIs(t, err, ErrHigherBelow)
	var pe *PlacementError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, 2, pe.Row)
	assert.Equal(t, 1, pe.Col)
	assert.Equal(t, 2, pe.Level)

	err = CheckPlacement(&bp, &b, D(Wood, 2), 0, 0)
	assert.ErrorIs(t, err, ErrHatched)
	assert.Equal(t, "engine: die W2 cannot go on the hatched cell at row 1 col 1: a die never goes on a hatched cell", err.Error())

	assert.NoError(t, CheckPlacement(&bp, &b, D(Wood, 4), 1, 0), "equal value goes on")
	assert.NoError(t, CheckPlacement(&bp, &b, D(Wood, 5), 1, 0), "higher value goes on")
	assert.NoError(t, CheckPlacement(&bp, &b, D(Wood, 1), 0, 1), "empty open cell")
	assert.ErrorIs(t, CheckPlacement(&bp, &b, D(Wood, 1), 3, 0), ErrOffCard)

	full := MustBuilding([2]string{"", "W1 W1 W1 W1 W1 W1"}, [2]string{"", ""}, [2]string{"", ""})
	assert.ErrorIs(t, CheckPlacement(&bp, &full, D(Wood, 6), 0, 1), ErrStackTooTall)
}

func TestValidate(t *testing.T) {
	bp, _ := ParseBlueprint("X1/31/1X")
	grid := func(rows ...[2]string) Grid {
		cells := make([][]string, len(rows))
		for i := range rows {
			cells[i] = rows[i][:]
		}
		g, err := ParseGrid(cells)
		require.NoError(t, err)
		return g
	}
	assert.Nil(t, Validate(&bp, grid([2]string{"", "W1"}, [2]string{"S3 G4", "R2"}, [2]string{"W1", ""})))

	vs := Validate(&bp, grid([2]string{"W1", ""}, [2]string{"S3 G2", ""}, [2]string{"", ""}))
	require.Len(t, vs, 2)
	assert.Equal(t, Violation{Row: 1, Col: 1, Level: 1, Rule: RuleHatched, Die: "W1", Err: ErrHatched}, vs[0])
	assert.Equal(t, Violation{Row: 2, Col: 1, Level: 2, Rule: RuleHigherBelow, Die: "G2", Err: ErrHigherBelow}, vs[1])

	vs = Validate(&bp, grid([2]string{"", "W1 W1 W1 W1 W1 W1 W1"}, [2]string{"", ""}, [2]string{"", ""}))
	var rules []string
	for _, v := range vs {
		rules = append(rules, v.Rule)
	}
	assert.Equal(t, []string{RuleStackTooTall, RuleTooManyDice}, rules, "the 7th die is both too high and too many")
	assert.Equal(t, 7, vs[0].Level)

	vs = Validate(&bp, grid([2]string{"", "W1 W2"}, [2]string{"S1 S1", "R1 R2"}, [2]string{"G1", ""}))
	require.Len(t, vs, 1)
	assert.Equal(t, Violation{Row: 3, Col: 1, Level: 1, Rule: RuleTooManyDice, Die: "G1", Err: ErrTooManyDice}, vs[0])
}
