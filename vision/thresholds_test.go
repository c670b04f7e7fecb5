package vision

// What the detector with the built-in networks reached on the committed
// stills when they were last trained, rounded down a little: the corpus test
// fails below these.
const (
	minCardFound          = 0.998
	minOccupancy          = 0.997
	minHeight             = 0.98
	minMaterial           = 0.99
	minPips               = 0.985
	minStack              = 0.975
	minHandFlagged        = 0.915
	minHiddenFlagged      = 0.55
	minNotFalselyOccluded = 0.9985
)

// The same on the committed stills whose buildings break a placement rule
// (vision/testdata/synth-mistakes, bprender --mistakes 1, seed 5).
const (
	minMistakeStack     = 0.93
	minMistakeHatched   = 0.94
	minMistakeOnHigher  = 0.94
	minMistakeCardFound = 0.99
)
