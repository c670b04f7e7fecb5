package engine

import (
	"errors"
	"fmt"
)

// Sentinel errors callers can branch on with errors.Is.
var (
	ErrUnknownMaterial = errors.New("engine: unknown material")
	ErrBadPips         = errors.New("engine: pips outside 1-6")
	ErrBadDie          = errors.New("engine: bad die")
	ErrBadBlueprint    = errors.New("engine: bad blueprint")
	ErrBadGrid         = errors.New("engine: bad building grid")
	ErrBadCatalogue    = errors.New("engine: bad blueprint catalogue")
	ErrBadOptions      = errors.New("engine: bad game options")

	// Placement rules.
	ErrHatched      = errors.New("a die never goes on a hatched cell")
	ErrHigherBelow  = errors.New("a die goes only on an equal or lower value")
	ErrStackTooTall = errors.New("a stack is at most 6 dice high")
	ErrTooManyDice  = errors.New("a building has at most 6 dice")
	ErrOffCard      = errors.New("the card has 3 rows and 2 columns")

	// Turn rules.
	ErrGameOver     = errors.New("engine: the game is over")
	ErrNotYourTurn  = errors.New("engine: not this player's turn")
	ErrNotInOffer   = errors.New("engine: die is not in the offer")
	ErrCanPlace     = errors.New("engine: a die of the offer can be placed, so none may be removed")
	ErrNeedDiscard  = errors.New("engine: with 2 players a second die of the offer must be discarded")
	ErrNoDiscard    = errors.New("engine: only a 2-player game discards")
	ErrBadEvent     = errors.New("engine: event does not fit the state")
	ErrUnknownEvent = errors.New("engine: unknown event type")
)

// PlacementError says which die could not go where, and why. Rule is one of
// ErrHatched, ErrHigherBelow, ErrStackTooTall or ErrOffCard, so
// errors.Is(err, ErrHatched) works on it.
type PlacementError struct {
	Die      Die
	Row, Col int  // 1-based, as printed on the card (rows top to bottom)
	Level    int  // the level the die would take, 1 = on the card
	Below    *Die // the die it would go on, if any
	Rule     error
}

func (e *PlacementError) Error() string {
	where := fmt.Sprintf("at row %d col %d", e.Row, e.Col)
	switch {
	case e.Below != nil:
		return fmt.Sprintf("engine: die %s cannot go on %s %s: %v", e.Die, *e.Below, where, e.Rule)
	case e.Rule == ErrHatched:
		return fmt.Sprintf("engine: die %s cannot go on the hatched cell %s: %v", e.Die, where, e.Rule)
	default:
		return fmt.Sprintf("engine: die %s cannot go %s (level %d): %v", e.Die, where, e.Level, e.Rule)
	}
}

func (e *PlacementError) Unwrap() error { return e.Rule }
