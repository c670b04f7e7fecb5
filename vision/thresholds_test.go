package vision

// What the detector with the built-in networks reached on the committed
// stills when they were last trained, rounded down a little: the corpus test
// fails below these.
const (
	minCardFound          = 0.998
	minOccupancy          = 0.997
	minHeight             = 0.97
	minMaterial           = 0.985
	minPips               = 0.97
	minStack              = 0.96
	minHandFlagged        = 0.91
	minHiddenFlagged      = 0.55
	minNotFalselyOccluded = 0.9985
)
