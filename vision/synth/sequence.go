package synth

import (
	"fmt"
	"math"
)

// Frame is one image of a round sequence.
type Frame struct {
	Scene *Scene
	Seq   TruthSequence
}

// GenerateRound makes the frames of a round being built by 1-4 players:
// every player takes 6 dice from the offer, one per turn, clockwise; each
// placement is three frames — a hand enters over the card, places the die,
// and leaves — after a first frame of empty cards. Camera and lights stay
// fixed; the offer is refilled from the bag after each placement.
func GenerateRound(seed uint64, opt Options, players int, name string) ([]Frame, error) {
	if players < 1 || players > 4 {
		return nil, fmt.Errorf("synth: %w: players %d not in 1-4", ErrGenerate, players)
	}
	if len(opt.Catalogue) == 0 {
		return nil, fmt.Errorf("synth: %w: empty blueprint catalogue", ErrGenerate)
	}
	if err := opt.Model.Validate(); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	opt.Players = players
	opt.Balance = nil
	g := newGen(seed, opt)
	g.oneLight = true
	m := opt.Model
	rIn := g.layoutCards(players)

	// The final buildings (6 dice each) and the pose of every die.
	type step struct {
		card, r, c, level int
		pd                PlacedDie
	}
	var perPlayer [][]step
	for ci := range g.sc.Cards {
		card := &g.sc.Cards[ci]
		h := g.roundHeights(card.Layout)
		var stacks [][]step
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				n := h[r][col]
				if n == 0 {
					continue
				}
				vals := g.stackValues(n)
				var st []step
				for k := 0; k < n; k++ {
					d := Die{g.pickMaterial(), vals[k]}
					card.Building[r][col] = append(card.Building[r][col], d)
					pd := g.addDie(card, r, col, d)
					st = append(st, step{ci, r, col, k + 1, pd})
				}
				stacks = append(stacks, st)
			}
		}
		// the player's order: any stack, each bottom to top
		var order []step
		for len(stacks) > 0 {
			i := g.rng.IntN(len(stacks))
			order = append(order, stacks[i][0])
			stacks[i] = stacks[i][1:]
			if len(stacks[i]) == 0 {
				stacks = append(stacks[:i], stacks[i+1:]...)
			}
		}
		perPlayer = append(perPlayer, order)
	}
	first := g.rng.IntN(players)
	var steps []step
	for turn := 0; turn < 6; turn++ {
		for p := 0; p < players; p++ {
			pl := (first + p) % players
			if turn < len(perPlayer[pl]) {
				steps = append(steps, perPlayer[pl][turn])
			}
		}
	}
	// Offer slots: die i of the placement order waits in slot i mod K.
	K := min(offerSize(players), len(steps))
	slots := g.offerSlots(players, rIn, K)
	K = len(slots)
	offerDie := func(i int) PlacedDie {
		p := slots[i%K]
		p.Z = m.Die / 2
		return PlacedDie{Die: steps[i].pd.Die, Center: p, Rot: RotZ(float64(i*47%360) * math.Pi / 180).Mul(steps[i].pd.Rot), Yaw: float64(i * 47 % 360)}
	}
	// Frame the finished round (tallest stacks) with the first offer.
	for i := 0; i < K; i++ {
		g.sc.Offer = append(g.sc.Offer, offerDie(i))
	}
	if err := g.frame(); err != nil {
		return nil, err
	}
	g.lightsAndLook(false)
	// frames are many: lighter compression keeps the corpus small
	g.sc.Post.JPEGQuality = 72 + g.rng.IntN(5)
	g.sc.Post.NoiseSigma = g.uni(0.3, 1.5)
	styles := make([]handStyle, len(g.sc.Cards))
	for i := range styles {
		styles[i] = g.handStyle()
	}
	base := *g.sc

	// state is the scene after `placed` placements, when `drawn` dice have
	// come into the offer and die inHand (or -1) is in a hand.
	state := func(placed, drawn, inHand int) *Scene {
		sc := base
		sc.Cards = make([]Card, len(base.Cards))
		for ci, c := range base.Cards {
			c.Building = [3][2]Stack{}
			c.Dice = [3][2][]PlacedDie{}
			sc.Cards[ci] = c
		}
		for i := 0; i < placed; i++ {
			s := steps[i]
			c := &sc.Cards[s.card]
			c.Building[s.r][s.c] = append(c.Building[s.r][s.c], s.pd.Die)
			c.Dice[s.r][s.c] = append(c.Dice[s.r][s.c], s.pd)
		}
		sc.Offer = nil
		for i := placed; i < min(drawn, len(steps)); i++ {
			if i != inHand {
				sc.Offer = append(sc.Offer, offerDie(i))
			}
		}
		sc.Hands = nil
		return &sc
	}
	cardTop := func(sc *Scene, ci int) float64 {
		top := m.CardThickness
		for r := 0; r < 3; r++ {
			for col := 0; col < 2; col++ {
				top = math.Max(top, sc.Cards[ci].CellTop(m, r, col).Z)
			}
		}
		return top
	}
	var frames []Frame
	total := 1 + 3*len(steps)
	add := func(sc *Scene, ev string, s *step) {
		seq := TruthSequence{Name: name, Players: players, Frame: len(frames), Frames: total, Event: ev}
		if s != nil {
			seq.Placing = &TruthPlacement{Seat: base.Cards[s.card].Seat, Card: s.card, Row: s.r, Col: s.c, Die: s.pd.Die.String(), Level: s.level}
		}
		sc.Seed = seed*1000 + uint64(len(frames))
		frames = append(frames, Frame{Scene: sc, Seq: seq})
	}
	add(state(0, K, -1), "start", nil)
	for t, s := range steps {
		card := base.Cards[s.card]
		st := styles[s.card]
		gu, _ := m.CellCenter(0, s.c)
		// enter: the die is in the hand, the fingertips reach the card's edge
		sc := state(t, K+t, t)
		tgt := card.Point(m, gu+g.uni(-6, 6), m.CardHeight+g.uni(0, 12), 0)
		sc.Hands = []Hand{g.hand(s.card, tgt, g.uni(-12, 12), cardTop(sc, s.card)+g.uni(45, 70), st)}
		add(sc, "enter", &s)
		// place: the die is down, the fingers just above it
		sc = state(t+1, K+t, -1)
		u, v := m.CellCenter(s.r, s.c)
		tgt = card.Point(m, u+g.uni(-3, 3), v+g.uni(2, 6), 0)
		sc.Hands = []Hand{g.hand(s.card, tgt, g.uni(-8, 8), cardTop(sc, s.card)+g.uni(20, 28), st)}
		add(sc, "place", &s)
		// leave: the hand draws back past the edge; the offer is refilled
		sc = state(t+1, K+t+1, -1)
		tgt = card.Point(m, gu+g.uni(-10, 10), m.CardHeight+g.uni(35, 60), 0)
		sc.Hands = []Hand{g.hand(s.card, tgt, g.uni(-15, 15), cardTop(sc, s.card)+g.uni(50, 80), st)}
		add(sc, "leave", &s)
	}
	return frames, nil
}

// roundHeights is a building of exactly 6 dice: the blueprint as planned,
// or 6 dice spread over the open cells.
func (g *gen) roundHeights(l Layout) [3][2]int {
	var h [3][2]int
	var open [][2]int
	sum := 0
	for r := 0; r < 3; r++ {
		for c := 0; c < 2; c++ {
			if l[r][c] != Hatched {
				open = append(open, [2]int{r, c})
				sum += l[r][c]
			}
		}
	}
	if sum == 6 && g.rng.Float64() < 0.6 {
		for _, rc := range open {
			h[rc[0]][rc[1]] = l[rc[0]][rc[1]]
		}
		return h
	}
	for i := 0; i < 6; i++ {
		rc := open[g.rng.IntN(len(open))]
		h[rc[0]][rc[1]]++
	}
	return h
}
