package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bld(rows ...[2]string) Building { return MustBuilding(rows...) }

func bpOf(t testing.TB, s string) Blueprint {
	t.Helper()
	bp, err := ParseBlueprint(s)
	require.NoError(t, err)
	return bp
}

// The rulebook's worked example: two players, A and B both score 23; green
// is in demand first, black second; tied on green, B has one black die and
// A none, so B wins the tie and, with two players, the silver award.
func TestWorkedExample(t *testing.T) {
	a := RoundPlayer{Blueprint: bpOf(t, "12/1X/2X"), Building: bld([2]string{"W4", "R2 G2"}, [2]string{"R3", ""}, [2]string{"R1 G1", ""})}
	b := RoundPlayer{Blueprint: bpOf(t, "3./1./2."), Building: bld([2]string{"R1", "R5"}, [2]string{"W2 S3", ""}, [2]string{"W1", "R4"})}

	sa := Score(&a.Blueprint, &a.Building)
	assert.Equal(t, Breakdown{Bonus: 6, Wood: 4, Recycled: 10, Stone: 0, Glass: 3, Total: 23}, sa, "A: bonus 6, one wood die with two neighbours, three green, glass 1 and 2")
	sb := Score(&b.Blueprint, &b.Building)
	assert.Equal(t, Breakdown{Bonus: 0, Wood: 10, Recycled: 10, Stone: 3, Glass: 0, Total: 23}, sb, "B: wood dice with 2 and 3 neighbours, three green, a black die on level 2")

	res := ScoreRound([2]Material{Recycled, Stone}, []RoundPlayer{a, b})
	assert.Equal(t, [2]int{3, 0}, res.Scores[0].InDemand)
	assert.Equal(t, [2]int{3, 1}, res.Scores[1].InDemand)
	assert.Equal(t, []int{1, 0}, res.Ranking[:res.N], "B ranks above A")
	assert.Equal(t, Decision{Winner: 1, Over: 0, By: ByInDemandSecond}, res.Awards[Silver])
	assert.Equal(t, -1, res.Awards[Gold].Winner, "no gold with 2 players")
	assert.Equal(t, -1, res.Awards[Bronze].Winner, "no bronze with 2 players")
}

func TestBlueprintBonus(t *testing.T) {
	bp := bpOf(t, "X1/31/1X")
	cases := []struct {
		name string
		b    Building
		want int
	}{
		{"exact heights", bld([2]string{"", "W1"}, [2]string{"S1 S2 G4", "R2"}, [2]string{"W1", ""}), 6},
		{"one stack too low", bld([2]string{"", "W1"}, [2]string{"S1 G4", "R2"}, [2]string{"W1", "R3"}), 0},
		{"a die on a cell the plan leaves empty", bld([2]string{"", ""}, [2]string{"S1 S2 G4", "R2"}, [2]string{"W1", ""}), 0},
		{"empty building", Building{}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Score(&bp, &c.b).Bonus)
		})
	}
	open := bpOf(t, "3./.3/XX")
	b := bld([2]string{"W1 W2 W3", ""}, [2]string{"", "G1 G2 G3"}, [2]string{"", ""})
	assert.Equal(t, 6, Score(&open, &b).Bonus, "open cells must stay empty and do")
	b = bld([2]string{"W1 W2 W3", "R1"}, [2]string{"", "G1 G2"}, [2]string{"", ""})
	assert.Equal(t, 0, Score(&open, &b).Bonus, "a die on an open cell loses the bonus")
}

func TestWoodScoring(t *testing.T) {
	bp := bpOf(t, "11/11/11")
	cases := []struct {
		name string
		b    Building
		want int
	}{
		{"alone", bld([2]string{"W1", ""}, [2]string{"", ""}, [2]string{"", ""}), 0},
		{"left-right neighbour, any colour", bld([2]string{"W1", "S1"}, [2]string{"", ""}, [2]string{"", ""}), 2},
		{"front-back neighbour", bld([2]string{"W1", ""}, [2]string{"G1", ""}, [2]string{"", ""}), 2},
		{"diagonal does not count", bld([2]string{"W1", ""}, [2]string{"", "G1"}, [2]string{"", ""}), 0},
		{"above and below in its stack", bld([2]string{"S1 W2 G3", ""}, [2]string{"", ""}, [2]string{"", ""}), 4},
		{"neighbour must be at the same level", bld([2]string{"S1 W2", "R1"}, [2]string{"", ""}, [2]string{"", ""}), 2},
		{"five faces: above, below, front, back, side", bld([2]string{"R1 R1", ""}, [2]string{"R1 W2 R2", "R1 R1"}, [2]string{"R1 R1", ""}), 2 * 5},
		{"two wood dice count each other", bld([2]string{"W1", "W1"}, [2]string{"", ""}, [2]string{"", ""}), 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Score(&bp, &c.b).Wood)
		})
	}
}

func TestRecycledScoring(t *testing.T) {
	bp := bpOf(t, "XX/6X/XX")
	stacks := []string{"", "R1", "R1 R1", "R1 R1 R1", "R1 R1 R1 R1", "R1 R1 R1 R1 R1", "R1 R1 R1 R1 R1 R1"}
	want := []int{0, 2, 5, 10, 15, 20, 30}
	for n, st := range stacks {
		b := bld([2]string{"", ""}, [2]string{st, ""}, [2]string{"", ""})
		assert.Equal(t, want[n], Score(&bp, &b).Recycled, "%d green dice", n)
	}
	b := bld([2]string{"R1", "S1"}, [2]string{"R2", "R3"}, [2]string{"", ""})
	assert.Equal(t, 10, Score(&bp, &b).Recycled, "green dice count together wherever they stand")
}

func TestStoneScoring(t *testing.T) {
	bp := bpOf(t, "6X/XX/XX")
	cases := map[string]int{"S1": 2, "W1 S1": 3, "W1 W1 S1": 5, "W1 W1 W1 S1": 8, "W1 W1 W1 W1 S1": 8, "S1 S1 S1 S1 S1 S1": 2 + 3 + 5 + 8 + 8 + 8}
	for st, want := range cases {
		t.Run(st, func(t *testing.T) {
			b := bld([2]string{st, ""}, [2]string{"", ""}, [2]string{"", ""})
			assert.Equal(t, want, Score(&bp, &b).Stone)
		})
	}
}

func TestGlassScoring(t *testing.T) {
	bp := bpOf(t, "6X/XX/XX")
	b := bld([2]string{"G2 G3 W5", ""}, [2]string{"", ""}, [2]string{"", ""})
	assert.Equal(t, 5, Score(&bp, &b).Glass, "covered glass dice still count their pips")
	b = bld([2]string{"G6", "G1"}, [2]string{"", ""}, [2]string{"", ""})
	assert.Equal(t, 7, Score(&bp, &b).Glass)
}

func TestTotalIsTheSum(t *testing.T) {
	bp := bpOf(t, "X1/31/1X")
	b := bld([2]string{"", "W1"}, [2]string{"S3 G4", "R2"}, [2]string{"W1", ""})
	s := Score(&bp, &b)
	assert.Equal(t, Breakdown{Wood: 4, Recycled: 2, Stone: 2, Glass: 4, Total: 12}, s)
}

func TestPrizeQualification(t *testing.T) {
	cases := []struct {
		name string
		b    Building
		want []Prize
	}{
		{"skyscraper at 5 high", bld([2]string{"W1 W1 W3 W4 R5", "S6"}, [2]string{"", ""}, [2]string{"", ""}), []Prize{Skyscraper}},
		{"4 high is no skyscraper", bld([2]string{"W1 W2 W3 R4", "S6"}, [2]string{"G1", ""}, [2]string{"", ""}), nil},
		{"structural integrity: 4 dice with the same value", bld([2]string{"W3 R3", "S3"}, [2]string{"G3", "R1"}, [2]string{"", ""}), []Prize{StructuralIntegrity}},
		{"3 of a value is not enough", bld([2]string{"W3 R3", "S3"}, [2]string{"G2", "R1"}, [2]string{"", ""}), nil},
		{"geometrist: every value 1-6", bld([2]string{"W1 R2", "S3"}, [2]string{"G4", "R5"}, [2]string{"W6", ""}), []Prize{Geometrist}},
		{"materials: 5 of a colour, covered ones too", bld([2]string{"G1 G2 G3", "G4"}, [2]string{"G5", ""}, [2]string{"", ""}), []Prize{MaterialsPrize}},
		{"4 of a colour is not enough", bld([2]string{"G1 G2 G3", "G4"}, [2]string{"R5", ""}, [2]string{"", ""}), nil},
		{"one building, several prizes", bld([2]string{"S2 S2 S2 S2 S2 S2", ""}, [2]string{"", ""}, [2]string{"", ""}), []Prize{Skyscraper, StructuralIntegrity, MaterialsPrize}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Qualifies(&c.b).List())
		})
	}
}

// round builds a round from (blueprint, building) pairs in turn order.
func round(ps ...RoundPlayer) []RoundPlayer { return ps }

func rp(t testing.TB, bp string, b Building) RoundPlayer {
	return RoundPlayer{Blueprint: bpOf(t, bp), Building: b}
}

// TestTieBreakChain checks each step of the chain in turn: score, first
// in-demand colour, second in-demand colour, then the player who played
// later in the round.
func TestTieBreakChain(t *testing.T) {
	const open = "11/11/11"
	inDemand := [2]Material{Stone, Glass}
	cases := []struct {
		name    string
		players []RoundPlayer
		ranking []int
		by      Step
	}{
		{"higher score wins",
			round(rp(t, open, bld([2]string{"G6", ""}, [2]string{"", ""}, [2]string{"", ""})), rp(t, open, bld([2]string{"G5", ""}, [2]string{"", ""}, [2]string{"", ""}))),
			[]int{0, 1}, ByScore},
		{"tied score: more of the first in-demand colour",
			// 2 points each: a black die on level 1 against a glass 2.
			round(rp(t, open, bld([2]string{"G2", ""}, [2]string{"", ""}, [2]string{"", ""})), rp(t, open, bld([2]string{"S1", ""}, [2]string{"", ""}, [2]string{"", ""}))),
			[]int{1, 0}, ByInDemandFirst},
		{"tied on first colour: more of the second",
			// 2+2+2 against 2+2+2, one black die each; glass 1 die against 2.
			round(rp(t, open, bld([2]string{"S1", "R1"}, [2]string{"G2", ""}, [2]string{"", ""})), rp(t, open, bld([2]string{"S1", "G2"}, [2]string{"G2", ""}, [2]string{"", ""}))),
			[]int{1, 0}, ByInDemandSecond},
		{"tied on everything: the later player wins",
			round(rp(t, open, bld([2]string{"S1", ""}, [2]string{"", ""}, [2]string{"", ""})), rp(t, open, bld([2]string{"", "S1"}, [2]string{"", ""}, [2]string{"", ""}))),
			[]int{1, 0}, ByTurnOrder},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := ScoreRound(inDemand, c.players)
			assert.Equal(t, c.ranking, res.Ranking[:res.N])
			assert.Equal(t, c.by, res.Awards[Silver].By)
			assert.Equal(t, c.ranking[0], res.Awards[Silver].Winner)
		})
	}
}

func TestAwardsPerPlayerCount(t *testing.T) {
	const open = "11/11/11"
	glass := func(p int) RoundPlayer {
		return rp(t, open, bld([2]string{D(Glass, p).String(), ""}, [2]string{"", ""}, [2]string{"", ""}))
	}
	inDemand := [2]Material{Wood, Stone}
	// Four players scoring 3, 6, 5, 1 in turn order.
	all := []RoundPlayer{glass(3), glass(6), glass(5), glass(1)}
	cases := []struct {
		n                    int
		gold, silver, bronze int
	}{
		{2, -1, 1, -1},
		{3, 1, 2, -1},
		{4, 1, 2, 0},
	}
	for _, c := range cases {
		res := ScoreRound(inDemand, all[:c.n])
		assert.Equal(t, c.gold, res.Awards[Gold].Winner, "%d players gold", c.n)
		assert.Equal(t, c.silver, res.Awards[Silver].Winner, "%d players silver", c.n)
		assert.Equal(t, c.bronze, res.Awards[Bronze].Winner, "%d players bronze", c.n)
		assert.Len(t, AwardsFor(c.n), c.n-1)
	}
	res := ScoreRound(inDemand, all)
	assert.Equal(t, Decision{Winner: 0, Over: 3, By: ByScore}, res.Awards[Bronze], "bronze goes to third place, over fourth")
}

func TestPrizeAwarding(t *testing.T) {
	inDemand := [2]Material{Wood, Recycled}
	tall := func(top string) Building {
		return bld([2]string{"S1 S1 S1 S1 " + top, ""}, [2]string{"", ""}, [2]string{"", ""})
	}
	t.Run("nobody qualifies", func(t *testing.T) {
		res := ScoreRound(inDemand, round(rp(t, "11/11/11", Building{}), rp(t, "11/11/11", Building{})))
		for _, p := range Prizes {
			assert.Equal(t, Decision{Winner: -1, Over: -1, By: ByNothing}, res.Prizes[p], p.String())
		}
	})
	t.Run("only qualifier", func(t *testing.T) {
		res := ScoreRound(inDemand, round(rp(t, "6X/XX/XX", tall("W1")), rp(t, "11/11/11", Building{})))
		assert.Equal(t, Decision{Winner: 0, Over: -1, By: ByOnlyQualifier}, res.Prizes[Skyscraper])
	})
	t.Run("several qualify: the chain decides, not how much", func(t *testing.T) {
		// Player 0 has a 6-high tower, player 1 a 5-high one with a higher
		// score: player 1 takes the skyscraper.
		p0 := rp(t, "33/XX/XX", bld([2]string{"W1 W1 W1 W1 W1 W1", ""}, [2]string{"", ""}, [2]string{"", ""}))
		p1 := rp(t, "6X/XX/XX", bld([2]string{"S1 S1 S1 S1 G6", ""}, [2]string{"", ""}, [2]string{"", ""}))
		res := ScoreRound(inDemand, round(p0, p1))
		require.Greater(t, res.Scores[1].Breakdown.Total, res.Scores[0].Breakdown.Total)
		assert.Equal(t, Decision{Winner: 1, Over: 0, By: ByScore}, res.Prizes[Skyscraper])
	})
	t.Run("one building may win several", func(t *testing.T) {
		res := ScoreRound(inDemand, round(rp(t, "6X/XX/XX", tall("S1 S1")), rp(t, "11/11/11", Building{})))
		assert.Equal(t, 0, res.Prizes[Skyscraper].Winner)
		assert.Equal(t, 0, res.Prizes[StructuralIntegrity].Winner)
		assert.Equal(t, 0, res.Prizes[MaterialsPrize].Winner)
		assert.Equal(t, -1, res.Prizes[Geometrist].Winner)
	})
	t.Run("tied qualifiers fall to turn order", func(t *testing.T) {
		res := ScoreRound(inDemand, round(rp(t, "6X/XX/XX", tall("W1")), rp(t, "6X/XX/XX", tall("W1")), rp(t, "11/11/11", Building{})))
		assert.Equal(t, Decision{Winner: 1, Over: 0, By: ByTurnOrder}, res.Prizes[Skyscraper])
	})
}

func TestExplain(t *testing.T) {
	a := RoundPlayer{Blueprint: bpOf(t, "12/1X/2X"), Building: bld([2]string{"W4", "R2 G2"}, [2]string{"R3", ""}, [2]string{"R1 G1", ""})}
	b := RoundPlayer{Blueprint: bpOf(t, "3./1./2."), Building: bld([2]string{"R1", "R5"}, [2]string{"W2 S3", ""}, [2]string{"W1", "R4"})}
	res := ScoreRound([2]Material{Recycled, Stone}, []RoundPlayer{a, b})
	assert.Equal(t, "B and A tied on 23 and on 3 green dice; B has 1 black (second in-demand) dice, A 0", res.Explain(res.Awards[Silver], []string{"A", "B"}))
	assert.Equal(t, "no building qualified", res.Explain(res.Prizes[Geometrist], []string{"A", "B"}))
}
