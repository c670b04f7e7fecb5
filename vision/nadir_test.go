package vision

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// A cell straight under the camera is under it; one a hand's width away,
// where a stack's top slides a tenth of a face per die and more, is not.
func TestUnderCamera(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	cam := downCamera()
	m := cardmodel.Default()
	eye := cam.Center()
	cu, cv := m.CellCenter(1, 0)
	for _, tc := range []struct {
		off  float64 // mm from the nadir along x
		want bool
	}{{0, true}, {20, true}, {80, false}, {200, false}} {
		// a card turned square whose cell (1, 0) lies off mm from the nadir
		p := cardPose{origin: Vec3{X: eye.X + tc.off - cu, Y: eye.Y - cv}, u: Vec3{X: 1}, v: Vec3{Y: 1}}
		du, dv, size := d.levelSlide(cam, p, cu, cv, m.CardThickness)
		require.Positive(t, size)
		assert.Equal(t, tc.want, d.underCamera(cam, p, 1, 0), "%v mm off: slide %.3f faces per die", tc.off, math.Hypot(du, dv))
	}
}

// A card's slide (Card.SlidePx) is the least and greatest distance its
// cells' top faces move per die: for a camera looking straight down from
// Z, fx·r·(1/(Z-t-Die) - 1/(Z-t)) for a cell r mm from the nadir on a
// card t thick.
func TestCardSlide(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	cam := downCamera()
	m := cardmodel.Default()
	eye := cam.Center()
	for _, off := range []float64{0, 150, 300} {
		// a card turned square, its printed top-left corner off mm from the nadir along x
		p := cardPose{origin: Vec3{X: eye.X + off, Y: eye.Y}, u: Vec3{X: 1}, v: Vec3{Y: 1}}
		lo, hi := math.Inf(1), 0.0
		for r := 0; r < m.Rows; r++ {
			for col := 0; col < m.Cols; col++ {
				cu, cv := m.CellCenter(r, col)
				dist := math.Hypot(off+cu, cv)
				s := cam.Fx * dist * (1/(eye.Z-m.CardThickness-m.Die) - 1/(eye.Z-m.CardThickness))
				lo, hi = min(lo, s), max(hi, s)
			}
		}
		got := d.cardSlide(cam, p)
		assert.InDelta(t, lo, got[0], 1e-6, "%v mm out: least", off)
		assert.InDelta(t, hi, got[1], 1e-6, "%v mm out: greatest", off)
		assert.Less(t, got[0], got[1], "%v mm out: the cells lie at different distances", off)
	}
	// 180 mm out, 600 mm under this camera, a card lies where stacks read
	// best (6-12 px per die)
	far := d.cardSlide(cam, cardPose{origin: Vec3{X: eye.X + 180, Y: eye.Y}, u: Vec3{X: 1}, v: Vec3{Y: 1}})
	assert.Greater(t, far[0], 6.0)
	assert.Less(t, far[1], 12.0)
	// a card the camera cannot see (the table behind it): zeros
	behind := cam
	behind.T[2] = -600
	assert.Equal(t, [2]float64{}, d.cardSlide(behind, cardPose{origin: Vec3{X: 100}, u: Vec3{X: 1}, v: Vec3{Y: 1}}))
}

// The nadir height CNNs (height_nadir.cnn) read the heights of the cells
// under the camera only (from faces sampled as NadirFaceSuper says); one
// that reads another input is refused.
func TestNadirHeightFiles(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.heightNadir, "no height_nadir.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0022" // two stacks under the camera
	_, plain := detectStill(t, d, stillDir, still)
	cam := stillCamera(t, stillDir, still)

	nadir := filepath.Join(dir, "height_nadir.cnn")
	hc, err := builtinModelFS.ReadFile("model/height.cnn")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(nadir, hc, 0o644))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.Len(t, d.heightNadir, 2)

	rng := rand.New(rand.NewPCG(7, 8))
	writeCNN(t, nadir, cnn.Arch{InC: 1, Side: faceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "nadir height CNN takes 1x")

	// a network sure that every cell holds a stack six high
	writeCNN(t, nadir, cnn.Arch{InC: HeightCNNChannels, Side: faceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, 6)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	_, res := detectStill(t, d, stillDir, still)
	under := readUnderCamera(t, d, cam, plain, res, 6)
	assert.Positive(t, under, "the still has cells under the camera")

	// A nadir network of a finer face patch (24 points square) reads the
	// same cells, and only them; a side that cannot be pooled is refused.
	writeCNN(t, nadir, cnn.Arch{InC: HeightCNNChannels, Side: 24, Convs: []int{4, 4}, Hidden: 4, Classes: HeightClasses}, rng, 5)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.Len(t, d.nadirFine, 1)
	require.Equal(t, 24, d.nadirFine[0].side)
	_, res = detectStill(t, d, stillDir, still)
	assert.Equal(t, under, readUnderCamera(t, d, cam, plain, res, 5))

	// Networks of two finer sides in one file read together: one sure of
	// 3, one of 4 at side 16, one of 4 at side 24 read the same cells 4
	// high (their mean probabilities: 1/3 for 3, 2/3 for 4).
	var nets []*cnn.Net
	readNet := func(a cnn.Arch, sure int) { nets = append(nets, sureNet(t, a, rng, sure)) }
	writeNets := func() { writeEnsemble(t, nadir, nets) }
	for _, n := range []struct{ side, sure int }{{24, 3}, {16, 4}, {24, 4}} {
		readNet(cnn.Arch{InC: HeightCNNChannels, Side: n.side, Convs: []int{4, 4}, Hidden: 4, Classes: HeightClasses}, n.sure)
	}
	writeNets()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.Len(t, d.heightNadir, 3)
	require.Len(t, d.nadirFine, 2, "two sides, two groups")
	assert.Equal(t, []int{24, 16}, []int{d.nadirFine[0].side, d.nadirFine[1].side})
	_, res = detectStill(t, d, stillDir, still)
	assert.Equal(t, under, readUnderCamera(t, d, cam, plain, res, 4))
	// and a network of the level inputs' side may not join finer ones
	readNet(cnn.Arch{InC: HeightCNNChannels, Side: faceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, 6)
	writeNets()
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "or all of 12")
	writeCNN(t, nadir, cnn.Arch{InC: HeightCNNChannels, Side: 36, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, 5)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "nadir height CNN takes 12x36x36")
	require.NoError(t, os.Remove(nadir))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.nadirFine, "no nadir networks: no fine planes")
}

// A nadir CNN's finer face planes hold the same points as the level
// inputs' supersampled faces, binned finer: each 2x2 block of the
// 24-side brightness plane averages to the 12-side face's sample there.
func TestNadirPlanesBinFiner(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	const stillDir, still = "testdata/synth/stills", "still_0022"
	_, res := detectStill(t, d, stillDir, still)
	cam := stillCamera(t, stillDir, still)
	require.NotEmpty(t, res.Cards)
	c := res.Cards[0]
	bg := &d.cardReads[0].bg
	var shares [MaxStack + 2]float64
	x := make([]float32, TopInputs)
	fine := make([]float32, NadirPlanesLen(24))
	d.nadirPlanes(cam, c.pose, bg, 1, 0, 24, fine)
	d.SetFaceSupersampling(NadirFaceSuper)
	defer d.SetFaceSupersampling(1)
	for h := 1; h <= MaxStack; h++ {
		d.topFeatures(cam, c.pose, bg, 1, 0, h, &shares, x)
		lum := fine[2*(h-1)*576 : (2*h-1)*576]
		for i := 0; i < faceSide; i++ {
			for j := 0; j < faceSide; j++ {
				b, g, r := x[3*(i*faceSide+j)], x[3*(i*faceSide+j)+1], x[3*(i*faceSide+j)+2]
				want := (b + g + r) / 3
				got := (lum[2*i*24+2*j] + lum[2*i*24+2*j+1] + lum[(2*i+1)*24+2*j] + lum[(2*i+1)*24+2*j+1]) / 4
				require.InDelta(t, want, got, 1e-3, "level %d sample (%d, %d)", h, i, j)
			}
		}
	}
	assert.ErrorContains(t, d.SetNadirTraining(25, 0.3), "nadir face side 25")
}

// readUnderCamera checks that res reads every cell not under the camera as
// plain does, and every stack under it as the nadir network sure of
// height want says; it returns how many cells lie under the camera.
func readUnderCamera(t *testing.T, d *Detector, cam Camera, plain, res Result, want int) int {
	t.Helper()
	require.Len(t, res.Cards, len(plain.Cards))
	under := 0
	for i, c := range res.Cards {
		for r := range c.Cells {
			for col, cell := range c.Cells[r] {
				if !d.underCamera(cam, c.pose, r, col) {
					assert.Equal(t, plain.Cards[i].Cells[r][col], cell, "card %d r%dc%d: not under the camera, read as before", i, r, col)
					continue
				}
				under++
				if assert.NotNil(t, cell, "card %d r%dc%d", i, r, col) && !cell.Occluded {
					assert.Equal(t, want, cell.Height, "card %d r%dc%d: under the camera, read by the nadir network", i, r, col)
				}
			}
		}
	}
	return under
}

// Detect marks the cards with cells under the camera: in still_0022 seat
// 1's, which two stacks stand on, and no other.
func TestCardUnderCamera(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	_, res := detectStill(t, d, "testdata/synth/stills", "still_0022")
	under := map[int]bool{}
	for _, c := range res.Cards {
		if c.UnderCamera {
			under[c.Seat] = true
		}
	}
	assert.Equal(t, map[int]bool{1: true}, under)
	_, res = detectStill(t, d, "testdata/synth/stills", "still_0007")
	for _, c := range res.Cards {
		assert.False(t, c.UnderCamera, "still_0007 seat %d", c.Seat)
	}
}

// Under the camera a face one die higher is only a little larger. Face
// patch samples averaged over their squares (SetFaceSupersampling) grow
// with every quarter pixel a bright square on a dark table grows by,
// where samples taken at one point each stay the same over some steps.
func TestFaceSupersampling(t *testing.T) {
	const w, h = 200, 200
	d := NewDetector(Options{})
	defer d.Close()
	m := cardmodel.Default()
	cam := Camera{Fx: 1000, Fy: 1000, Cx: 99.5, Cy: 99.5,
		R: [3][3]float64{{1, 0, 0}, {0, -1, 0}, {0, 0, -1}}, T: [3]float64{0, 0, 600}}
	cu, cv := m.CellCenter(1, 0)
	p := cardPose{origin: Vec3{X: -cu, Y: -cv}, u: Vec3{X: 1}, v: Vec3{Y: 1}} // cell (1, 0) under the camera
	bg := &background{}
	bg.setGains([3]float64{1, 1, 1}, 255)
	var shares [MaxStack + 2]float64
	x := make([]float32, TopInputs)
	// faceSum is the sum of the face patch's blue channel at level 1
	// over a frame showing a square side px wide, anti-aliased.
	faceSum := func(side float64, super int) float64 {
		bgr := make([]uint8, w*h*3)
		lo, hi := 99.5-side/2, 99.5+side/2
		cover := func(i int) float64 { // of pixel i's [i-0.5, i+0.5]
			return math.Max(0, math.Min(hi, float64(i)+0.5)-math.Max(lo, float64(i)-0.5))
		}
		for y := 0; y < h; y++ {
			for xx := 0; xx < w; xx++ {
				v := uint8(math.Round(255 * cover(xx) * cover(y)))
				bgr[(y*w+xx)*3], bgr[(y*w+xx)*3+1], bgr[(y*w+xx)*3+2] = v, v, v
			}
		}
		d.img = frame{w: w, h: h, bgr: bgr}
		d.SetFaceSupersampling(super)
		d.topFeatures(cam, p, bg, 1, 0, 1, &shares, x)
		s := 0.0
		for i := 0; i < faceLen; i += 3 {
			s += float64(x[i])
		}
		return s
	}
	flat := 0
	prevPoint, prevSuper := -1.0, -1.0
	for side := 30.0; side <= 34; side += 0.25 {
		point, super := faceSum(side, 1), faceSum(side, NadirFaceSuper)
		if side > 30 {
			assert.Greater(t, super, prevSuper+0.05, "a %.2f px square: averaged samples grow", side)
			if point <= prevPoint+1e-6 {
				flat++
			}
		}
		prevPoint, prevSuper = point, super
	}
	assert.Positive(t, flat, "samples taken at a point miss some quarter-pixel steps")
	d.SetFaceSupersampling(0)
}

// A training cell's Slide is how far its top slides per die at level 1,
// as the detector measures it; with supersampled faces the training cells
// differ only in their face patches, and those have the same mean light.
func TestTrainingCellsSlideAndSupersampling(t *testing.T) {
	d, _, last, plain := trainingCellsAsFound(t)
	defer d.Close()
	data, err := os.ReadFile(last)
	require.NoError(t, err)
	cam, err := ParseTruthCamera(data)
	require.NoError(t, err)
	var tr truthFile
	require.NoError(t, jsonUnmarshal(data, &tr))
	res, err := d.DetectFile(filepath.Join(filepath.Dir(last), tr.Image), cam)
	require.NoError(t, err)
	m := d.opts.Model
	for _, c := range plain {
		var pose *cardPose
		for i := range res.Cards {
			if res.Cards[i].Seat == c.Seat {
				pose = &res.Cards[i].pose
			}
		}
		require.NotNil(t, pose, "seat %d found", c.Seat)
		cu, cv := m.CellCenter(c.Row, c.Col)
		du, dv, _ := d.levelSlide(cam, *pose, cu, cv, m.CardThickness+m.Die)
		assert.InDelta(t, math.Hypot(du, dv), c.Slide(), 1e-5, "seat %d r%dc%d", c.Seat, c.Row+1, c.Col+1)
	}
	d.SetFaceSupersampling(NadirFaceSuper)
	super, err := d.TrainingCells(last)
	d.SetFaceSupersampling(1)
	require.NoError(t, err)
	require.Len(t, super, len(plain))
	for i := range plain {
		a, b := plain[i].Top[2], super[i].Top[2]
		assert.Equal(t, a[faceLen:], b[faceLen:], "only the face patch changes")
		assert.NotEqual(t, a[:faceLen], b[:faceLen])
		var sa, sb float64
		for k := 0; k < faceLen; k++ {
			sa, sb = sa+float64(a[k]), sb+float64(b[k])
		}
		assert.InDelta(t, sa/faceLen, sb/faceLen, 0.05, "seat %d r%dc%d: the same light on average", plain[i].Seat, plain[i].Row+1, plain[i].Col+1)
	}
}

// The nadir pip network (pips_nadir.cnn, built in since the twenty-fourth
// session) reads the pips of the stacks under the camera, in place of the
// pip networks, and of no other stack; one that reads another patch is
// refused.
func TestNadirPipFiles(t *testing.T) {
	builtin := NewDetector(Options{})
	assert.NotNil(t, builtin.nadirPips, "built in: model/pips_nadir.cnn")
	require.NoError(t, builtin.Close())
	dir, top, pips := builtinModelDir(t)
	hn, err := builtinModelFS.ReadFile("model/height_nadir.cnn")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "height_nadir.cnn"), hn, 0o644))
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.nadirPips, "no pips_nadir.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0022" // two stacks under the camera
	_, plain := detectStill(t, d, stillDir, still)
	cam := stillCamera(t, stillDir, still)

	nadir := filepath.Join(dir, "pips_nadir.cnn")
	rng := rand.New(rand.NewPCG(9, 10))
	writeCNN(t, nadir, cnn.Arch{InC: 1, Side: 16, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "nadir pip network reads 1x16x16 patches")

	// a network sure that every top shows six pips
	writeCNN(t, nadir, cnn.Arch{InC: 1, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, 5)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.NotNil(t, d.nadirPips)
	_, res := detectStill(t, d, stillDir, still)
	require.Len(t, res.Cards, len(plain.Cards))
	under := 0
	for i, c := range res.Cards {
		for r := range c.Cells {
			for col, cell := range c.Cells[r] {
				was := plain.Cards[i].Cells[r][col]
				if !d.underCamera(cam, c.pose, r, col) {
					assert.Equal(t, was, cell, "card %d r%dc%d: not under the camera, read as before", i, r, col)
					continue
				}
				if was == nil || was.Occluded {
					assert.Equal(t, was, cell, "card %d r%dc%d: no stack read, none now", i, r, col)
					continue
				}
				under++
				if assert.NotNil(t, cell, "card %d r%dc%d", i, r, col) {
					assert.Equal(t, 6, cell.Pips, "card %d r%dc%d: under the camera, pips from the nadir network", i, r, col)
					assert.Equal(t, was.Height, cell.Height, "card %d r%dc%d: height as before", i, r, col)
					assert.Equal(t, was.Material, cell.Material, "card %d r%dc%d: material as before", i, r, col)
				}
			}
		}
	}
	assert.Equal(t, 2, under, "the still's two stacks under the camera")
}

// stillCamera is the camera of a committed still's truth file.
func stillCamera(t *testing.T, dir, still string) Camera {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, still+".json"))
	require.NoError(t, err)
	cam, err := ParseTruthCamera(data)
	require.NoError(t, err)
	return cam
}
