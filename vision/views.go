package vision

import (
	"fmt"
	"math"
)

// Every network of the learned reader was trained on inputs turned and
// mirrored at random by the eight symmetries of the square (a stack seen
// turned is the same stack; a die's value does not change when its face
// is turned or mirrored). So the reader may read an input in several of
// those symmetries and average the probabilities: each view is a fresh
// look at the same cell, and their mean errs less than any one of them.

// Views says in how many symmetries of the square (1, 2, 4 or 8; 0 takes
// the default) the learned reader reads each network's input.
type Views struct {
	// Height: the height networks' input (every level turned together).
	Height int
	// HeightBelow: the extra height views are read only for a cell whose
	// plain reading's likeliest class has less than this probability
	// (0: the default; 1 or more: always).
	HeightBelow float64
	// Material: the top network's and material CNN's input at the height
	// chosen.
	Material int
	// Pips: the pip network's input.
	Pips int
}

// DefaultViews is what the detector reads when Options.Views is zero.
// HeightBelow was 0.9 until the eleventh session: 0.8 reads the sixteen
// judging corpora to the same counts (0.95 and 1 do too, 0.7 loses two
// stacks) and saves about 0.8 ms per four-card frame.
var DefaultViews = Views{Height: 8, HeightBelow: 0.8, Material: 1, Pips: 1}

func (v Views) withDefaults() Views {
	if v.Height == 0 {
		v.Height = DefaultViews.Height
	}
	if v.HeightBelow == 0 {
		v.HeightBelow = DefaultViews.HeightBelow
	}
	if v.Material == 0 {
		v.Material = DefaultViews.Material
	}
	if v.Pips == 0 {
		v.Pips = DefaultViews.Pips
	}
	// out of range (Validate says so): the nearest that can be read
	for _, n := range []*int{&v.Height, &v.Material, &v.Pips} {
		*n = min(max(*n, 1), len(viewOrder))
	}
	return v
}

// Validate says what is wrong with v, if anything.
func (v Views) Validate() error {
	for _, n := range []struct {
		name string
		n    int
	}{{"height", v.Height}, {"material", v.Material}, {"pips", v.Pips}} {
		switch n.n {
		case 0, 1, 2, 4, 8:
		default:
			return fmt.Errorf("vision: %s views: %d (want 1, 2, 4 or 8)", n.name, n.n)
		}
	}
	if v.HeightBelow < 0 || math.IsNaN(v.HeightBelow) {
		return fmt.Errorf("vision: height views below: %v (want a probability, 0-1)", v.HeightBelow)
	}
	return nil
}

// viewOrder lists the symmetries (as dihedral's k) the first n views
// use: the plain input, the half turn, the two mirrors along a diagonal,
// then the quarter turns and the other mirrors.
var viewOrder = [8]int{0, 2, 4, 6, 1, 3, 5, 7}

// viewBufs are the detector's scratch inputs and sums for the views.
type viewBufs struct {
	cell  []float32 // CellInputs: the height networks' input, turned
	top   []float32 // TopInputs: the top network's input, turned
	pip   []float32 // the pip patch, turned
	probs [TopClasses]float32
	pipP  [6]float32
	matP  [4]float32
}

func (d *Detector) ensureViewBufs() {
	if d.views.cell == nil {
		d.views.cell = make([]float32, CellInputs)
		d.views.top = make([]float32, TopInputs)
	}
	if n := d.pipPlanes * d.pipSide * d.pipSide; len(d.views.pip) != n {
		d.views.pip = make([]float32, n)
	}
}

// readHeight leaves in d.heightP the height networks' mean probabilities
// for the cell in d.cellX, over the views Options.Views asks for.
func (d *Detector) readHeight() {
	clear(d.heightP)
	d.addHeight(d.cellX, 1)
	d.heightViews()
}

// heightViews adds the further views to the plain reading in d.heightP of
// the cell in d.cellX, where Options.Views asks for them, and leaves the
// mean.
func (d *Detector) heightViews() {
	n := d.heightViewCount()
	if n <= 1 {
		return
	}
	for i := 1; i < n; i++ {
		copy(d.views.cell, d.cellX)
		for h := 0; h < MaxStack; h++ {
			turnTop(d.views.cell[h*TopInputs:(h+1)*TopInputs], viewOrder[i])
		}
		d.addHeight(d.views.cell, 1)
	}
	for k := range d.heightP {
		d.heightP[k] /= float32(n)
	}
}

// heightViewCount says in how many views in all the cell whose plain
// reading is in d.heightP is to be read: Options.Views.Height, or 1 where
// the plain reading's likeliest class is at least HeightBelow sure.
func (d *Detector) heightViewCount() int {
	n := d.opts.Views.Height
	if n <= 1 {
		return 1
	}
	var best float32
	for _, p := range d.heightP {
		best = max(best, p)
	}
	if below := d.opts.Views.HeightBelow; below < 1 && float64(best) >= below {
		return 1
	}
	return n
}

// readMaterial reads the top network's probabilities (into q) and, if
// there is one, the material CNN's (into cnnP, else nil) for the level
// inputs at, averaged over the views.
func (d *Detector) readMaterial(at []float32, q *[TopClasses]float32) (cnnP []float32) {
	n := d.opts.Views.Material
	clear(q[:])
	clear(d.views.matP[:])
	for i := 0; i < n; i++ {
		x := at
		if i > 0 {
			copy(d.views.top, at)
			turnTop(d.views.top, viewOrder[i])
			x = d.views.top
		}
		d.top.Predict(x, d.topScratch, d.views.probs[:])
		for k, v := range d.views.probs {
			q[k] += v / float32(n)
		}
		if d.materialCNN != nil {
			MaterialCNNInput(x, d.materialX)
			if d.materialCNN.Forward(d.materialX) == nil { // the length was checked at load
				for k, v := range d.materialCNN.Prob {
					d.views.matP[k] += v / float32(n)
				}
			}
		}
	}
	if d.materialCNN == nil {
		return nil
	}
	return d.views.matP[:]
}

// readPips leaves in d.pipP the pip network's probabilities for the patch
// in d.pipX, averaged over the views.
func (d *Detector) readPips() { d.readPipsWith(d.pips, d.pipP) }

// readPipsWith reads d.pipX with the pip network r into out, in as many
// views as the pip networks are read in (the glass pip network too).
func (d *Detector) readPipsWith(r pipReader, out []float32) {
	n := d.opts.Views.Pips
	if n <= 1 {
		r.read(d.pipX, out)
		return
	}
	clear(out)
	for i := 0; i < n; i++ {
		copy(d.views.pip, d.pipX)
		if i > 0 {
			transformPlanes(d.views.pip, d.pipSide, d.pipPlanes, viewOrder[i])
		}
		r.read(d.views.pip, d.views.pipP[:])
		for k, v := range d.views.pipP {
			out[k] += v / float32(n)
		}
	}
}
