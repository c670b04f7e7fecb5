// Package engine is the complete rules of Blueprints: dice and the bag, the
// in-demand draw, offers, blueprint cards, placement validation, turn order,
// the 2-player discard variant, building scoring, awards and prizes with the
// rulebook's tie-break chain, three rounds and the end of the game.
//
// It sits at the centre of the companion: vision/track turns what the camera
// sees into placements, the engine validates and applies them and emits
// events, and the scoreboard, the terminal and the log file consume those
// events. It imports only the standard library and does no I/O, so it builds
// and tests anywhere.
//
// The game has a canonical text form used in tests, logs, errors and data
// files (see ../shared/rules/blueprints.md):
//
//	die        W3, G6             material letter + pips (W wood, R recycled, S stone, G glass)
//	stack      "S1 W3 G6"         bottom to top, "" when empty
//	blueprint  "X1/31/1X"         rows top to bottom; X hatched, 1-6 height, 0 or . open
//
// A game is an append-only log of events. Every state change is an Event;
// State.Apply replays one, so a log replays to the identical state and
// results. Randomness comes only from the seeded source in Options, so the
// same seed gives the same game, event for event. Illegal actions return
// typed errors (see PlacementError and the Err* sentinels) and leave the state
// untouched.
package engine
