package vision

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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
// those cells instead. Since the twenty-seventh session they read each
// level's face as a finer patch (nadirPlanes: 24x24 samples over the
// 1.2 die edges of the level inputs' 12x12), where a stack's side shows
// as a band of 1-2 px per die, and were learned from random weights on
// such cells of 3,700 renders, 3,000 of them with the camera over a card
// (`bprender corpus --nadir-on-cards 1`, seeds 1301-1308; see
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

// cardSlide is the least and the greatest distance (pixels) a stack's top
// face on a cell of the card at pose p moves in the image per die of
// height (Card.SlidePx); zeros where the camera cannot project a cell.
func (d *Detector) cardSlide(cam Camera, p cardPose) [2]float64 {
	m := d.opts.Model
	lo, hi := math.Inf(1), 0.0
	for r := 0; r < m.Rows && r < 3; r++ {
		for col := 0; col < m.Cols && col < 2; col++ {
			cu, cv := m.CellCenter(r, col)
			x0, y0, ok0 := cam.Project(p.at(cu, cv, m.CardThickness))
			x1, y1, ok1 := cam.Project(p.at(cu, cv, m.CardThickness+m.Die))
			if !ok0 || !ok1 {
				return [2]float64{}
			}
			s := math.Hypot(x1-x0, y1-y0)
			lo, hi = min(lo, s), max(hi, s)
		}
	}
	if hi == 0 {
		return [2]float64{}
	}
	return [2]float64{lo, hi}
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
// patches (or, for CNNs of a finer face patch, from nadirPlanes); d.cellX
// keeps the plain level inputs, which the material and pip readers and
// settleClashes use.
func (d *Detector) readNadirHeight(cam Camera, p cardPose, bg *background, row, col int, shares *[MaxStack + 2]float64) {
	if d.nadirFine != nil {
		d.readNadirFine(cam, p, bg, row, col)
		return
	}
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

// A nadir height CNN may read a finer face patch than faceSide (since the
// twenty-seventh session's trial): each level's face sampled side × side
// over the same faceSpan die edges, each sample the mean of
// NadirFaceSuper·faceSide/side points squared (the points of the
// faceSide patches, more finely binned), as HeightCNNChannels planes of
// brightness and blueness. Its side is each network's; it must be even,
// and from MinNadirSide to MaxNadirSide; one file may hold networks of
// several such sides (since the twenty-ninth session: 24 and 32), read
// together.
const (
	MinNadirSide = 8
	MaxNadirSide = 32
)

// NadirPlanesLen is the length of a nadir height CNN's input of a face
// patch side samples square.
func NadirPlanesLen(side int) int { return HeightCNNChannels * side * side }

// nadirPlanes fills dst (NadirPlanesLen(side) long) with cell (row, col)'s
// face patch, side samples square, at every level 1..MaxStack, level by
// level its brightness plane then its blueness plane.
func (d *Detector) nadirPlanes(cam Camera, p cardPose, bg *background, row, col, side int, dst []float32) {
	m := d.opts.Model
	cu, cv := m.CellCenter(row, col)
	n := side * side
	if len(d.nadirFace) < 3*n {
		d.nadirFace = make([]float32, 3*MaxNadirSide*MaxNadirSide)
	}
	face := d.nadirFace[:3*n]
	super := max(1, NadirFaceSuper*faceSide/side)
	for h := 1; h <= MaxStack; h++ {
		d.patchPlane(cam, p, bg, m.CardThickness+float64(h)*m.Die)
		d.samplePatch(cu, cv, side, faceSpan, super, face)
		o := 2 * (h - 1) * n
		facePlanes(face, dst[o:o+n], dst[o+n:o+2*n])
	}
}

// nadirGroup is the nadir height CNNs that read face patches of one side,
// and their input planes (NadirPlanesLen(side)).
type nadirGroup struct {
	side int
	nets []*cnn.Workspace
	x    []float32
}

// readNadirFine leaves in d.heightP the nadir height CNNs' mean
// probabilities for cell (row, col), each group's read from nadirPlanes
// at its side, with the further views where Options.Views asks for them
// (as heightViews: how many, by the plain reading of them all).
func (d *Detector) readNadirFine(cam Camera, p cardPose, bg *background, row, col int) {
	clear(d.heightP)
	for _, g := range d.nadirFine {
		d.nadirPlanes(cam, p, bg, row, col, g.side, g.x)
		addShares(d.heightP, g.nets, g.x, len(d.heightNadir))
	}
	n := d.heightViewCount()
	if n <= 1 {
		return
	}
	for _, g := range d.nadirFine {
		view := d.nadirView[:len(g.x)]
		for i := 1; i < n; i++ {
			copy(view, g.x)
			transformPlanes(view, g.side, HeightCNNChannels, viewOrder[i])
			addShares(d.heightP, g.nets, view, len(d.heightNadir))
		}
	}
	for k := range d.heightP {
		d.heightP[k] /= float32(n)
	}
}

// joinGroup adds ws, a network reading face patches of side, to the group
// of that side in groups, or to a new one after them.
func joinGroup(groups []nadirGroup, ws *cnn.Workspace, side int) []nadirGroup {
	i := slices.IndexFunc(groups, func(g nadirGroup) bool { return g.side == side })
	if i < 0 {
		i = len(groups)
		groups = append(groups, nadirGroup{side: side, x: make([]float32, NadirPlanesLen(side))})
	}
	groups[i].nets = append(groups[i].nets, ws)
	return groups
}

// addShares adds to p each of nets' probabilities for x divided by n
// (their share in the mean of n networks).
func addShares(p []float32, nets []*cnn.Workspace, x []float32, n int) {
	for _, ws := range nets {
		if ws.Forward(x) == nil { // the length was checked at load
			for k, v := range ws.Prob {
				p[k] += v / float32(n)
			}
		}
	}
}

// AugmentPlanes applies one random symmetry of the square to every plane
// of x, planes of side² (a nadir height CNN's input).
func AugmentPlanes(x []float32, side, planes int, rng *rand.Rand) {
	transformPlanes(x, side, planes, rng.IntN(8))
}

// SetNadirTraining makes TrainingCells also read, for each cell whose top
// face slides less than maxSlide face sizes per die, its nadirPlanes at
// side (CellSample.Nadir), to train nadir height CNNs of that side on
// (side 0: none).
func (d *Detector) SetNadirTraining(side int, maxSlide float64) error {
	if side != 0 && (side < MinNadirSide || side > MaxNadirSide || side%2 != 0) {
		return fmt.Errorf("vision: nadir face side %d: want an even side from %d to %d", side, MinNadirSide, MaxNadirSide)
	}
	d.trainNadirSide, d.trainNadirSlide = side, maxSlide
	return nil
}

// useNadirHeights makes the detector read the heights of cells under the
// camera with the height CNNs hcs instead of its height networks (none:
// with those too). They must read what the height CNNs read.
func (d *Detector) useNadirHeights(hcs []*cnn.Net) error {
	d.heightNadir, d.nadirFine, d.nadirView = nil, nil, nil
	for _, hc := range hcs {
		a := hc.Arch
		fine := a.Side != faceSide
		okSide := !fine || (a.Side >= MinNadirSide && a.Side <= MaxNadirSide && a.Side%2 == 0)
		if a.InC != HeightCNNChannels || !okSide || a.Classes != HeightClasses || (len(d.heightNadir) > 0 && fine != (d.nadirFine != nil)) {
			d.heightNadir, d.nadirFine = nil, nil
			return fmt.Errorf("vision: nadir height CNN takes %dx%dx%d inputs to %d classes, want %d planes of even sides from %d to %d, or all of %d (the level inputs' faces), to %d", a.InC, a.Side, a.Side, a.Classes, HeightCNNChannels, MinNadirSide, MaxNadirSide, faceSide, HeightClasses)
		}
		ws := hc.NewWorkspace()
		d.heightNadir = append(d.heightNadir, ws)
		if !fine {
			continue
		}
		d.nadirFine = joinGroup(d.nadirFine, ws, a.Side)
		if len(d.nadirView) < NadirPlanesLen(a.Side) {
			d.nadirView = make([]float32, NadirPlanesLen(a.Side))
		}
	}
	if len(d.heightNadir) > 0 && d.heightCNNX == nil {
		d.heightCNNX = make([]float32, HeightCNNLen)
	}
	return nil
}
