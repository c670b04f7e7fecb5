package vision

// What the detector with the built-in networks reached on the committed
// stills when they were last trained, rounded down a little: the corpus test
// fails below these.
const (
	minCardFound          = 0.98
	minOccupancy          = 0.99
	minHeight             = 0.95
	minMaterial           = 0.97
	minPips               = 0.95
	minStack              = 0.93
	minHandFlagged        = 0.88
	minHiddenFlagged      = 0.45
	minNotFalselyOccluded = 0.995
)
