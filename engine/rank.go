package engine

import "fmt"

// Award is a trophy card: gold, silver or bronze.
type Award uint8

// The three awards.
const (
	Gold Award = iota
	Silver
	Bronze
)

// NumAwards is the number of award kinds.
const NumAwards = 3

// Awards lists the awards from best to worst.
var Awards = [NumAwards]Award{Gold, Silver, Bronze}

var awardNames = [NumAwards]string{"gold", "silver", "bronze"}

// String is the award's name (gold, silver, bronze).
func (a Award) String() string {
	if int(a) < NumAwards {
		return awardNames[a]
	}
	return "award?"
}

// AwardsFor lists the awards handed down the ranking for a player count:
// 2 players silver only; 3 players gold and silver; 4 players all three.
func AwardsFor(players int) []Award {
	switch players {
	case 2:
		return []Award{Silver}
	case 3:
		return []Award{Gold, Silver}
	case 4:
		return []Award{Gold, Silver, Bronze}
	}
	return nil
}

// Step is a step of the tie-break chain that decides between two buildings.
type Step uint8

// The tie-break chain, in order.
const (
	ByScore          Step = iota // higher round score
	ByInDemandFirst              // more dice of the first in-demand colour
	ByInDemandSecond             // more dice of the second in-demand colour
	ByTurnOrder                  // played later in this round's turn order
	ByOnlyQualifier              // (prizes) nobody else qualified
	ByNothing                    // nobody got it
)

var stepNames = [...]string{"score", "in-demand-first", "in-demand-second", "turn-order", "only-qualifier", "none"}

// String is the step's name as used in JSON.
func (s Step) String() string {
	if int(s) < len(stepNames) {
		return stepNames[s]
	}
	return "step?"
}

// Contender is what the tie-break chain looks at for one building.
type Contender struct {
	Score    int
	InDemand [2]int // dice of the first and second in-demand colours
	TurnPos  int    // 0 = played first this round
}

// Beats reports whether a ranks above b, and the step of the chain that
// decided it: higher score; then more dice of the first in-demand colour;
// then more of the second; then the one who played later this round.
func Beats(a, b Contender) (bool, Step) {
	switch {
	case a.Score != b.Score:
		return a.Score > b.Score, ByScore
	case a.InDemand[0] != b.InDemand[0]:
		return a.InDemand[0] > b.InDemand[0], ByInDemandFirst
	case a.InDemand[1] != b.InDemand[1]:
		return a.InDemand[1] > b.InDemand[1], ByInDemandSecond
	default:
		return a.TurnPos > b.TurnPos, ByTurnOrder
	}
}

// Rank orders contenders best first with the tie-break chain and returns
// their indices. TurnPos values must differ, which makes the order total.
func Rank(cs []Contender) []int {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	rankInPlace(cs, order)
	return order
}

// rankInPlace is an insertion sort (at most 4 players) that allocates nothing.
func rankInPlace(cs []Contender, order []int) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0; j-- {
			if better, _ := Beats(cs[order[j]], cs[order[j-1]]); !better {
				break
			}
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// Decision is who got an award or prize, over whom, and which step of the
// chain decided it. Winner and Over are indices into the round's players in
// turn order, -1 when there is none.
type Decision struct {
	Winner int
	Over   int
	By     Step
}

// RoundPlayer is one building of a round, given in this round's turn order.
type RoundPlayer struct {
	Blueprint Blueprint
	Building  Building
}

// RoundScore is one player's scored building.
type RoundScore struct {
	Breakdown Breakdown
	InDemand  [2]int
	Qualifies PrizeSet
}

// RoundResult is a scored round: each building's points, the ranking, and
// the awards and prizes with the step that decided each. Player indices are
// positions in the round's turn order.
type RoundResult struct {
	N        int // players
	InDemand [2]Material
	Scores   [MaxPlayers]RoundScore // [:N] are used
	Ranking  [MaxPlayers]int        // [:N] are used, best first
	Awards   [NumAwards]Decision
	Prizes   [NumPrizes]Decision
}

// ScoreRound scores every building of a round (players in this round's turn
// order, first to last), ranks them, and hands out awards down the ranking
// and each prize to the best-ranked building that qualifies. It does not
// check the buildings' legality (see Validate).
func ScoreRound(inDemand [2]Material, players []RoundPlayer) RoundResult {
	n := len(players)
	if n > MaxPlayers {
		n = MaxPlayers
	}
	res := RoundResult{N: n, InDemand: inDemand}
	var contenders [MaxPlayers]Contender
	cs := contenders[:n]
	players = players[:n]
	for i := range players {
		p := &players[i]
		rs := &res.Scores[i]
		rs.Breakdown = Score(&p.Blueprint, &p.Building)
		var mats [NumMaterials + 1]int
		rs.Qualifies, mats = census(&p.Building)
		rs.InDemand = [2]int{mats[inDemand[0]%(NumMaterials+1)], mats[inDemand[1]%(NumMaterials+1)]}
		cs[i] = Contender{Score: rs.Breakdown.Total, InDemand: rs.InDemand, TurnPos: i}
	}
	for i := range cs {
		res.Ranking[i] = i
	}
	rankInPlace(cs, res.Ranking[:n])
	for a := range res.Awards {
		res.Awards[a] = Decision{Winner: -1, Over: -1, By: ByNothing}
	}
	for k, a := range AwardsFor(len(players)) {
		d := Decision{Winner: res.Ranking[k], Over: -1, By: ByScore}
		if k+1 < n {
			d.Over = res.Ranking[k+1]
			_, d.By = Beats(cs[d.Winner], cs[d.Over])
		}
		res.Awards[a] = d
	}
	for _, p := range Prizes {
		d := Decision{Winner: -1, Over: -1, By: ByNothing}
		for _, i := range res.Ranking[:n] {
			if !res.Scores[i].Qualifies.Has(p) {
				continue
			}
			if d.Winner < 0 {
				d.Winner, d.By = i, ByOnlyQualifier
				continue
			}
			d.Over = i
			_, d.By = Beats(cs[d.Winner], cs[i])
			break
		}
		res.Prizes[p] = d
	}
	return res
}

// Explain says in words why a decision went the way it did, naming players
// with names (indexed like the round's players).
func (r *RoundResult) Explain(d Decision, names []string) string {
	if d.Winner < 0 {
		return "no building qualified"
	}
	w := names[d.Winner]
	if d.Over < 0 {
		if d.By == ByOnlyQualifier {
			return fmt.Sprintf("%s was the only building that qualified", w)
		}
		return fmt.Sprintf("%s ranked first", w)
	}
	o := names[d.Over]
	a, b := r.Scores[d.Winner], r.Scores[d.Over]
	switch d.By {
	case ByScore:
		return fmt.Sprintf("%s scored %d, %s %d", w, a.Breakdown.Total, o, b.Breakdown.Total)
	case ByInDemandFirst:
		return fmt.Sprintf("%s and %s tied on %d; %s has %d %s (first in-demand) dice, %s %d", w, o, a.Breakdown.Total, w, a.InDemand[0], r.InDemand[0].Colour(), o, b.InDemand[0])
	case ByInDemandSecond:
		return fmt.Sprintf("%s and %s tied on %d and on %d %s dice; %s has %d %s (second in-demand) dice, %s %d", w, o, a.Breakdown.Total, a.InDemand[0], r.InDemand[0].Colour(), w, a.InDemand[1], r.InDemand[1].Colour(), o, b.InDemand[1])
	default:
		return fmt.Sprintf("%s and %s tied on score and in-demand dice; %s played later this round", w, o, w)
	}
}
