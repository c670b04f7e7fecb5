package engine

import (
	"encoding/json"
	"fmt"
)

// Kind is the type of an Event.
type Kind uint8

// The events of a game, in the order they happen.
const (
	KindNone       Kind = iota
	GameStarted         // players, seed, first player, victory points
	RoundStarted        // round number and turn order (seats)
	InDemandDrawn       // the two in-demand dice, first then second
	BlueprintDealt      // a card dealt to a player
	OfferDrawn          // the dice rolled for the offer
	DiePlaced           // a player took a die from the offer and placed it
	DieRemoved          // a player who could place nothing removed a die
	DieDiscarded        // 2 players: the second die taken out of the offer
	DiceDrawn           // dice drawn, rolled and added to the offer (none when the bag is empty)
	BuildingScored      // a player's round points
	AwardGiven          // a trophy card to a player
	PrizeGiven          // a prize card to a player
	RoundEnded          // dice back in the bag, blueprints discarded
	GameEnded           // final victory points and the winners
)

var kindNames = [...]string{
	KindNone: "none", GameStarted: "game-started", RoundStarted: "round-started",
	InDemandDrawn: "in-demand-drawn", BlueprintDealt: "blueprint-dealt", OfferDrawn: "offer-drawn",
	DiePlaced: "die-placed", DieRemoved: "die-removed", DieDiscarded: "die-discarded",
	DiceDrawn: "dice-drawn", BuildingScored: "building-scored", AwardGiven: "award-given",
	PrizeGiven: "prize-given", RoundEnded: "round-ended", GameEnded: "game-ended",
}

// String is the kind's name in the log (die-placed, ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ParseKind reads a kind's name.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if n == s && Kind(k) != KindNone {
			return Kind(k), nil
		}
	}
	return KindNone, fmt.Errorf("%w: %q", ErrUnknownEvent, s)
}

// HasPlayer reports whether events of this kind belong to a player (seat);
// the others carry Player -1.
func (k Kind) HasPlayer() bool {
	switch k {
	case BlueprintDealt, DiePlaced, DieRemoved, DieDiscarded, BuildingScored, AwardGiven, PrizeGiven:
		return true
	}
	return false
}

// MaxPlayers and MinPlayers bound the player count.
const (
	MinPlayers = 2
	MaxPlayers = 4
)

// maxEventDice is the most dice one event carries (a 3-player offer).
const maxEventDice = 9

// VictoryPoints are the values printed on the award and prize cards.
type VictoryPoints struct {
	Gold   int `json:"gold"`
	Silver int `json:"silver"`
	Bronze int `json:"bronze"`
	Prize  int `json:"prize"`
}

// DefaultVP is the designer's published card values: gold 3, silver 2,
// bronze 1, every prize 2.
var DefaultVP = VictoryPoints{Gold: 3, Silver: 2, Bronze: 1, Prize: 2}

// For returns the points of an award.
func (vp VictoryPoints) For(a Award) int {
	switch a {
	case Gold:
		return vp.Gold
	case Silver:
		return vp.Silver
	default:
		return vp.Bronze
	}
}

// Setup is what a game-started event records.
type Setup struct {
	Players []string      `json:"players"`
	Seed    uint64        `json:"seed"`
	First   int           `json:"first"`
	VP      VictoryPoints `json:"vp"`
}

// Event is one state change. Which fields matter depends on Kind; the log
// form (JSON) writes only those. Player is a seat (0-based, clockwise from
// the first name given); Row, Col and Level are 1-based like the card.
type Event struct {
	Seq    int
	Kind   Kind
	Round  int8
	Player int8
	Die    Die
	Row    int8
	Col    int8
	Level  int8
	NDice  uint8
	Dice   [maxEventDice]Die
	Card   int16
	Layout Blueprint
	NOrder uint8
	Order  [MaxPlayers]int8
	Score  Breakdown
	Award  Award
	Prize  Prize
	Setup  *Setup
}

// DiceList returns the dice the event carries.
func (e *Event) DiceList() []Die { return e.Dice[:e.NDice] }

// String is a one-line human description of the event.
func (e Event) String() string {
	switch e.Kind {
	case GameStarted:
		return fmt.Sprintf("game started: players %v, seed %d", e.Setup.Players, e.Setup.Seed)
	case RoundStarted:
		return fmt.Sprintf("round %d starts, turn order %v", e.Round, e.Order[:e.NOrder])
	case InDemandDrawn:
		return fmt.Sprintf("in demand: %s first, %s second", e.Dice[0].Mat.Colour(), e.Dice[1].Mat.Colour())
	case BlueprintDealt:
		return fmt.Sprintf("seat %d gets blueprint #%d %s", e.Player, e.Card, e.Layout)
	case OfferDrawn:
		return fmt.Sprintf("offer: %s", FormatDice(e.DiceList()))
	case DiePlaced:
		return fmt.Sprintf("seat %d places %s at row %d col %d level %d", e.Player, e.Die, e.Row, e.Col, e.Level)
	case DieRemoved:
		return fmt.Sprintf("seat %d can place nothing and removes %s", e.Player, e.Die)
	case DieDiscarded:
		return fmt.Sprintf("seat %d discards %s", e.Player, e.Die)
	case DiceDrawn:
		if e.NDice == 0 {
			return "bag empty: nothing drawn"
		}
		return fmt.Sprintf("drawn: %s", FormatDice(e.DiceList()))
	case BuildingScored:
		return fmt.Sprintf("seat %d scores %d", e.Player, e.Score.Total)
	case AwardGiven:
		return fmt.Sprintf("seat %d wins %s", e.Player, e.Award)
	case PrizeGiven:
		return fmt.Sprintf("seat %d wins the %s prize", e.Player, e.Prize)
	case RoundEnded:
		return fmt.Sprintf("round %d ends", e.Round)
	case GameEnded:
		return fmt.Sprintf("game over: winners %v", e.Order[:e.NOrder])
	}
	return e.Kind.String()
}

// wireEvent is the JSON form of an Event.
type wireEvent struct {
	Seq    int        `json:"seq"`
	Type   string     `json:"type"`
	Round  int        `json:"round,omitempty"`
	Player *int       `json:"player,omitempty"`
	Die    *Die       `json:"die,omitempty"`
	Row    int        `json:"row,omitempty"`
	Col    int        `json:"col,omitempty"`
	Level  int        `json:"level,omitempty"`
	Dice   *[]Die     `json:"dice,omitempty"`
	Card   int        `json:"card,omitempty"`
	Layout *Blueprint `json:"layout,omitempty"`
	Order  []int      `json:"order,omitempty"`
	Score  *Breakdown `json:"score,omitempty"`
	Award  string     `json:"award,omitempty"`
	Prize  string     `json:"prize,omitempty"`
	Setup  *Setup     `json:"setup,omitempty"`
}

// MarshalJSON writes the event with the fields its kind uses.
func (e Event) MarshalJSON() ([]byte, error) {
	w := wireEvent{Seq: e.Seq, Type: e.Kind.String(), Round: int(e.Round)}
	player := func() { p := int(e.Player); w.Player = &p }
	order := func() {
		w.Order = make([]int, e.NOrder)
		for i := range w.Order {
			w.Order[i] = int(e.Order[i])
		}
	}
	dice := func() { d := append([]Die{}, e.DiceList()...); w.Dice = &d }
	switch e.Kind {
	case GameStarted:
		if e.Setup == nil {
			return nil, fmt.Errorf("%w: game-started without setup", ErrBadEvent)
		}
		w.Setup = e.Setup
	case RoundStarted:
		order()
	case InDemandDrawn, OfferDrawn, DiceDrawn:
		dice()
	case BlueprintDealt:
		player()
		w.Card = int(e.Card)
		w.Layout = &e.Layout
	case DiePlaced:
		player()
		w.Die = &e.Die
		w.Row, w.Col, w.Level = int(e.Row), int(e.Col), int(e.Level)
	case DieRemoved, DieDiscarded:
		player()
		w.Die = &e.Die
	case BuildingScored:
		player()
		w.Score = &e.Score
	case AwardGiven:
		player()
		w.Award = e.Award.String()
	case PrizeGiven:
		player()
		w.Prize = e.Prize.String()
	case RoundEnded:
	case GameEnded:
		order()
	default:
		return nil, fmt.Errorf("%w: kind %d", ErrUnknownEvent, e.Kind)
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads an event written by MarshalJSON. It checks the form
// (known type, fields in range); State.Apply checks that it fits the game.
func (e *Event) UnmarshalJSON(b []byte) error {
	var w wireEvent
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	k, err := ParseKind(w.Type)
	if err != nil {
		return err
	}
	out := Event{Seq: w.Seq, Kind: k, Player: -1}
	if w.Round < 0 || w.Round > Rounds {
		return fmt.Errorf("%w: %s: round %d", ErrBadEvent, k, w.Round)
	}
	out.Round = int8(w.Round)
	if k.HasPlayer() != (w.Player != nil) {
		return fmt.Errorf("%w: %s: player given for an event without one, or missing", ErrBadEvent, k)
	}
	if w.Player != nil {
		if *w.Player < 0 || *w.Player >= MaxPlayers {
			return fmt.Errorf("%w: %s: player %d", ErrBadEvent, k, *w.Player)
		}
		out.Player = int8(*w.Player)
	}
	if w.Die != nil {
		out.Die = *w.Die
	}
	for _, v := range []int{w.Row, w.Col, w.Level} {
		if v < 0 || v > 127 {
			return fmt.Errorf("%w: %s: row/col/level %d", ErrBadEvent, k, v)
		}
	}
	out.Row, out.Col, out.Level = int8(w.Row), int8(w.Col), int8(w.Level)
	if w.Dice != nil {
		if len(*w.Dice) > maxEventDice {
			return fmt.Errorf("%w: %s: %d dice", ErrBadEvent, k, len(*w.Dice))
		}
		out.NDice = uint8(copy(out.Dice[:], *w.Dice))
	}
	if w.Card < 0 || w.Card > 32767 {
		return fmt.Errorf("%w: %s: card %d", ErrBadEvent, k, w.Card)
	}
	out.Card = int16(w.Card)
	if w.Layout != nil {
		out.Layout = *w.Layout
	}
	if len(w.Order) > MaxPlayers {
		return fmt.Errorf("%w: %s: order of %d", ErrBadEvent, k, len(w.Order))
	}
	for i, s := range w.Order {
		if s < 0 || s >= MaxPlayers {
			return fmt.Errorf("%w: %s: seat %d", ErrBadEvent, k, s)
		}
		out.Order[i] = int8(s)
	}
	out.NOrder = uint8(len(w.Order))
	if w.Score != nil {
		out.Score = *w.Score
	}
	if w.Award != "" {
		a, ok := lookup(awardNames[:], w.Award)
		if !ok {
			return fmt.Errorf("%w: %s: award %q", ErrBadEvent, k, w.Award)
		}
		out.Award = Award(a)
	}
	if w.Prize != "" {
		p, ok := lookup(prizeNames[:], w.Prize)
		if !ok {
			return fmt.Errorf("%w: %s: prize %q", ErrBadEvent, k, w.Prize)
		}
		out.Prize = Prize(p)
	}
	out.Setup = w.Setup
	*e = out
	return nil
}

func lookup(names []string, s string) (int, bool) {
	for i, n := range names {
		if n == s {
			return i, true
		}
	}
	return 0, false
}
