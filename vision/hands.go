package vision

// A hand reaches over a card from outside it, so where it covers one cell
// the height networks almost always see some of it on a neighbour too. A
// cell flagged as covered while the networks are unsure of it (its hand
// class under loneHandSure) and every other cell of its card is clear of
// hand (under loneHandOthers) is a misread more often than a hand: a glare
// or a die's bluish shadow, not a finger. Such a cell is read as the
// likeliest of empty and the heights instead (doubtLoneHands). (On the
// bench and the mistakes corpus, three cells were flagged so: two held no
// hand at all, an empty cell in a glare and a three-high stack, and one a
// hand hid 8 % of; cells a hand covered by 30 % or more that were flagged
// alone on their card were 0.75 sure or more.)
const loneHandSure, loneHandOthers = 0.65, 0.2

// doubtLoneHands applies that to the height reads of the card in
// d.cardCells (rows, cols: the card's grid), before their clashes are
// settled.
func (d *Detector) doubtLoneHands(rows, cols int) {
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			cr := &d.cardCells[r][col]
			if !cr.dec.Occluded || cr.p[HeightHand] >= loneHandSure || !handsElsewhereBelow(&d.cardCells, rows, cols, r, col, loneHandOthers) {
				continue
			}
			cr.dec = decideWithoutHand(cr.p[:])
		}
	}
}

// handsElsewhereBelow reports whether every cell of cells but (row, col)
// has a hand class under limit.
func handsElsewhereBelow(cells *[3][2]cellRead, rows, cols, row, col int, limit float32) bool {
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if (r != row || c != col) && cells[r][c].p[HeightHand] >= limit {
				return false
			}
		}
	}
	return true
}

// decideWithoutHand reads the height networks' probabilities p as
// DecideHeight does with the hand class left out: the likeliest of empty
// and the heights, with its probability (not rescaled: the hand's share
// stays doubt) as the confidence.
func decideWithoutHand(p []float32) Decision {
	k := 0
	for i := 1; i < HeightHand; i++ {
		if p[i] > p[k] {
			k = i
		}
	}
	if k == 0 {
		return Decision{Confidence: float64(p[0])}
	}
	return Decision{Height: k, HeightConf: float64(p[k]), Confidence: float64(p[k])}
}

// A hand over a stack hides its top face; a hand beside it (fingers round
// a tall stack, the top in the open) does not, yet the height networks
// can call such a cell "a hand". Where they are unsure of the hand (under
// faceHandSure) and what they do not give to the hand lies mostly
// (faceHandShare or more) on one height, they saw that stack's top face,
// and the cell is read as that stack (seenPastHands).
const faceHandSure, faceHandShare = 0.65, 0.8

// seenPastHands applies that to the height reads of the card in
// d.cardCells (rows, cols: the card's grid), after doubtLoneHands.
func (d *Detector) seenPastHands(rows, cols int) {
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			cr := &d.cardCells[r][col]
			if !cr.dec.Occluded || cr.p[HeightHand] >= faceHandSure {
				continue
			}
			var rest float32
			k := 1
			for i := 0; i < HeightHand; i++ {
				rest += cr.p[i]
				if i > 0 && cr.p[i] > cr.p[k] {
					k = i
				}
			}
			if rest > 0 && cr.p[k] >= faceHandShare*rest {
				p := float64(cr.p[k])
				cr.dec = Decision{Height: k, HeightConf: p, Confidence: p}
			}
		}
	}
}
