package vision

// What the detector with the built-in networks reached on the committed
// stills when they were last trained, rounded down a little: the corpus test
// fails below these.
const (
	minCardFound          = 0.98
	minOccupancy          = 0.975
	minHeight             = 0.91
	minMaterial           = 0.92
	minPips               = 0.89
	minStack              = 0.85
	minHandFlagged        = 0.79
	minNotFalselyOccluded = 0.99
)
