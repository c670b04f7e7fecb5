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
	minHiddenFlagged      = 0.70
	minNotFalselyOccluded = 0.9985
)
