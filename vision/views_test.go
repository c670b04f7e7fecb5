package vision

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// With all eight views, a reading is the mean over the whole group of
// symmetries, so turning or mirroring the input first must not change it
// (up to rounding); with one view it generally does. This fails if a view
// repeats or misses a symmetry, or if the views of the height input do not
// turn every level together.
func TestEightViewsReadTheSameWhateverTheTurn(t *testing.T) {
	d := NewDetector(Options{Views: Views{Height: 8, HeightBelow: 1, Material: 8, Pips: 8}})
	defer d.Close()
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 4; trial++ {
		pip := make([]float32, d.pipSide*d.pipSide)
		cell := make([]float32, CellInputs)
		for i := range pip {
			pip[i] = float32(rng.NormFloat64())
		}
		for i := range cell {
			cell[i] = float32(rng.Float64())
		}
		copy(d.pipX, pip)
		d.readPips()
		want := append([]float32(nil), d.pipP...)
		copy(d.cellX, cell)
		d.readHeight()
		wantH := append([]float32(nil), d.heightP...)
		var q [TopClasses]float32
		wantM := append([]float32(nil), d.readMaterial(cell[:TopInputs], &q)...)
		wantQ := q

		for k := 1; k < 8; k++ {
			copy(d.pipX, pip)
			tmp := make([]float32, len(pip))
			transformPatch(d.pipX, tmp, d.pipSide, 1, k)
			d.readPips()
			assert.InDeltaSlice(t, want, d.pipP, 1e-5, "pips, symmetry %d", k)

			copy(d.cellX, cell)
			for h := 0; h < MaxStack; h++ {
				turnTop(d.cellX[h*TopInputs:(h+1)*TopInputs], k)
			}
			d.readHeight()
			assert.InDeltaSlice(t, wantH, d.heightP, 1e-5, "height, symmetry %d", k)

			top := append([]float32(nil), cell[:TopInputs]...)
			turnTop(top, k)
			gotM := d.readMaterial(top, &q)
			assert.InDeltaSlice(t, wantM, gotM, 1e-5, "material CNN, symmetry %d", k)
			assert.InDeltaSlice(t, wantQ[:], q[:], 1e-5, "top network, symmetry %d", k)
		}
	}

	// one view: the networks are not exactly invariant, so a turn shows
	one := NewDetector(Options{})
	defer one.Close()
	pip := make([]float32, one.pipSide*one.pipSide)
	for i := range pip {
		pip[i] = float32(rng.NormFloat64())
	}
	copy(one.pipX, pip)
	one.readPips()
	plain := append([]float32(nil), one.pipP...)
	transformPatch(one.pipX, make([]float32, len(pip)), one.pipSide, 1, 1)
	one.readPips()
	var diff float32
	for k := range plain {
		diff = max(diff, abs32(plain[k]-one.pipP[k]))
	}
	assert.Greater(t, diff, float32(1e-4), "a single view is not invariant, so the test above can tell")
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

func TestViewsValidate(t *testing.T) {
	require.NoError(t, Views{}.Validate())
	require.NoError(t, Views{Height: 4, Material: 8, Pips: 2, HeightBelow: 0.9}.Validate())
	for _, v := range []Views{{Height: 3}, {Material: 16}, {Pips: -1}, {HeightBelow: -0.5}} {
		assert.Error(t, v.Validate(), "%+v", v)
	}
	assert.Equal(t, DefaultViews, Views{}.withDefaults())
}

// A pip CNN that reads a larger patch sets the side the detector samples
// the face at: the detector reads a still with it, in one view and in
// several, and the training features come at the side asked for.
func TestPipNetworkOfAnotherSide(t *testing.T) {
	const side = 24
	rng := rand.New(rand.NewPCG(9, 10))
	n, err := cnn.New(cnn.Arch{InC: 1, Side: side, Convs: []int{4, 8}, Hidden: 8, Classes: 6}, rng)
	require.NoError(t, err)
	b, err := n.MarshalBinary()
	require.NoError(t, err)
	dir := t.TempDir()
	pips := filepath.Join(dir, "pips.cnn")
	require.NoError(t, os.WriteFile(pips, b, 0o644))
	top := filepath.Join(dir, "top.mlp")
	require.NoError(t, os.WriteFile(top, builtinTop, 0o644))

	truth, err := os.ReadFile(filepath.Join(corpus, "still_0007.json"))
	require.NoError(t, err)
	cam, err := ParseTruthCamera(truth)
	require.NoError(t, err)
	for _, views := range []int{1, 8} {
		d := NewDetector(Options{Views: Views{Pips: views}})
		require.NoError(t, d.UseNetworkFiles(top, pips))
		assert.Equal(t, side, d.pipSide)
		assert.Len(t, d.pipX, side*side)
		res, err := d.DetectFile(filepath.Join(corpus, "still_0007.jpg"), cam)
		require.NoError(t, err)
		read := 0
		for _, c := range res.Cards {
			for _, row := range c.Cells {
				for _, cell := range row {
					if cell != nil && !cell.Occluded {
						assert.True(t, cell.Pips >= 1 && cell.Pips <= 6)
						read++
					}
				}
			}
		}
		assert.Positive(t, read, "stacks read with the %dx%d pip network", side, side)
		d.Close()
	}

	d := NewDetector(Options{Classical: true, PipSide: side})
	defer d.Close()
	cells, err := d.TrainingCells(filepath.Join(corpus, "still_0007.json"))
	require.NoError(t, err)
	require.NotEmpty(t, cells)
	assert.Len(t, cells[0].Pips[0], side*side)

	// AugmentPips turns a patch of that side as a permutation of its points
	x := make([]float32, side*side)
	for i := range x {
		x[i] = float32(i)
	}
	AugmentPips(x, rng)
	seen := map[float32]bool{}
	for _, v := range x {
		seen[v] = true
	}
	assert.Len(t, seen, side*side)
	assert.Equal(t, 0, PipSideOf(side*side+1))
}

// A pip file holding an ensemble of CNNs is read as their mean.
func TestPipEnsembleIsTheMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var nets []*cnn.Net
	for k := 0; k < 2; k++ {
		n, err := cnn.New(cnn.Arch{InC: 1, Side: 24, Convs: []int{4, 8}, Hidden: 8, Classes: 6}, rng)
		require.NoError(t, err)
		nets = append(nets, n)
	}
	b, err := cnn.MarshalEnsemble(nets)
	require.NoError(t, err)
	p, err := decodePipNet(b)
	require.NoError(t, err)
	require.Len(t, p.cnn, 2)
	r, side, _, err := p.reader()
	require.NoError(t, err)
	assert.Equal(t, 24, side)
	x := make([]float32, side*side)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	got := make([]float32, 6)
	r.read(x, got)
	want := make([]float32, 6)
	for _, n := range nets {
		ws := n.NewWorkspace()
		require.NoError(t, ws.Forward(x))
		for k, v := range ws.Prob {
			want[k] += v / 2
		}
	}
	assert.InDeltaSlice(t, want, got, 1e-6)
	var sum float32
	for _, v := range got {
		sum += v
	}
	assert.InDelta(t, 1, sum, 1e-5)
}
