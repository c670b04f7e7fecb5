package vision

import (
	"fmt"
	"math"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// Near the point of the table straight under the camera (its nadir) a
// stack's top face hardly slides in the image as the stack grows: there its
// height shows only in how large the face looks, and the height networks,
// which learned from renders framed as a table owner frames a table, read
// it worst (on 22 corpora, 83.5 % of the stacks that slide less than 3 px
// per die wholly right, against 98-99 % elsewhere). A second set of
// height CNNs, model/height_nadir.cnn (built in since the seventeenth
// session; or beside the files of --cell-model), reads the heights of
// those cells instead, from the cell's level inputs with each face patch
// sample averaged over its square (NadirFaceSuper), so that a face a
// third of a sample larger shows. They are the built-in height CNNs
// fine-tuned on such cells of 2,000 renders whose camera stands over a
// card (`bprender corpus --nadir-on-cards 1`, seeds 1301-1305; see
// vision/model/README.md). There a clear glass die's own pips also lie
// over its bottom face's (7 - v), and a top of 2, 3, 4 or 5 makes the
// five pattern with them: a third set of networks, model/pips_nadir.cnn
// (built in since the twenty-fourth session), the built-in pip CNNs
// fine-tuned on such stacks, reads their pips in place of the others
// (useNadirPips). Cards with such cells are marked (Card.UnderCamera)
// whatever reads them.

// NadirSlide is the most a stack's top face may slide per die of height,
// in face sizes, for its cell to be read by the nadir height CNNs: about
// 3 px on a 36 px face.
const NadirSlide = 0.085

// underCamera says whether cell (row, col) of a card at pose p lies so
// near the camera's nadir that a stack's top there slides less than
// NadirSlide per die.
func (d *Detector) underCamera(cam Camera, p cardPose, row, col int) bool {
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	du, dv, size := d.levelSlide(cam, p, cu, cv, m.CardThickness)
	return size > 0 && math.Hypot(du, dv) < NadirSlide
}

// cardUnderCamera says whether any cell of a card at pose p lies under the
// camera (underCamera). On the fresh corpora of the sixteenth session the
// stacks there were read wholly right 82 % of the time, against 98 %
// elsewhere: a camera mounted over the middle of the table, where the
// offer lies, rather than over a player's card, reads better.
func (d *Detector) cardUnderCamera(cam Camera, p cardPose) bool {
	m := d.opts.Model
	for r := 0; r < m.Rows && r < 3; r++ {
		for col := 0; col < m.Cols && col < 2; col++ {
			if d.underCamera(cam, p, r, col) {
				return true
			}
		}
	}
	return false
}

// NadirFaceSuper is how many points squared the nadir height CNNs' face
// patch samples each average (Detector.SetFaceSupersampling): there a
// level's face is 1.2 px larger than the one below on a 36 px face, a
// third of a sample, which a sample taken at one point sees only when it
// falls on the face's edge, and one averaged over its square always does.
const NadirFaceSuper = 4

// SetFaceSupersampling makes every face patch sample the mean of k² points
// spread evenly over its square (k ≤ 1: its centre, as the detector reads
// faces): vision/celltrain trains nadir height CNNs on such features
// (NadirFaceSuper).
func (d *Detector) SetFaceSupersampling(k int) { d.faceSuper = k }

// readNadirHeight reads the height of cell (row, col), under the camera,
// with the nadir height CNNs, from its level inputs with supersampled face
// patches; d.cellX keeps the plain level inputs, which the material and
// pip readers and settleClashes use.
func (d *Detector) readNadirHeight(cam Camera, p cardPose, bg *background, row, col int, shares *[MaxStack + 2]float64) {
	if d.nadirX == nil {
		d.nadirX = make([]float32, CellInputs)
	}
	super := d.faceSuper
	d.faceSuper = NadirFaceSuper
	for h := 1; h <= MaxStack; h++ {
		d.topFeatures(cam, p, bg, row, col, h, shares, d.nadirX[(h-1)*TopInputs:h*TopInputs])
	}
	d.faceSuper = super
	d.cellX, d.nadirX = d.nadirX, d.cellX
	d.nadirCell = true
	d.readHeight()
	d.nadirCell = false
	d.cellX, d.nadirX = d.nadirX, d.cellX
}

// useNadirHeights makes the detector read the heights of cells under the
// camera with the height CNNs hcs instead of its height networks (none:
// with those too). They must read what the height CNNs read.
func (d *Detector) useNadirHeights(hcs []*cnn.Net) error {
	d.heightNadir = nil
	for _, hc := range hcs {
		if a := hc.Arch; a.InC != HeightCNNChannels || a.Side != faceSide || a.Classes != HeightClasses {
			return fmt.Errorf("vision: nadir height CNN takes %dx%dx%d inputs to %d classes, want %dx%dx%d to %d", a.InC, a.Side, a.Side, a.Classes, HeightCNNChannels, faceSide, faceSide, HeightClasses)
		}
		d.heightNadir = append(d.heightNadir, hc.NewWorkspace())
	}
	if len(d.heightNadir) > 0 && d.heightCNNX == nil {
		d.heightCNNX = make([]float32, HeightCNNLen)
	}
	return nil
}
