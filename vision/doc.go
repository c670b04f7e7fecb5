// Package vision reads a Blueprints table from one overhead camera frame:
// it finds every blueprint card and its pose, and for each cell of each
// card the stack standing on it: its height, and the material and pips of
// its top die, with a confidence, or that a hand hides it.
//
// It is the first stage of the companion (see the design): frames come in
// as gocv Mats, which never leave this package; what leaves it is plain Go
// values (Result, Card, Cell). vision/track will turn those into placements
// for the engine. The camera comes from calibration, or, for the renderer's
// images, from their truth files (ParseTruthCamera), and the card geometry
// from configs/card.json (vision/cardmodel).
//
// Each card's pose comes from its blue outline, then the printed grid's
// lines (which way up, and slides), and last a fit of the card's own
// printed frame and grid lines to the thin white ridges the image shows
// (refine.go), which also mends cards a screen or a hand cut short. An
// outline too big for a card (a shadow grown onto it) is fitted by its
// sides (sides.go), and where two masks find cards at one place, the one
// whose printed lines show more stands. A seat still without a card after
// every mask is searched for by its printed line work alone (linework.go):
// a card washed white or pink by a lamp has no colour left to find.
//
// Cells are read by small learned networks (learned.go, vision/model):
// two height CNNs that compare the six levels a stack could reach, a top
// network and a material CNN for the top die's material, and four pip
// CNNs (averaged) on the top face warped to a square. Where the height CNNs are unsure
// they read the cell again turned and mirrored (views.go, Options.Views),
// and a cell the card's other stacks hide from the camera is flagged
// occluded rather than guessed (hidden.go); where they hide only part of a
// top, what shows of it (the pips at its visible pip places, its colour)
// can overrule unsure networks (seen.go). A card with cells almost
// straight under the camera, where heights show only in how large a top
// face looks, is marked Card.UnderCamera, and those cells' heights are read
// by two more height CNNs, fine-tuned for them, from face patches whose
// samples are averaged over their squares (nadir.go); where the top of a
// stack there shows two or more pips and is not clear glass, the spacing
// of its pips' centres, cast back onto one plane above the card, gives
// its height more surely than the networks (pipscale.go). Each network reads
// all the frame's cells (or stacks) before the next network's weights are
// brought into the cache. Bench measures all of it against a corpus of
// rendered frames with truth.
//
// The per-point work of the card finder and the cells (projections,
// bilinear colour and whiteness reads, the die-like test, the card masks'
// pixel passes) runs in vision/internal/pix, whose AVX-512 kernels give
// exactly its Go code's results.
package vision
