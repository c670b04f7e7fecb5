package engine

import (
	"fmt"
	"math/rand/v2"
)

// Bot chooses a legal move for the seat whose turn it is. buf is scratch
// space it may use (and return, grown) to avoid allocating.
type Bot interface {
	Choose(s *State, rng *rand.Rand, buf []Move) (Move, []Move)
}

// NewBot returns a bot by name: "random" (uniform over legal moves) or
// "greedy" (the move that adds most to its own round score now).
func NewBot(name string) (Bot, error) {
	switch name {
	case "random":
		return RandomBot{}, nil
	case "greedy":
		return GreedyBot{}, nil
	}
	return nil, fmt.Errorf("%w: unknown bot %q (want random or greedy)", ErrBadOptions, name)
}

// RandomBot plays a uniformly random legal move.
type RandomBot struct{}

// Choose picks a random legal placement (or removal) and, with 2 players, a
// random die to discard.
func (RandomBot) Choose(s *State, rng *rand.Rand, buf []Move) (Move, []Move) {
	m := s.RandomMove(rng)
	if s.N == 2 && s.NOffer > 1 {
		m.Discard = s.randomOther(rng, m.Die)
	}
	return m, buf
}

// randomOther picks a die of the offer other than one copy of taken.
func (s *State) randomOther(rng *rand.Rand, taken Die) Die {
	skip := s.offerIndex(taken)
	j := rng.IntN(s.NOffer - 1)
	if j >= skip {
		j++
	}
	return s.Offer[j]
}

// GreedyBot plays the move that raises its building's round score most right
// now (ties: the first found); with 2 players it discards the die the other
// player could gain most from.
type GreedyBot struct{}

// Choose picks the best immediate move.
func (GreedyBot) Choose(s *State, rng *rand.Rand, buf []Move) (Move, []Move) {
	buf = s.LegalMoves(buf[:0])
	p := s.Current()
	seat := &s.Seats[p]
	best, bestGain := buf[0], -1<<30
	if !buf[0].Remove {
		base := Score(&seat.Blueprint, &seat.Building).Total
		for _, m := range buf {
			b := seat.Building
			b[m.Row][m.Col].push(m.Die)
			if gain := Score(&seat.Blueprint, &b).Total - base; gain > bestGain {
				best, bestGain = m, gain
			}
		}
	} else {
		best = buf[rng.IntN(len(buf))]
	}
	if s.N == 2 && s.NOffer > 1 {
		best.Discard = s.bestFor(1-p, best.Die)
	}
	return best, buf
}

// bestFor returns the die of the offer (other than one copy of taken) that
// would add most to seat p's building.
func (s *State) bestFor(p int, taken Die) Die {
	seat := &s.Seats[p]
	base := Score(&seat.Blueprint, &seat.Building).Total
	skip := s.offerIndex(taken)
	var best Die
	bestGain := -1 << 30
	for i := 0; i < s.NOffer; i++ {
		if i == skip {
			continue
		}
		d := s.Offer[i]
		gain := -1 << 20
		for r := 0; r < Rows; r++ {
			for c := 0; c < Cols; c++ {
				if canPlace(&seat.Blueprint, &seat.Building, d, r, c) {
					b := seat.Building
					b[r][c].push(d)
					if v := Score(&seat.Blueprint, &b).Total - base; v > gain {
						gain = v
					}
				}
			}
		}
		if gain > bestGain {
			best, bestGain = d, gain
		}
	}
	return best
}

// PlayOut plays the game to its end with one bot per seat, using rng for the
// bots' choices.
func PlayOut(g *Game, bots []Bot, rng *rand.Rand) error {
	for !g.Over() {
		p := g.Current()
		var m Move
		m, g.moves = bots[p].Choose(&g.State, rng, g.moves)
		if err := g.Play(p, m); err != nil {
			return fmt.Errorf("seat %d (%s) move %s: %w", p, g.name(p), m, err)
		}
	}
	return nil
}
