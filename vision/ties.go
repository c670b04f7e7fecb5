package vision

// The level shares (readCells) are what the classical reader measures: how
// die-like the part of the image is that a die at each level would add to
// the stack. The height CNNs see them among their inputs, but where the
// CNNs are torn between two heights, less than tieMargin apart, the
// shares' own run (shareRunHeight) decides between them when it says one
// of the two (shareTies). Not under the camera, where a level adds too
// little of the image to measure. (On the bench, `still_0063`'s two-high
// stack of a wood die on a stone one in a neighbour's shadow was read one
// high at 0.435 against 0.420; its shares, 0.97 and 1.00 at levels 1 and 2
// and none above, say two.)
const tieMargin = 0.1

// shareRunHeight is the height the level shares sh (index 1..MaxStack)
// say: the h whose run of levels 1..h has the largest sum of share - 1/2,
// 0 where no run sums above 0.
func shareRunHeight(sh *[MaxStack + 2]float64) int {
	best, bestH, acc := 0.0, 0, 0.0
	for h := 1; h <= MaxStack; h++ {
		acc += sh[h] - 0.5
		if acc > best {
			best, bestH = acc, h
		}
	}
	return bestH
}

// shareTies applies that to the height reads of card c (in d.cardCells;
// cd: its reads, with the level shares), before their clashes are
// settled.
func (d *Detector) shareTies(cam Camera, c *Card, cd *cardRead, rows, cols int) {
	for r := 0; r < rows; r++ {
		for col := 0; col < cols; col++ {
			cr := &d.cardCells[r][col]
			a := cr.dec.Height
			if cr.dec.Occluded || a == 0 {
				continue
			}
			b := 0
			for h := 1; h <= MaxStack; h++ {
				if h != a && (b == 0 || cr.p[h] > cr.p[b]) {
					b = h
				}
			}
			if cr.p[a]-cr.p[b] >= tieMargin || shareRunHeight(&cd.shares[r][col]) != b || cd.under[r][col] || d.underCamera(cam, c.pose, r, col) {
				continue
			}
			p := float64(cr.p[b])
			cr.dec = Decision{Height: b, HeightConf: p, Confidence: p}
		}
	}
}
