package engine

import (
	"fmt"
	"math/rand/v2"
)

// SimOptions set up a batch of simulated games.
type SimOptions struct {
	Players   int
	Games     int
	Seed      uint64 // game i uses seed Seed+i
	Bot       string // "random" or "greedy", for every seat
	Catalogue Catalogue
	VP        VictoryPoints
	// OnGame, when set, sees each finished game (its log is reused afterwards).
	OnGame func(i int, g *Game)
}

// Dist summarises a distribution of integer values.
type Dist struct {
	Count int     `json:"count"`
	Min   int     `json:"min"`
	Max   int     `json:"max"`
	Mean  float64 `json:"mean"`
	P10   int     `json:"p10"`
	P50   int     `json:"p50"`
	P90   int     `json:"p90"`
	hist  map[int]int
}

// Add records one value.
func (d *Dist) Add(v int) {
	if d.hist == nil {
		d.hist = map[int]int{}
		d.Min, d.Max = v, v
	}
	d.hist[v]++
	d.Count++
	d.Mean += (float64(v) - d.Mean) / float64(d.Count)
	d.Min, d.Max = min(d.Min, v), max(d.Max, v)
}

// finish computes the percentiles.
func (d *Dist) finish() {
	if d.Count == 0 {
		return
	}
	q := func(f float64) int {
		need := int(f*float64(d.Count-1)) + 1
		seen := 0
		for v := d.Min; v <= d.Max; v++ {
			seen += d.hist[v]
			if seen >= need {
				return v
			}
		}
		return d.Max
	}
	d.P10, d.P50, d.P90 = q(0.10), q(0.50), q(0.90)
}

// SimStats are the results of a batch.
type SimStats struct {
	Games      int       `json:"games"`
	Players    int       `json:"players"`
	Bot        string    `json:"bot"`
	WinShare   []float64 `json:"win_share"` // per seat; a shared win is split
	SharedWins int       `json:"shared_wins"`
	VP         []Dist    `json:"vp"`          // per seat
	RoundScore Dist      `json:"round_score"` // every building of every round
	Forced     int       `json:"forced_removals"`
}

// Simulate plays opts.Games whole games with bots and gathers statistics.
func Simulate(opts SimOptions) (SimStats, error) {
	bot, err := NewBot(opts.Bot)
	if err != nil {
		return SimStats{}, err
	}
	if opts.Games < 1 {
		return SimStats{}, fmt.Errorf("%w: %d games, want at least 1", ErrBadOptions, opts.Games)
	}
	names := make([]string, opts.Players)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	bots := make([]Bot, opts.Players)
	for i := range bots {
		bots[i] = bot
	}
	st := SimStats{Games: opts.Games, Players: opts.Players, Bot: opts.Bot, WinShare: make([]float64, opts.Players), VP: make([]Dist, opts.Players)}
	g := &Game{log: make([]Event, 0, 256)}
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	for i := 0; i < opts.Games; i++ {
		seed := opts.Seed + uint64(i)
		if err := g.reset(Options{Players: names, Seed: seed, Catalogue: opts.Catalogue, VP: opts.VP}); err != nil {
			return st, err
		}
		pcg.Seed(seed, 0x5eed)
		if err := PlayOut(g, bots, rng); err != nil {
			return st, fmt.Errorf("game %d (seed %d): %w", i, seed, err)
		}
		for _, w := range g.winners[:g.nWinners] {
			st.WinShare[w] += 1 / float64(g.nWinners)
		}
		if g.nWinners > 1 {
			st.SharedWins++
		}
		for p := 0; p < opts.Players; p++ {
			seat := &g.Seats[p]
			st.VP[p].Add(seat.VP(g.Setup.VP))
			for r := 0; r < Rounds; r++ {
				st.RoundScore.Add(seat.Rounds[r].Total)
			}
		}
		for _, e := range g.log {
			if e.Kind == DieRemoved {
				st.Forced++
			}
		}
		if opts.OnGame != nil {
			opts.OnGame(i, g)
		}
	}
	for p := range st.WinShare {
		st.WinShare[p] /= float64(opts.Games)
		st.VP[p].finish()
	}
	st.RoundScore.finish()
	return st, nil
}
