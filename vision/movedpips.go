package vision

// Pips read from patches moved about the cell's centre (fifty-seventh
// session). A stack's pip patch is laid over its cell's centre, but the
// dice stand up to 0.7 mm off it, and the patch's samples lie about a
// pixel apart: where a stack's read is unsure, the pip networks' reading
// of one patch leans on where the samples happen to fall. So a stack read
// less than movedPipsUnsure sure has its pips read again from the patches
// moved movedPipsStep mm (about half a sample) each way along the card's
// width and length (a 3x3 grid, its centre the patch as first read), and
// the nine readings are averaged. Options.NoMovedPips reads without it.

const (
	// movedPipsUnsure: only stacks whose read (height and pips as they
	// stand before the pips are chosen) is less sure than this are read
	// again. Over the forty development corpora every stack this mended
	// was read under 0.55 sure.
	movedPipsUnsure = 0.6
	// movedPipsStep is how far (mm) each moved patch lies from the centre
	// along each axis.
	movedPipsStep = 0.25
)

// movedPips replaces d.pipP, the pip networks' probabilities for the
// stack of decision dec on cell (r, col) (the nadir pip network's, if
// nadir), by their average over the nine patches of the grid, where the
// stack's read is less than movedPipsUnsure sure. It uses d.pipX.
func (d *Detector) movedPips(cam Camera, p cardPose, r, col int, dec Decision, nadir bool) {
	if _, pp := argmax32(d.pipP); min(dec.Confidence, float64(pp)) >= movedPipsUnsure {
		return
	}
	net := d.pips
	if nadir {
		net = d.nadirPips
	}
	var sum, q [6]float32
	copy(sum[:], d.pipP)
	for a := -1; a <= 1; a++ {
		for b := -1; b <= 1; b++ {
			if a == 0 && b == 0 {
				continue // the patch as first read
			}
			d.movedPipFeatures(cam, p, r, col, dec.Height, 0, float64(a)*movedPipsStep, float64(b)*movedPipsStep, d.pipX)
			d.readPipsWith(net, q[:])
			for k, v := range q {
				sum[k] += v
			}
		}
	}
	for k, v := range sum {
		d.pipP[k] = v / 9
	}
}
