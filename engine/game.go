package engine

import (
	"fmt"
	"math/rand/v2"
)

// Options set up a game.
type Options struct {
	// Players are the names in seat order, clockwise; 2 to 4, unique, non-empty.
	Players []string
	// Seed is the only source of randomness: the same seed gives the same
	// game, event for event.
	Seed uint64
	// First is the seat that starts round 1 (the rulebook's "chosen player").
	First int
	// Catalogue is the deck of blueprint cards; it needs at least 3 cards a
	// player, since played blueprints are discarded.
	Catalogue Catalogue
	// VP are the card values; the zero value means DefaultVP.
	VP VictoryPoints
}

// Move is one turn: take Die from the offer and place it on cell (Row, Col)
// (0-based, rows top to bottom) of the player's card, or, when no die of the
// offer can be placed, Remove it from the game for the round. With 2 players
// the turn also discards a second die of the offer, Discard.
type Move struct {
	Die      Die
	Row, Col int
	Remove   bool
	Discard  Die
}

// String writes the move in notation: "W3@2,1", "remove W3", "+ discard G2".
func (m Move) String() string {
	s := fmt.Sprintf("%s@%d,%d", m.Die, m.Row+1, m.Col+1)
	if m.Remove {
		s = "remove " + m.Die.String()
	}
	if m.Discard.Valid() {
		s += " discard " + m.Discard.String()
	}
	return s
}

// Game runs a game: it draws from the bag with its seeded source, takes the
// players' moves, and records every change as an event.
type Game struct {
	State
	rng  *rand.Rand
	pcg  *rand.PCG
	deck []Card
	next int
	log  []Event
	// moves is scratch space for bots choosing a move.
	moves []Move
	// OnEvent, when set, sees every event right after it is applied.
	OnEvent func(Event)
}

// NewGame checks the options, starts the game and sets up round 1.
func NewGame(opts Options) (*Game, error) {
	g := &Game{log: make([]Event, 0, 256)}
	if err := g.reset(opts); err != nil {
		return nil, err
	}
	return g, nil
}

func checkOptions(opts *Options) error {
	n := len(opts.Players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("%w: %d players, want %d to %d", ErrBadOptions, n, MinPlayers, MaxPlayers)
	}
	if err := checkNames(opts.Players); err != nil {
		return fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	if err := opts.VP.check(); err != nil {
		return fmt.Errorf("%w: %v", ErrBadOptions, err)
	}
	if opts.First < 0 || opts.First >= n {
		return fmt.Errorf("%w: first player %d, want 0 to %d", ErrBadOptions, opts.First, n-1)
	}
	if len(opts.Catalogue.Cards) < Rounds*n {
		return fmt.Errorf("%w: %d blueprint cards, a %d-player game needs %d", ErrBadOptions, len(opts.Catalogue.Cards), n, Rounds*n)
	}
	return nil
}

// checkNames reports an empty name or two players of one name.
func checkNames(players []string) error {
	for i, p := range players {
		if p == "" {
			return fmt.Errorf("player %d has no name", i+1)
		}
		for _, q := range players[:i] {
			if p == q {
				return fmt.Errorf("two players named %q", p)
			}
		}
	}
	return nil
}

// MaxVP is the most victory points one award or prize may be worth.
const MaxVP = 99

// check reports an award or prize worth less than 0 or more than MaxVP
// points (a game's totals would overflow, or go down with a win).
func (vp VictoryPoints) check() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"gold", vp.Gold}, {"silver", vp.Silver}, {"bronze", vp.Bronze}, {"prize", vp.Prize}} {
		if v.n < 0 || v.n > MaxVP {
			return fmt.Errorf("%s worth %d victory points, want 0 to %d", v.name, v.n, MaxVP)
		}
	}
	return nil
}

// reset starts a new game in g, reusing its buffers.
func (g *Game) reset(opts Options) error {
	if err := checkOptions(&opts); err != nil {
		return err
	}
	if opts.VP == (VictoryPoints{}) {
		opts.VP = DefaultVP
	}
	g.State = State{}
	if g.pcg == nil {
		g.pcg = rand.NewPCG(0, 0)
		g.rng = rand.New(g.pcg)
	}
	g.pcg.Seed(opts.Seed, 0x9e3779b97f4a7c15)
	g.deck = append(g.deck[:0], opts.Catalogue.Cards...)
	g.rng.Shuffle(len(g.deck), func(i, j int) { g.deck[i], g.deck[j] = g.deck[j], g.deck[i] })
	g.next = 0
	g.log = g.log[:0]
	setup := &Setup{Players: append([]string(nil), opts.Players...), Seed: opts.Seed, First: opts.First, VP: opts.VP}
	if err := g.emit(Event{Kind: GameStarted, Setup: setup}); err != nil {
		return err
	}
	return g.startRound()
}

// Events returns the log so far (do not modify it).
func (g *Game) Events() []Event { return g.log }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Phase == PhaseGameOver }

func (g *Game) emit(e Event) error {
	e.Seq = len(g.log) + 1
	if !e.Kind.HasPlayer() {
		e.Player = -1
	}
	if e.Kind != GameStarted && e.Kind != GameEnded && e.Kind != RoundStarted {
		e.Round = int8(g.Round)
	}
	if err := g.State.apply(&e); err != nil {
		return fmt.Errorf("engine: internal error, the game produced an event it rejects: %w", err)
	}
	g.log = append(g.log, e)
	if g.OnEvent != nil {
		g.OnEvent(e)
	}
	return nil
}

// draw takes a random die from bag (counts per material) and rolls it.
func (g *Game) draw(bag *[NumMaterials]int8) Die {
	total := 0
	for _, c := range bag {
		total += int(c)
	}
	k := g.rng.IntN(total)
	m := 0
	for ; k >= int(bag[m]); m++ {
		k -= int(bag[m])
	}
	bag[m]--
	return Die{Mat: Materials[m], Pips: uint8(g.rng.IntN(6) + 1)}
}

func (g *Game) startRound() error {
	r := g.Round + 1
	ev := Event{Kind: RoundStarted, Round: int8(r), NOrder: uint8(g.N), Order: g.turnOrderFor(r)}
	if err := g.emit(ev); err != nil {
		return err
	}
	// In-demand: draw two; if the second matches the first colour, it goes
	// back into the bag and another is drawn, until the colours differ.
	bag := g.Bag
	first := g.draw(&bag)
	second := g.draw(&bag)
	for second.Mat == first.Mat {
		bag[second.Mat.index()]++
		second = g.draw(&bag)
	}
	ev = Event{Kind: InDemandDrawn, NDice: 2}
	ev.Dice[0], ev.Dice[1] = first, second
	if err := g.emit(ev); err != nil {
		return err
	}
	for pos := 0; pos < g.N; pos++ {
		seat := g.Order[pos]
		c := g.deck[g.next]
		g.next++
		if err := g.emit(Event{Kind: BlueprintDealt, Player: seat, Card: int16(c.ID), Layout: c.Layout}); err != nil {
			return err
		}
	}
	ev = Event{Kind: OfferDrawn, NDice: uint8(OfferSize(g.N))}
	bag = g.Bag
	for i := 0; i < int(ev.NDice); i++ {
		ev.Dice[i] = g.draw(&bag)
	}
	return g.emit(ev)
}

// Check says whether seat player may make move m now, without changing
// anything: nil, or an error naming what is wrong.
func (g *Game) Check(player int, m Move) error {
	if g.Phase == PhaseGameOver {
		return ErrGameOver
	}
	if g.Phase != PhaseTake {
		return fmt.Errorf("%w: the game is not waiting for a move", ErrBadEvent)
	}
	if cur := g.Current(); player != cur {
		return fmt.Errorf("%w: seat %d (%s) moved on seat %d's (%s) turn", ErrNotYourTurn, player, g.name(player), cur, g.name(cur))
	}
	i := g.offerIndex(m.Die)
	if i < 0 {
		return fmt.Errorf("%w: %s (offer %s)", ErrNotInOffer, m.Die, FormatDice(g.Offer[:g.NOffer]))
	}
	seat := &g.Seats[player]
	if m.Remove {
		if g.CanPlaceAny(player) {
			return fmt.Errorf("%w (%s)", ErrCanPlace, g.name(player))
		}
	} else if err := CheckPlacement(&seat.Blueprint, &seat.Building, m.Die, m.Row, m.Col); err != nil {
		return err
	}
	if g.N != 2 {
		if m.Discard != (Die{}) {
			return ErrNoDiscard
		}
		return nil
	}
	if g.NOffer == 1 {
		if m.Discard != (Die{}) {
			return fmt.Errorf("%w: nothing is left in the offer to discard", ErrNotInOffer)
		}
		return nil
	}
	if m.Discard == (Die{}) {
		return ErrNeedDiscard
	}
	for j := 0; j < g.NOffer; j++ {
		if j != i && g.Offer[j] == m.Discard {
			return nil
		}
	}
	return fmt.Errorf("%w: discard %s (offer after taking %s: %s)", ErrNotInOffer, m.Discard, m.Die, FormatDice(g.offerWithout(i)))
}

func (g *Game) offerWithout(i int) []Die {
	out := append([]Die(nil), g.Offer[:i]...)
	return append(out, g.Offer[i+1:g.NOffer]...)
}

func (g *Game) name(seat int) string {
	if seat >= 0 && seat < g.N {
		return g.Seats[seat].Name
	}
	return "nobody"
}

// Play makes seat player's move: it checks the move (the state is untouched
// if it is illegal), applies it, refills the offer from the bag, and when the
// round's building is over scores it, hands out awards and prizes, and sets
// up the next round or ends the game.
func (g *Game) Play(player int, m Move) error {
	if err := g.Check(player, m); err != nil {
		return err
	}
	p := int8(player)
	take := Event{Kind: DiePlaced, Player: p, Die: m.Die, Row: int8(m.Row + 1), Col: int8(m.Col + 1)}
	if m.Remove {
		take = Event{Kind: DieRemoved, Player: p, Die: m.Die}
	} else {
		take.Level = int8(g.Seats[player].Building[m.Row][m.Col].Height() + 1)
	}
	if err := g.emit(take); err != nil {
		return err
	}
	if g.Phase == PhaseDiscard {
		if err := g.emit(Event{Kind: DieDiscarded, Player: p, Die: m.Discard}); err != nil {
			return err
		}
	}
	draw := Event{Kind: DiceDrawn, NDice: uint8(g.drawCount())}
	bag := g.Bag
	for i := 0; i < int(draw.NDice); i++ {
		draw.Dice[i] = g.draw(&bag)
	}
	if err := g.emit(draw); err != nil {
		return err
	}
	if g.Phase == PhaseScoring {
		return g.finishRound()
	}
	return nil
}

func (g *Game) finishRound() error {
	res := &g.result
	for pos := 0; pos < g.N; pos++ {
		if err := g.emit(Event{Kind: BuildingScored, Player: g.Order[pos], Score: res.Scores[pos].Breakdown}); err != nil {
			return err
		}
	}
	for a, d := range res.Awards {
		if d.Winner >= 0 {
			if err := g.emit(Event{Kind: AwardGiven, Player: g.Order[d.Winner], Award: Award(a)}); err != nil {
				return err
			}
		}
	}
	for p, d := range res.Prizes {
		if d.Winner >= 0 {
			if err := g.emit(Event{Kind: PrizeGiven, Player: g.Order[d.Winner], Prize: Prize(p)}); err != nil {
				return err
			}
		}
	}
	if err := g.emit(Event{Kind: RoundEnded}); err != nil {
		return err
	}
	if g.Round < Rounds {
		return g.startRound()
	}
	winners, n := g.computeWinners()
	return g.emit(Event{Kind: GameEnded, Round: int8(g.Round), NOrder: uint8(n), Order: winners})
}

// LegalMoves appends to buf every placement the current player can make (one
// per distinct die and cell), or, when there is none, every removal; the
// Discard of 2-player moves is left for the caller to choose.
func (s *State) LegalMoves(buf []Move) []Move {
	p := s.Current()
	if p < 0 || s.Phase != PhaseTake {
		return buf
	}
	start := len(buf)
	need := s.needs(p)
	for i := 0; i < s.NOffer; i++ {
		d := s.Offer[i]
		if i > 0 && s.Offer[i-1] == d {
			continue
		}
		for k, n := range need {
			if d.Pips >= n {
				buf = append(buf, Move{Die: d, Row: k / Cols, Col: k % Cols})
			}
		}
	}
	if len(buf) > start {
		return buf
	}
	for i := 0; i < s.NOffer; i++ {
		if i > 0 && s.Offer[i-1] == s.Offer[i] {
			continue
		}
		buf = append(buf, Move{Die: s.Offer[i], Remove: true})
	}
	return buf
}

// needs gives, for each cell of seat p's card (row-major), the lowest value
// a die must show to go on it, or 7 when nothing may.
func (s *State) needs(p int) [Rows * Cols]uint8 { return s.Seats[p].need }

// RandomMove picks, uniformly, one of the moves LegalMoves would list, in
// time linear in the offer, without listing them.
func (s *State) RandomMove(rng *rand.Rand) Move {
	p := s.Current()
	need := s.needs(p)
	// fits[v] = number of cells a die showing v may go on.
	var fits [8]int
	for _, n := range need {
		fits[n]++
	}
	for v := 1; v <= 6; v++ {
		fits[v] += fits[v-1]
	}
	total, distinct := 0, 0
	for i := 0; i < s.NOffer; i++ {
		if i > 0 && s.Offer[i-1] == s.Offer[i] {
			continue
		}
		distinct++
		total += fits[s.Offer[i].Pips]
	}
	if total == 0 {
		k := rng.IntN(distinct)
		for i := 0; i < s.NOffer; i++ {
			if i > 0 && s.Offer[i-1] == s.Offer[i] {
				continue
			}
			if k == 0 {
				return Move{Die: s.Offer[i], Remove: true}
			}
			k--
		}
	}
	k := rng.IntN(total)
	for i := 0; i < s.NOffer; i++ {
		d := s.Offer[i]
		if i > 0 && s.Offer[i-1] == d {
			continue
		}
		if k >= fits[d.Pips] {
			k -= fits[d.Pips]
			continue
		}
		for c, n := range need {
			if d.Pips >= n {
				if k == 0 {
					return Move{Die: d, Row: c / Cols, Col: c % Cols}
				}
				k--
			}
		}
	}
	return s.LegalMoves(nil)[0] // not reached: k < total
}

// Replay applies a log to a fresh state, checking every event against the
// rules; it returns the state reached, or the first event that does not fit.
func Replay(events []Event) (*State, error) {
	s := &State{}
	for i := range events {
		if err := s.Apply(events[i]); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Result recomputes a recorded round's scores and decisions (players in that
// round's turn order).
func (rec *RoundRecord) Result(players int) RoundResult {
	ps := make([]RoundPlayer, players)
	for pos := 0; pos < players; pos++ {
		seat := rec.Order[pos]
		ps[pos] = RoundPlayer{Blueprint: rec.Blueprint[seat], Building: rec.Building[seat]}
	}
	return ScoreRound(rec.InDemand, ps)
}
