package vision

// What the detector with the built-in networks reached on the committed
// stills when they were last trained, rounded down a little: the corpus test
// fails below these.
const (
	minCardFound          = 0.98
	minOccupancy          = 0.98
	minHeight             = 0.93
	minMaterial           = 0.935
	minPips               = 0.925
	minStack              = 0.895
	minHandFlagged        = 0.81
	minNotFalselyOccluded = 0.99
)
