// Package cardmodel is the physical model of a Blueprints card and die: card
// size, where the 3x2 grid of cells is printed, the cell size and the die
// size, all in millimetres.
//
// The renderer (vision/synth) and the vision code read the same file,
// configs/card.json, so that what is drawn and what is looked for agree. The
// package is pure Go (standard library only) so that any part of the project
// can use it.
//
// Card coordinates: origin at the top-left corner of the card as printed, u to
// the right, v down, millimetres.
package cardmodel
