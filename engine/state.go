package engine

import "fmt"

// Rounds is the number of rounds in a game.
const Rounds = 3

// OfferSize is the number of dice in the offer at the start of a round.
func OfferSize(players int) int {
	switch players {
	case 2:
		return 8
	case 3:
		return 9
	default:
		return 7
	}
}

// Phase is where a game stands.
type Phase uint8

// The phases of a game.
const (
	PhaseNew      Phase = iota // before game-started
	PhaseSetup                 // a round is being set up (in-demand, blueprints, offer)
	PhaseTake                  // the current player takes a die
	PhaseDiscard               // 2 players: the current player discards a second die
	PhaseDraw                  // dice are drawn to refill the offer
	PhaseScoring               // the round's building is over; scores, awards, prizes
	PhaseGameOver              // final results are known
)

// Seat is one player's part of the state.
type Seat struct {
	Name      string
	Card      int
	Blueprint Blueprint
	Building  Building
	Taken     int // dice taken this round (placed or removed)
	Removed   int // dice removed this round because nothing could be placed
	Rounds    [Rounds]Breakdown
	Awards    [NumAwards]int
	PrizeWins int
	scored    bool
	// need is, per cell (row-major), the lowest value a die must show to go
	// there, or 7 when nothing may; derived from Blueprint and Building.
	need [Rows * Cols]uint8
}

// VP is the seat's victory points from its award and prize cards.
func (s *Seat) VP(vp VictoryPoints) int {
	return s.Awards[Gold]*vp.Gold + s.Awards[Silver]*vp.Silver + s.Awards[Bronze]*vp.Bronze + s.PrizeWins*vp.Prize
}

// RoundRecord is what a round left behind: turn order, in-demand colours,
// each seat's blueprint and final building, and who won what.
type RoundRecord struct {
	Order     [MaxPlayers]int8
	InDemand  [2]Material
	Cards     [MaxPlayers]int
	Blueprint [MaxPlayers]Blueprint
	Building  [MaxPlayers]Building
	Scores    [MaxPlayers]Breakdown
	Awards    [NumAwards]int8 // seat, or -1
	Prizes    [NumPrizes]int8 // seat, or -1
}

// State is a game's whole state. The zero State is a game not yet started;
// Apply moves it forward one event at a time.
type State struct {
	Setup     Setup
	N         int // players
	Phase     Phase
	Round     int // 1..3, 0 before the first
	Turn      int // turns completed this round
	Order     [MaxPlayers]int8
	InDemand  [2]Material
	Bag       [NumMaterials]int8
	Offer     [16]Die
	NOffer    int
	Seats     [MaxPlayers]Seat
	Discarded int // dice discarded this round (2 players)
	History   [Rounds]RoundRecord
	winners   [MaxPlayers]int8
	nWinners  int
	result    RoundResult                 // the round's scores and decisions, once its building is over
	given     [NumAwards + NumPrizes]int8 // seat given each award, then each prize, this round; -1 none
	dealt     int
	seq       int
}

// Current returns the seat whose turn it is, or -1 outside a turn.
func (s *State) Current() int {
	if s.Phase != PhaseTake && s.Phase != PhaseDiscard && s.Phase != PhaseDraw {
		return -1
	}
	return int(s.Order[s.Turn%s.N])
}

// OfferDice returns the offer, sorted by value (a copy).
func (s *State) OfferDice() []Die { return append([]Die(nil), s.Offer[:s.NOffer]...) }

// BagCount is the number of dice in the bag.
func (s *State) BagCount() int {
	n := 0
	for _, c := range s.Bag {
		n += int(c)
	}
	return n
}

// DiceAccounted counts every die where it is now: bag, in-demand spaces,
// offer, buildings, removed and discarded. It is 32 throughout a round.
func (s *State) DiceAccounted() int {
	n := s.BagCount() + s.NOffer + s.Discarded
	if s.Phase != PhaseNew && s.Phase != PhaseGameOver && s.InDemand[0] != NoMaterial {
		n += 2
	}
	for i := 0; i < s.N; i++ {
		n += s.Seats[i].Building.Dice() + s.Seats[i].Removed
	}
	return n
}

func (s *State) offerIndex(d Die) int {
	for i := 0; i < s.NOffer; i++ {
		if s.Offer[i] == d {
			return i
		}
	}
	return -1
}

func (s *State) removeOffer(i int) {
	copy(s.Offer[i:s.NOffer], s.Offer[i+1:s.NOffer])
	s.NOffer--
	s.Offer[s.NOffer] = Die{}
}

// addOffer inserts d keeping the offer sorted by value, then material.
func (s *State) addOffer(d Die) {
	i := s.NOffer
	for i > 0 && less(d, s.Offer[i-1]) {
		s.Offer[i] = s.Offer[i-1]
		i--
	}
	s.Offer[i] = d
	s.NOffer++
}

func less(a, b Die) bool {
	if a.Pips != b.Pips {
		return a.Pips < b.Pips
	}
	return a.Mat < b.Mat
}

// takeFromBag removes dice of the given materials from the bag.
func (s *State) takeFromBag(dice []Die) error {
	bag := s.Bag
	for _, d := range dice {
		if !d.Valid() {
			return fmt.Errorf("%w: invalid die %v", ErrBadEvent, d)
		}
		if bag[d.Mat.index()] == 0 {
			return fmt.Errorf("%w: no %s die left in the bag for %s", ErrBadEvent, d.Mat.Colour(), d)
		}
		bag[d.Mat.index()]--
	}
	s.Bag = bag
	return nil
}

// CanPlaceAny reports whether seat p can legally place any die of the offer.
func (s *State) CanPlaceAny(p int) bool {
	seat := &s.Seats[p]
	for i := 0; i < s.NOffer; i++ {
		for r := 0; r < Rows; r++ {
			for c := 0; c < Cols; c++ {
				if canPlace(&seat.Blueprint, &seat.Building, s.Offer[i], r, c) {
					return true
				}
			}
		}
	}
	return false
}

// seatList copies seats out of an order array, for messages (so that an
// event never escapes to the heap through an error).
func seatList(o [MaxPlayers]int8, n uint8) []int8 { return append([]int8(nil), o[:n]...) }

func badEvent(e *Event, format string, args ...any) error {
	return fmt.Errorf("%w: event %d (%s): %s", ErrBadEvent, e.Seq, e.Kind, fmt.Sprintf(format, args...))
}

// Apply moves the state forward by one event, after checking that the event
// fits the state and the rules. On error the state is unchanged: every case
// below checks everything before it changes anything.
func (s *State) Apply(e Event) error { return s.apply(&e) }

func (s *State) apply(e *Event) error {
	if e.Seq != s.seq+1 {
		return badEvent(e, "sequence number %d, want %d", e.Seq, s.seq+1)
	}
	if e.Kind != GameStarted && e.Kind != RoundStarted && s.Phase != PhaseNew && int(e.Round) != s.Round && e.Kind != GameEnded {
		return badEvent(e, "round %d, the game is in round %d", e.Round, s.Round)
	}
	seatOK := func() error {
		if e.Player < 0 || int(e.Player) >= s.N {
			return badEvent(e, "no seat %d in a %d-player game", e.Player, s.N)
		}
		return nil
	}
	switch e.Kind {
	case GameStarted:
		if s.Phase != PhaseNew {
			return badEvent(e, "the game has already started")
		}
		if e.Setup == nil {
			return badEvent(e, "no setup")
		}
		n := len(e.Setup.Players)
		if n < MinPlayers || n > MaxPlayers {
			return badEvent(e, "%d players, want %d to %d", n, MinPlayers, MaxPlayers)
		}
		if e.Setup.First < 0 || e.Setup.First >= n {
			return badEvent(e, "first player %d of %d", e.Setup.First, n)
		}
		if err := checkNames(e.Setup.Players); err != nil {
			return badEvent(e, "%v", err)
		}
		if err := e.Setup.VP.check(); err != nil {
			return badEvent(e, "%v", err)
		}
		s.Setup = *e.Setup
		s.Setup.Players = append([]string(nil), e.Setup.Players...)
		s.N = n
		for i, name := range s.Setup.Players {
			s.Seats[i].Name = name
		}
		s.Phase = PhaseSetup
	case RoundStarted:
		if s.Phase != PhaseSetup || s.Round >= Rounds || int(e.Round) != s.Round+1 {
			return badEvent(e, "round %d cannot start now", e.Round)
		}
		if int(e.NOrder) != s.N {
			return badEvent(e, "turn order of %d seats, want %d", e.NOrder, s.N)
		}
		var seen [MaxPlayers]bool
		for i := 0; i < int(e.NOrder); i++ {
			p := e.Order[i]
			if int(p) >= s.N || p < 0 || seen[p] {
				return badEvent(e, "turn order %v is not the %d seats once each", seatList(e.Order, e.NOrder), s.N)
			}
			seen[p] = true
		}
		want := s.turnOrderFor(int(e.Round))
		if want != e.Order {
			return badEvent(e, "turn order %v, the rules give %v", seatList(e.Order, e.NOrder), seatList(want, uint8(s.N)))
		}
		s.Round = int(e.Round)
		s.Order = e.Order
		s.Turn = 0
		s.Bag = [NumMaterials]int8{DicePerMaterial, DicePerMaterial, DicePerMaterial, DicePerMaterial}
		s.InDemand = [2]Material{}
		s.NOffer = 0
		s.Discarded = 0
		s.dealt = 0
		for i := range s.given {
			s.given[i] = -1
		}
		for i := 0; i < s.N; i++ {
			st := &s.Seats[i]
			st.Building, st.Taken, st.Removed, st.Card, st.Blueprint, st.scored = Building{}, 0, 0, 0, Blueprint{}, false
		}
	case InDemandDrawn:
		if s.Phase != PhaseSetup || s.Round == 0 || s.InDemand[0] != NoMaterial {
			return badEvent(e, "in-demand dice are drawn once, at the start of a round")
		}
		if e.NDice != 2 || e.Dice[0].Mat == e.Dice[1].Mat {
			return badEvent(e, "want two dice of different colours, got %s", FormatDice(e.DiceList()))
		}
		if err := s.takeFromBag(e.DiceList()); err != nil {
			return err
		}
		s.InDemand = [2]Material{e.Dice[0].Mat, e.Dice[1].Mat}
	case BlueprintDealt:
		if err := seatOK(); err != nil {
			return err
		}
		if s.Phase != PhaseSetup || s.InDemand[0] == NoMaterial || s.Seats[e.Player].Card != 0 {
			return badEvent(e, "seat %d cannot be dealt a blueprint now", e.Player)
		}
		if e.Layout.Dice() != DicePerRound {
			return badEvent(e, "blueprint %s uses %d dice, want %d", e.Layout, e.Layout.Dice(), DicePerRound)
		}
		if e.Card <= 0 {
			return badEvent(e, "card id %d", e.Card)
		}
		seat := &s.Seats[e.Player]
		seat.Card = int(e.Card)
		seat.Blueprint = e.Layout
		for k := range seat.need {
			seat.need[k] = 1
			if e.Layout[k/Cols][k%Cols] == Hatched {
				seat.need[k] = 7
			}
		}
		s.dealt++
	case OfferDrawn:
		if s.Phase != PhaseSetup || s.dealt != s.N {
			return badEvent(e, "the offer is drawn after every seat has a blueprint")
		}
		if int(e.NDice) != OfferSize(s.N) {
			return badEvent(e, "offer of %d dice, want %d", e.NDice, OfferSize(s.N))
		}
		if err := s.takeFromBag(e.DiceList()); err != nil {
			return err
		}
		for _, d := range e.DiceList() {
			s.addOffer(d)
		}
		s.Phase = PhaseTake
	case DiePlaced, DieRemoved:
		if err := seatOK(); err != nil {
			return err
		}
		if s.Phase != PhaseTake {
			return badEvent(e, "no die may be taken now")
		}
		p := int(e.Player)
		if cur := s.Current(); cur != p {
			return fmt.Errorf("%w: event %d: seat %d took a die on seat %d's turn", ErrNotYourTurn, e.Seq, p, cur)
		}
		i := s.offerIndex(e.Die)
		if i < 0 {
			return fmt.Errorf("%w: event %d: %s (offer %s)", ErrNotInOffer, e.Seq, e.Die, FormatDice(s.Offer[:s.NOffer]))
		}
		seat := &s.Seats[p]
		if e.Kind == DiePlaced {
			r, c := int(e.Row)-1, int(e.Col)-1
			if err := CheckPlacement(&seat.Blueprint, &seat.Building, e.Die, r, c); err != nil {
				return err
			}
			if int(e.Level) != seat.Building[r][c].Height()+1 {
				return badEvent(e, "level %d, the die lands on level %d", e.Level, seat.Building[r][c].Height()+1)
			}
			st := &seat.Building[r][c]
			st.push(e.Die)
			seat.need[r*Cols+c] = e.Die.Pips
			if st.n >= MaxHeight {
				seat.need[r*Cols+c] = 7
			}
		} else {
			if s.CanPlaceAny(p) {
				return fmt.Errorf("%w: event %d: seat %d", ErrCanPlace, e.Seq, p)
			}
			seat.Removed++
		}
		s.removeOffer(i)
		seat.Taken++
		if s.N == 2 && s.NOffer > 0 {
			s.Phase = PhaseDiscard
		} else {
			s.Phase = PhaseDraw
		}
	case DieDiscarded:
		if err := seatOK(); err != nil {
			return err
		}
		if s.Phase != PhaseDiscard || int(e.Player) != s.Current() {
			return badEvent(e, "seat %d cannot discard now", e.Player)
		}
		i := s.offerIndex(e.Die)
		if i < 0 {
			return fmt.Errorf("%w: event %d: discard %s (offer %s)", ErrNotInOffer, e.Seq, e.Die, FormatDice(s.Offer[:s.NOffer]))
		}
		s.removeOffer(i)
		s.Discarded++
		s.Phase = PhaseDraw
	case DiceDrawn:
		if s.Phase != PhaseDraw {
			return badEvent(e, "no dice are drawn now")
		}
		want := s.drawCount()
		if int(e.NDice) != want {
			return badEvent(e, "%d dice drawn, want %d (bag holds %d)", e.NDice, want, s.BagCount())
		}
		if err := s.takeFromBag(e.DiceList()); err != nil {
			return err
		}
		for _, d := range e.DiceList() {
			s.addOffer(d)
		}
		s.Turn++
		if s.Turn == s.N*DicePerRound {
			s.Phase = PhaseScoring
			s.result = s.scoreRound()
		} else {
			s.Phase = PhaseTake
		}
	case BuildingScored:
		if err := seatOK(); err != nil {
			return err
		}
		seat := &s.Seats[e.Player]
		if s.Phase != PhaseScoring || seat.scored {
			return badEvent(e, "seat %d cannot be scored now", e.Player)
		}
		pos := 0
		for int(s.Order[pos]) != int(e.Player) {
			pos++
		}
		if got := s.result.Scores[pos].Breakdown; got != e.Score {
			return badEvent(e, "seat %d scored %+v, its building scores %+v", e.Player, e.Score, got)
		}
		seat.Rounds[s.Round-1] = e.Score
		seat.scored = true
	case AwardGiven, PrizeGiven:
		if err := seatOK(); err != nil {
			return err
		}
		if s.Phase != PhaseScoring || !s.allScored() {
			return badEvent(e, "cards are handed out after every building is scored")
		}
		slot := int(e.Award)
		if e.Kind == PrizeGiven {
			slot = NumAwards + int(e.Prize)
		}
		if e.Award >= NumAwards || e.Prize >= NumPrizes || s.given[slot] >= 0 {
			return badEvent(e, "card %s/%s cannot be given (again) this round", e.Award, e.Prize)
		}
		s.given[slot] = e.Player
		if e.Kind == AwardGiven {
			s.Seats[e.Player].Awards[e.Award]++
		} else {
			s.Seats[e.Player].PrizeWins++
		}
	case RoundEnded:
		if s.Phase != PhaseScoring || !s.allScored() {
			return badEvent(e, "the round cannot end before every building is scored")
		}
		rec := s.record()
		for a, seat := range rec.Awards {
			if s.given[a] != seat {
				return badEvent(e, "%s award went to seat %d, the rules give it to seat %d", Award(a), s.given[a], seat)
			}
		}
		for p, seat := range rec.Prizes {
			if s.given[NumAwards+p] != seat {
				return badEvent(e, "%s prize went to seat %d, the rules give it to seat %d", Prize(p), s.given[NumAwards+p], seat)
			}
		}
		s.History[s.Round-1] = rec
		s.Phase = PhaseSetup
	case GameEnded:
		if s.Phase != PhaseSetup || s.Round != Rounds {
			return badEvent(e, "the game ends after round %d", Rounds)
		}
		winners, n := s.computeWinners()
		if n != int(e.NOrder) || winners != e.Order {
			return badEvent(e, "winners %v, the rules give %v", seatList(e.Order, e.NOrder), seatList(winners, uint8(n)))
		}
		s.winners, s.nWinners = winners, n
		s.Phase = PhaseGameOver
	default:
		return fmt.Errorf("%w: event %d: kind %d", ErrUnknownEvent, e.Seq, e.Kind)
	}
	s.seq = e.Seq
	return nil
}

// drawCount is how many dice the current turn draws: one (two with 2
// players), but never more than the bag holds.
func (s *State) drawCount() int {
	want := 1
	if s.N == 2 {
		want = 2
	}
	if b := s.BagCount(); b < want {
		want = b
	}
	return want
}

func (s *State) allScored() bool {
	for i := 0; i < s.N; i++ {
		if !s.Seats[i].scored {
			return false
		}
	}
	return true
}

// turnOrderFor gives the seats in turn order for a round. Round 1 starts
// with the chosen first player; rounds 2 and 3 with the seat whose building
// scored fewest in the previous round (house rule for a tie: of the tied
// seats, the one who played earliest in that round). Play goes clockwise,
// which is seat order.
func (s *State) turnOrderFor(round int) [MaxPlayers]int8 {
	start := s.Setup.First
	if round > 1 {
		prev := &s.History[round-2]
		best := -1
		for pos := 0; pos < s.N; pos++ {
			seat := int(prev.Order[pos])
			if best < 0 || prev.Scores[seat].Total < prev.Scores[best].Total {
				best = seat
			}
		}
		start = best
	}
	var order [MaxPlayers]int8
	for i := 0; i < s.N; i++ {
		order[i] = int8((start + i) % s.N)
	}
	return order
}

// record captures the round just scored, with the awards and prizes the
// rules give (decided from the buildings when the building phase ended), so
// that a log whose cards disagree is caught.
func (s *State) record() RoundRecord {
	rec := RoundRecord{Order: s.Order, InDemand: s.InDemand}
	for i := 0; i < s.N; i++ {
		seat := &s.Seats[i]
		rec.Cards[i], rec.Blueprint[i], rec.Building[i], rec.Scores[i] = seat.Card, seat.Blueprint, seat.Building, seat.Rounds[s.Round-1]
	}
	for i := range rec.Awards {
		rec.Awards[i] = -1
	}
	for i := range rec.Prizes {
		rec.Prizes[i] = -1
	}
	res := &s.result
	for a, d := range res.Awards {
		if d.Winner >= 0 {
			rec.Awards[a] = s.Order[d.Winner]
		}
	}
	for p, d := range res.Prizes {
		if d.Winner >= 0 {
			rec.Prizes[p] = s.Order[d.Winner]
		}
	}
	return rec
}

// RoundResult is the scored round once its building is over (phase
// PhaseScoring), players in turn order.
func (s *State) RoundResult() RoundResult { return s.result }

// scoreRound scores the current round's buildings in turn order.
func (s *State) scoreRound() RoundResult {
	var players [MaxPlayers]RoundPlayer
	for pos := 0; pos < s.N; pos++ {
		seat := &s.Seats[s.Order[pos]]
		players[pos] = RoundPlayer{Blueprint: seat.Blueprint, Building: seat.Building}
	}
	return ScoreRound(s.InDemand, players[:s.N])
}

// Standing is a seat's place at the end of the game.
type Standing struct {
	Seat   int
	VP     int
	Prizes int
	Awards [NumAwards]int
}

// Standings returns every seat's victory points and cards, best first by the
// end-of-game chain: most VP, then most prizes, then most gold, silver,
// bronze awards; seats still tied keep seat order.
func (s *State) Standings() []Standing {
	st := s.standings()
	return append([]Standing(nil), st[:s.N]...)
}

// standings is Standings without allocating (an insertion sort, stable).
func (s *State) standings() [MaxPlayers]Standing {
	var out [MaxPlayers]Standing
	for i := 0; i < s.N; i++ {
		out[i] = Standing{Seat: i, VP: s.Seats[i].VP(s.Setup.VP), Prizes: s.Seats[i].PrizeWins, Awards: s.Seats[i].Awards}
		for j := i; j > 0 && cmpStanding(out[j], out[j-1]) > 0; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// cmpStanding is >0 when a beats b at the end of the game, 0 when tied.
func cmpStanding(a, b Standing) int {
	keys := [...][2]int{{a.VP, b.VP}, {a.Prizes, b.Prizes}, {a.Awards[Gold], b.Awards[Gold]}, {a.Awards[Silver], b.Awards[Silver]}, {a.Awards[Bronze], b.Awards[Bronze]}}
	for _, k := range keys {
		if k[0] != k[1] {
			if k[0] > k[1] {
				return 1
			}
			return -1
		}
	}
	return 0
}

// EndStep names the step of the end-of-game chain that separated the winner(s)
// from the next seat: "vp", "prizes", "gold", "silver", "bronze", or
// "shared" when nobody is behind them.
func EndStep(a, b Standing) string {
	switch {
	case a.VP != b.VP:
		return "vp"
	case a.Prizes != b.Prizes:
		return "prizes"
	case a.Awards[Gold] != b.Awards[Gold]:
		return "gold"
	case a.Awards[Silver] != b.Awards[Silver]:
		return "silver"
	case a.Awards[Bronze] != b.Awards[Bronze]:
		return "bronze"
	}
	return "tied"
}

// Winners returns the winning seats once the game is over (several when
// they share the win), in seat order; nil before.
func (s *State) Winners() []int {
	if s.Phase != PhaseGameOver {
		return nil
	}
	out := make([]int, s.nWinners)
	for i := range out {
		out[i] = int(s.winners[i])
	}
	return out
}

// computeWinners gives the seats tied at the top of the standings, in seat
// order, and how many there are.
func (s *State) computeWinners() ([MaxPlayers]int8, int) {
	st := s.standings()
	var w [MaxPlayers]int8
	n := 0
	for _, x := range st[:s.N] {
		if cmpStanding(st[0], x) != 0 {
			break
		}
		w[n] = int8(x.Seat)
		n++
	}
	for i := 1; i < n; i++ { // seat order
		for j := i; j > 0 && w[j] < w[j-1]; j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
	return w, n
}
