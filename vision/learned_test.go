package vision

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/cardmodel"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/mlp"
)

func TestDihedralIsTheSquaresEightSymmetries(t *testing.T) {
	seen := map[[2]float64]bool{}
	for k := 0; k < 8; k++ {
		x, y := dihedral(k, 1, 2)
		seen[[2]float64{x, y}] = true
		// every symmetry keeps lengths
		assert.InDelta(t, math.Hypot(1, 2), math.Hypot(x, y), 1e-12)
	}
	assert.Len(t, seen, 8, "eight different images of (1, 2)")
	// a patch transformed is a permutation of its pixels
	for k := 0; k < 8; k++ {
		p := make([]float32, 5*5)
		for i := range p {
			p[i] = float32(i)
		}
		transformPatch(p, make([]float32, len(p)), 5, 1, k)
		got := map[float32]bool{}
		for _, v := range p {
			got[v] = true
		}
		assert.Len(t, got, 25, "symmetry %d loses no pixel", k)
	}
}

// AugmentTop must turn the patches and the slide direction together: a
// bright pixel placed on the face patch in the slide's direction stays in
// the slide's direction whatever symmetry is drawn.
func TestAugmentTopTurnsPatchesAndSlideTogether(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		x := make([]float32, TopInputs)
		// marker at column 10, row 3 of the 12x12 face patch: offset
		// (+4.5, -2.5) from the centre; the slide points the same way
		j, i := 10, 3
		x[(i*faceSide+j)*3] = 1
		o := faceLen + ctxLen + MaxStack + 1
		c := float64(faceSide-1) / 2
		x[o], x[o+1] = float32((float64(j)-c)/10), float32((float64(i)-c)/10)
		AugmentTop(x, rng)
		var mi, mj int
		found := 0
		for k := 0; k < faceSide*faceSide; k++ {
			if x[3*k] == 1 {
				mi, mj = k/faceSide, k%faceSide
				found++
			}
		}
		require.Equal(t, 1, found)
		assert.InDelta(t, (float64(mj)-c)/10, float64(x[o]), 1e-6)
		assert.InDelta(t, (float64(mi)-c)/10, float64(x[o+1]), 1e-6)
	}
}

func TestBuiltinNetworksFitTheReader(t *testing.T) {
	nets, err := builtinNetworks()
	require.NoError(t, err)
	assert.Equal(t, TopInputs, nets.top.Inputs())
	assert.Equal(t, TopClasses, nets.top.Outputs())
	_, side, planes, err := nets.pips.reader()
	assert.NoError(t, err)
	assert.GreaterOrEqual(t, side, 4)
	assert.LessOrEqual(t, side, MaxPipSide)
	assert.True(t, planes == 1 || planes == 2, "pip planes %d", planes)
	assert.True(t, len(nets.height) > 0 || len(nets.heightCNN) > 0, "some height network is built in")
	for _, hc := range nets.heightCNN {
		assert.Equal(t, HeightCNNChannels, hc.Arch.InC)
		assert.Equal(t, HeightClasses, hc.Arch.Classes)
	}
	d := newDetector(Options{})
	defer d.Close()
	assert.NoError(t, d.useFineHeights(nets.heightFine), "the built-in fine height CNNs, if any, fit their reader")
	for _, h := range nets.height {
		assert.Equal(t, CellInputs, h.Inputs())
		assert.Equal(t, HeightClasses, h.Outputs())
	}
	assert.Equal(t, "dir/height.mlp", HeightMemberPath("dir/height.mlp", 0))
	assert.Equal(t, "dir/height3.mlp", HeightMemberPath("dir/height.mlp", 2))
}

// A pip network of the wrong shape is refused, whichever kind it is, and
// a CNN of the right shape is taken.
// pipNetFor is a pip model file of a fresh CNN of architecture a, decoded.
func pipNetFor(t *testing.T, a cnn.Arch, rng *rand.Rand) pipNet {
	t.Helper()
	n, err := cnn.New(a, rng)
	require.NoError(t, err)
	b, err := n.MarshalBinary()
	require.NoError(t, err)
	p, err := decodePipNet(b)
	require.NoError(t, err)
	return p
}

func TestPipNetworkShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, a := range []cnn.Arch{
		{InC: MaxPipPlanes + 1, Side: PipSide, Convs: []int{4}, Hidden: 4, Classes: 6},
		{InC: 1, Side: MaxPipSide * 2, Convs: []int{4}, Hidden: 4, Classes: 6},
		{InC: 1, Side: PipSide, Convs: []int{4}, Hidden: 4, Classes: 5},
	} {
		_, _, _, err := pipNetFor(t, a, rng).reader()
		assert.ErrorContains(t, err, "pip CNN takes", "%+v", a)
	}
	r, side, _, err := pipNetFor(t, cnn.Arch{InC: 1, Side: PipSide, Convs: []int{4, 8}, Hidden: 8, Classes: 6}, rng).reader()
	require.NoError(t, err)
	assert.Equal(t, PipSide, side)
	out := make([]float32, 6)
	r.read(make([]float32, PipInputs), out)
	var sum float32
	for _, v := range out {
		sum += v
	}
	assert.InDelta(t, 1, sum, 1e-5, "the CNN's probabilities")
	// every plane count up to MaxPipPlanes is taken, and said
	_, side, planes, err := pipNetFor(t, cnn.Arch{InC: MaxPipPlanes, Side: PipSide, Convs: []int{4}, Hidden: 4, Classes: 6}, rng).reader()
	require.NoError(t, err)
	assert.Equal(t, [2]int{PipSide, MaxPipPlanes}, [2]int{side, planes})
	small, _ := mlp.New([]int{PipInputs, 4, 5}, 1)
	b, _ := small.MarshalBinary()
	p, err := decodePipNet(b)
	require.NoError(t, err)
	_, _, _, err = p.reader()
	assert.ErrorContains(t, err, "pip network takes")
	_, err = decodePipNet([]byte(cnn.Magic + "junk"))
	assert.ErrorIs(t, err, cnn.ErrFormat)
}

func TestUseNetworkFilesRejectsBadFiles(t *testing.T) {
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.mlp")
	require.NoError(t, os.WriteFile(garbage, []byte("not a network"), 0o644))
	small, _ := mlp.New([]int{3, 4, 2}, 1)
	b, _ := small.MarshalBinary()
	wrong := filepath.Join(dir, "wrong.mlp")
	require.NoError(t, os.WriteFile(wrong, b, 0o644))

	err := d.UseNetworkFiles(filepath.Join(dir, "missing.mlp"), garbage)
	assert.ErrorIs(t, err, os.ErrNotExist)
	err = d.UseNetworkFiles(garbage, garbage)
	assert.ErrorIs(t, err, mlp.ErrFormat)
	assert.ErrorContains(t, err, "garbage.mlp")
	err = d.UseNetworkFiles(wrong, wrong)
	assert.ErrorContains(t, err, "top network takes 3 inputs")
	assert.Nil(t, d.top, "a refused network is not used")
}

// TrainingCells must pair each cell's features with that cell's truth.
func TestTrainingCellsFollowTheTruth(t *testing.T) {
	const seq = "testdata/synth/sequences/round2_p2"
	files, _ := filepath.Glob(filepath.Join(seq, "frame_*.json"))
	require.NotEmpty(t, files)
	last := files[len(files)-1] // the round built: most cells occupied
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	cells, err := d.TrainingCells(last)
	require.NoError(t, err)
	require.NotEmpty(t, cells)
	var truth truthFile
	data, _ := os.ReadFile(last)
	require.NoError(t, jsonUnmarshal(data, &truth))
	occupied := 0
	for _, c := range cells {
		var building [][]string
		for _, tc := range truth.Cards {
			if tc.Seat == c.Seat {
				building = tc.Building
			}
		}
		require.NotNil(t, building, "seat %d is in the truth", c.Seat)
		dice := strings.Fields(building[c.Row][c.Col])
		assert.Equal(t, len(dice), c.Height, "seat %d r%dc%d", c.Seat, c.Row+1, c.Col+1)
		if c.Height > 0 {
			occupied++
			top := dice[len(dice)-1]
			assert.Equal(t, top[0], c.Material)
			assert.Equal(t, int(top[1]-'0'), c.PipsTop)
			assert.Equal(t, 1+strings.IndexByte(topMaterials, c.Material), c.TopClass(c.Height))
		}
		for h := 1; h <= MaxStack; h++ {
			assert.Len(t, c.Top[h-1], TopInputs)
			assert.Len(t, c.Pips[h-1], PipInputs)
			if h != c.Height && c.Hand == 0 {
				assert.Zero(t, c.TopClass(h))
			}
		}
	}
	assert.GreaterOrEqual(t, occupied, 4, "two players' buildings")
	_, err = d.TrainingCells(filepath.Join(t.TempDir(), "none.json"))
	assert.Error(t, err)
}

// trainingCellsAsFound reads the training cells of a committed sequence's
// last frame with no jitter: the detector (to close), the sequence's
// frames, the last one, and its cells.
func trainingCellsAsFound(t *testing.T) (*Detector, []string, string, []CellSample) {
	t.Helper()
	const seq = "testdata/synth/sequences/round2_p2"
	files, _ := filepath.Glob(filepath.Join(seq, "frame_*.json"))
	require.Greater(t, len(files), 1)
	last := files[len(files)-1]
	d := NewDetector(Options{Classical: true})
	plain, err := d.TrainingCells(last)
	if err != nil || len(plain) == 0 {
		d.Close()
		t.Fatalf("%s: %v, %d cells", last, err, len(plain))
	}
	return d, files, last, plain
}

// With a training jitter, every cell comes twice: as found, then read at
// a jittered pose with the same truth and other features; the same seed
// jitters an image the same way even after other images were read.
func TestTrainingCellsJittered(t *testing.T) {
	d, files, last, plain := trainingCellsAsFound(t)
	defer d.Close()
	d.SetTrainingJitter(1, 0, 5)
	cells, err := d.TrainingCells(last)
	require.NoError(t, err)
	require.Len(t, cells, 2*len(plain))
	for i := range plain {
		a, b := cells[2*i], cells[2*i+1]
		assert.False(t, a.Jittered)
		assert.True(t, b.Jittered)
		assert.Equal(t, plain[i].Top, a.Top, "the cell as found is read as without jitter")
		assert.Equal(t, [9]any{a.Image, a.Seat, a.Row, a.Col, a.Height, a.Material, a.PipsTop, a.Hand, a.Hidden}, [9]any{b.Image, b.Seat, b.Row, b.Col, b.Height, b.Material, b.PipsTop, b.Hand, b.Hidden})
		assert.NotEqual(t, a.Pips[0], b.Pips[0], "the pip patches are read at the jittered pose too")
		assert.NotEqual(t, a.Top[0], b.Top[0], "seat %d r%dc%d: the jittered copy samples elsewhere", a.Seat, a.Row+1, a.Col+1)
	}
	_, err = d.TrainingCells(files[0])
	require.NoError(t, err)
	again, err := d.TrainingCells(last)
	require.NoError(t, err)
	assert.Equal(t, cells, again)
	d.SetTrainingJitter(0, 0, 0)
	none, err := d.TrainingCells(last)
	require.NoError(t, err)
	assert.Equal(t, plain, none)
}

// A training pip turn turns only the pip patches, differently for each,
// the same way for an image whatever was read before; the top features and
// the truth stay as found.
func TestTrainingPipTurn(t *testing.T) {
	d, files, last, plain := trainingCellsAsFound(t)
	defer d.Close()
	d.SetTrainingJitter(0, 15, 5)
	turned, err := d.TrainingCells(last)
	require.NoError(t, err)
	require.Len(t, turned, len(plain))
	changed := 0
	for i := range plain {
		assert.Equal(t, plain[i].Top, turned[i].Top, "top features as found")
		assert.Equal(t, plain[i].Height, turned[i].Height)
		assert.False(t, turned[i].Jittered)
		for h := range plain[i].Pips {
			if !assert.ObjectsAreEqual(plain[i].Pips[h], turned[i].Pips[h]) {
				changed++
			}
		}
	}
	assert.Greater(t, changed, len(plain)*MaxStack*9/10, "nearly every pip patch is turned")
	_, err = d.TrainingCells(files[0])
	require.NoError(t, err)
	again, err := d.TrainingCells(last)
	require.NoError(t, err)
	assert.Equal(t, turned, again)
}

func TestPipFeaturesAreNormalised(t *testing.T) {
	x := []float32{10, 10, 10, 30}
	normalise(x)
	var s float32
	for _, v := range x {
		s += v
	}
	assert.InDelta(t, 0, s, 1e-5)
	assert.InDelta(t, math.Sqrt(3), float64(x[3]), 1e-5)
	flat := []float32{5, 5, 5}
	normalise(flat)
	assert.Equal(t, []float32{0, 0, 0}, flat, "a flat patch stays flat")
}

// BenchmarkDetectClassical is BenchmarkDetect with the hand-written cell
// reader, to show what the networks cost.
func BenchmarkDetectClassical(b *testing.B) {
	path, cam := fourCardFrame(b)
	img := gocv.IMRead(path, gocv.IMReadColor)
	defer img.Close()
	d := NewDetector(Options{Classical: true})
	defer d.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Detect(img, cam); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecideCell(t *testing.T) {
	var p [MaxStack][TopClasses]float32
	none := func() {
		for h := range p {
			p[h] = [TopClasses]float32{}
			p[h][0] = 1
		}
	}
	none()
	d := DecideCell(&p)
	assert.Zero(t, d.Height, "nothing anywhere: empty")
	assert.False(t, d.Occluded)
	assert.InDelta(t, 1, d.Confidence, 1e-9)

	// a green top face believed at level 3, a little at level 4
	none()
	p[2] = [TopClasses]float32{0.2, 0.05, 0.7, 0.05, 0, 0}
	p[3] = [TopClasses]float32{0.7, 0, 0.3, 0, 0, 0}
	d = DecideCell(&p)
	assert.Equal(t, 3, d.Height)
	assert.Equal(t, byte('R'), d.Material)
	assert.InDelta(t, 0.8/1.1, d.HeightConf, 1e-6)

	// belief split over two levels still makes the cell occupied
	none()
	p[0] = [TopClasses]float32{0.6, 0.4, 0, 0, 0, 0}
	p[1] = [TopClasses]float32{0.55, 0.45, 0, 0, 0, 0}
	d = DecideCell(&p)
	assert.Equal(t, 2, d.Height, "0.4 + 0.45 > 1/2: occupied, at the likelier level")
	assert.Equal(t, byte('W'), d.Material)

	// a hand over every level
	for h := range p {
		p[h] = [TopClasses]float32{0.2, 0, 0, 0, 0, 0.8}
	}
	d = DecideCell(&p)
	assert.True(t, d.Occluded)
	assert.InDelta(t, 0.8, d.Confidence, 1e-6)
}

func TestDecideHeight(t *testing.T) {
	p := make([]float32, HeightClasses)
	p[4] = 0.9
	p[0] = 0.1
	d := DecideHeight(p)
	assert.Equal(t, 4, d.Height)
	assert.InDelta(t, 0.9, d.Confidence, 1e-6)
	var q [TopClasses]float32
	q[4] = 0.6 // G
	q[3] = 0.2
	d.setMaterial(&q)
	assert.Equal(t, byte('G'), d.Material)
	assert.InDelta(t, 0.75, d.Confidence, 1e-6, "material share among the materials")
	p[HeightHand] = 0.95
	assert.True(t, DecideHeight(p).Occluded)
	p[HeightHand], p[4], p[0] = 0, 0, 1
	assert.Zero(t, DecideHeight(p).Height)
}

// A model folder with several height networks and an ensemble file of
// height CNNs is read as one ensemble; a height CNN of the wrong shape is
// refused.
func TestUseNetworkFilesTakesAHeightEnsemble(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	top := write("top.mlp", builtinTop)
	pips := write("pips.bin", builtinPips)
	for k := 0; k < 2; k++ {
		n, err := mlp.New([]int{CellInputs, 4, HeightClasses}, uint64(k+1))
		require.NoError(t, err)
		b, err := n.MarshalBinary()
		require.NoError(t, err)
		write(filepath.Base(HeightMemberPath("height.mlp", k)), b)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var hcs []*cnn.Net
	for k := 0; k < 2; k++ {
		hc, err := cnn.New(cnn.Arch{InC: HeightCNNChannels, Side: FaceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng)
		require.NoError(t, err)
		hcs = append(hcs, hc)
	}
	writeEnsemble(t, filepath.Join(dir, "height.cnn"), hcs)

	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Len(t, d.height, 2)
	assert.Len(t, d.heightCNN, 2, "both height CNNs of the ensemble file")
	truth, err := os.ReadFile(filepath.Join(corpus, "still_0000.json"))
	require.NoError(t, err)
	cam, err := ParseTruthCamera(truth)
	require.NoError(t, err)
	res, err := d.DetectFile(filepath.Join(corpus, "still_0000.jpg"), cam)
	require.NoError(t, err)
	assert.NotEmpty(t, res.Cards)
	var sum float32
	for _, v := range d.heightP {
		sum += v
	}
	assert.InDelta(t, 1, sum, 1e-4, "the ensemble's mean probabilities")

	bad, err := cnn.New(cnn.Arch{InC: 3, Side: FaceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng)
	require.NoError(t, err)
	b, err := bad.MarshalBinary()
	require.NoError(t, err)
	write("height.cnn", b)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "height CNN takes 3x")
}

// A material CNN beside the networks is used, one of the wrong shape is
// refused, and the built-in one fits.
func TestMaterialCNNFiles(t *testing.T) {
	nets, err := builtinNetworks()
	require.NoError(t, err)
	require.NotNil(t, nets.material, "a material CNN is built in")
	dir := t.TempDir()
	top := filepath.Join(dir, "top.mlp")
	pips := filepath.Join(dir, "pips.cnn")
	require.NoError(t, os.WriteFile(top, builtinTop, 0o644))
	require.NoError(t, os.WriteFile(pips, builtinPips, 0o644))
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.materialCNN, "no material.cnn in the folder: the top network alone")
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		a    cnn.Arch
		want string
	}{
		{cnn.Arch{InC: 3, Side: FaceSide, Convs: []int{4}, Hidden: 4, Classes: 4}, ""},
		{cnn.Arch{InC: 1, Side: FaceSide, Convs: []int{4}, Hidden: 4, Classes: 4}, "material CNN takes 1x"},
		{cnn.Arch{InC: 3, Side: FaceSide, Convs: []int{4}, Hidden: 4, Classes: 6}, "to 6 classes"},
	} {
		n, err := cnn.New(c.a, rng)
		require.NoError(t, err)
		b, err := n.MarshalBinary()
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "material.cnn"), b, 0o644))
		err = d.UseNetworkFiles(top, pips)
		if c.want == "" {
			require.NoError(t, err)
			assert.NotNil(t, d.materialCNN)
		} else {
			assert.ErrorContains(t, err, c.want)
		}
	}
}

// Two reads whose top faces fall on one place cannot both stand: the less
// sure one gives up its height and chooses again from the rest of its
// probabilities (here: empty, or a lower height), and faces apart stay.
func TestSettleClashes(t *testing.T) {
	// read i's face at height h lies at (0, 30i + 10h), 20 px wide: read 0
	// five high and read 1 two high both at (0, 50)
	faceOf := func(i, h int) (x, y, size float64, ok bool) {
		return 0, float64(30*i + 10*h), 20, true
	}
	read := func(p ...float32) *cellRead {
		r := &cellRead{}
		copy(r.p[:], p)
		r.dec = DecideHeight(r.p[:])
		return r
	}
	// the short read is the less sure: it becomes empty
	tall := read(0.02, 0, 0, 0, 0.03, 0.9, 0.05, 0)
	short := read(0.3, 0, 0.6, 0.1, 0, 0, 0, 0)
	require.Equal(t, 5, tall.dec.Height)
	require.Equal(t, 2, short.dec.Height)
	settleClashes([]*cellRead{tall, short}, faceOf)
	assert.Equal(t, 5, tall.dec.Height)
	assert.Equal(t, 0, short.dec.Height, "the less sure read of the one face")

	// the tall read is the less sure: it takes its next height, which
	// clashes with nothing
	tall = read(0.02, 0, 0, 0.4, 0.03, 0.5, 0.05, 0)
	short = read(0.1, 0, 0.9, 0, 0, 0, 0, 0)
	settleClashes([]*cellRead{tall, short}, faceOf)
	assert.Equal(t, 3, tall.dec.Height)
	assert.Equal(t, 2, short.dec.Height)

	// the pair is weighed with each read's next choice: the tall read is
	// a little less sure (0.64 against 0.66), but its cell is less likely
	// empty (0.15) than the short read's (0.19), so the short one gives
	// way — P(tall)·P(short empty) 0.122 > P(short)·P(tall empty) 0.099
	// (fresh 2109 still_0171, seat 3; the less sure read gave way until
	// the forty-first session)
	tall = read(0.15, 0.03, 0.04, 0.06, 0.64, 0.03, 0.02, 0.03)
	short = read(0.19, 0.66, 0.04, 0.02, 0.03, 0.01, 0.01, 0.04)
	require.Equal(t, 4, tall.dec.Height)
	require.Equal(t, 1, short.dec.Height)
	tall4 := func(i, h int) (x, y, size float64, ok bool) {
		if i == 0 {
			return 0, float64(10 * h), 20, true // four high at (0, 40)
		}
		return 0, float64(30 + 10*h), 20, true // one high at (0, 40)
	}
	settleClashes([]*cellRead{tall, short}, tall4)
	assert.Equal(t, 4, tall.dec.Height)
	assert.Equal(t, 0, short.dec.Height, "the read whose loss leaves the likelier pair")
	// and the other way round, the order of the reads aside
	tall = read(0.15, 0.03, 0.04, 0.06, 0.64, 0.03, 0.02, 0.03)
	short = read(0.19, 0.66, 0.04, 0.02, 0.03, 0.01, 0.01, 0.04)
	settleClashes([]*cellRead{short, tall}, func(i, h int) (x, y, size float64, ok bool) { return tall4(1-i, h) })
	assert.Equal(t, 4, tall.dec.Height)
	assert.Equal(t, 0, short.dec.Height)

	// a read that gives way and whose next choice is a stack less than
	// clashWeak likely reads empty (fresh 2111 still_0180, seat 0: a
	// five-high read over an empty cell gave way to the three-high stack
	// beside it and chose two high, 0.16 sure, over empty, 0.13)
	tall = read(0.02, 0, 0, 0.9, 0, 0.05, 0, 0.03)
	weak := read(0.13, 0.04, 0.16, 0.09, 0.03, 0.45, 0.02, 0.07)
	require.Equal(t, 5, weak.dec.Height)
	// read 0 three high and read 1 five high both at (0, 30)
	both30 := func(i, h int) (x, y, size float64, ok bool) {
		if i == 0 {
			return 0, float64(10 * h), 20, true
		}
		return 0, float64(6 * h), 20, true
	}
	settleClashes([]*cellRead{tall, weak}, both30)
	assert.Equal(t, 3, tall.dec.Height)
	assert.Equal(t, 0, weak.dec.Height, "a next choice 0.16 likely is no stack")
	assert.False(t, weak.dec.Occluded)
	// one whose next choice is clashWeak likely or more takes it
	tall = read(0.02, 0, 0, 0.9, 0, 0.05, 0, 0.03)
	weak = read(0.08, 0.04, 0.27, 0.09, 0.03, 0.45, 0.02, 0.02)
	settleClashes([]*cellRead{tall, weak}, both30)
	assert.Equal(t, 2, weak.dec.Height, "a next choice 0.27 likely stands")
	// one whose next choice is weak but empty far less likely (under
	// clashEmptyShare of it) keeps that stack (fresh 2200 still_0107's
	// S2 S3 G3: three high 0.17, empty 0.04)
	tall = read(0.02, 0, 0, 0.9, 0, 0.05, 0, 0.03)
	weak = read(0.04, 0.03, 0.06, 0.17, 0.07, 0.62, 0.01, 0)
	settleClashes([]*cellRead{tall, weak}, both30)
	assert.Equal(t, 3, weak.dec.Height, "a next choice 0.17 likely stands where empty is 0.04 likely")

	// faces a third of a face apart both stand
	a := read(0, 0, 0, 0, 0, 0.9, 0.1, 0)
	b := read(0.4, 0, 0.6, 0, 0, 0, 0, 0)
	settleClashes([]*cellRead{a, b}, func(i, h int) (x, y, size float64, ok bool) {
		return float64(7 * i), 0, 20, true
	})
	assert.Equal(t, 5, a.dec.Height)
	assert.Equal(t, 2, b.dec.Height)

	// a hand-covered cell clashes with nothing: the other read keeps its
	// height, however unsure
	hand := read(0, 0, 0, 0, 0, 0, 0, 0.9)
	require.True(t, hand.dec.Occluded)
	one := read(0.45, 0.55, 0, 0, 0, 0, 0, 0)
	settleClashes([]*cellRead{hand, one}, func(i, h int) (x, y, size float64, ok bool) { return 0, 0, 20, true })
	assert.True(t, hand.dec.Occluded)
	assert.Equal(t, 1, one.dec.Height)

	// a face at no number (a pose out of reach) clashes with nothing
	a = read(0, 0, 0, 0, 0, 0.9, 0.1, 0)
	b = read(0.4, 0, 0.6, 0, 0, 0, 0, 0)
	settleClashes([]*cellRead{a, b}, func(i, h int) (x, y, size float64, ok bool) {
		return math.NaN(), 0, 20, true
	})
	assert.Equal(t, 5, a.dec.Height)
	assert.Equal(t, 2, b.dec.Height)
}

// A jittered pose stays a card's pose (unit, square axes on the table),
// moves its centre by at most the jitter along each axis and turns it by at
// most the jitter; and the same seed jitters the same way.
func TestJitterPose(t *testing.T) {
	m := cardmodel.Default()
	p := poseFromRect(m, Vec3{100, 50, m.CardThickness}, Vec3{math.Cos(0.4), math.Sin(0.4), 0})
	centre := func(q cardPose) Vec3 { return q.at(m.CardWidth/2, m.CardHeight/2, m.CardThickness) }
	rng := rand.New(rand.NewPCG(3, 3))
	var moved bool
	for i := 0; i < 200; i++ {
		q := jitterPose(m, p, rng)
		assert.InDelta(t, 1, q.u.X*q.u.X+q.u.Y*q.u.Y, 1e-9)
		assert.InDelta(t, 0, q.u.X*q.v.X+q.u.Y*q.v.Y, 1e-9)
		assert.InDelta(t, q.u.X*q.v.Y-q.u.Y*q.v.X, p.u.X*p.v.Y-p.u.Y*p.v.X, 1e-9, "not mirrored")
		d := centre(q).Add(centre(p).Scale(-1))
		assert.LessOrEqual(t, math.Abs(d.X*p.u.X+d.Y*p.u.Y), jitterShiftMM+1e-9)
		assert.LessOrEqual(t, math.Abs(d.X*p.v.X+d.Y*p.v.Y), jitterShiftMM+1e-9)
		turn := math.Acos(math.Min(1, q.u.X*p.u.X+q.u.Y*p.u.Y)) * 180 / math.Pi
		assert.LessOrEqual(t, turn, jitterTurnDeg+1e-6)
		assert.Equal(t, p.origin.Z, q.origin.Z)
		moved = moved || math.Hypot(d.X, d.Y) > 0.5
	}
	assert.True(t, moved, "the jitter moves cards")
	a := jitterPose(m, p, rand.New(rand.NewPCG(9, 9)))
	b := jitterPose(m, p, rand.New(rand.NewPCG(9, 9)))
	assert.Equal(t, a, b)
}

// With two pip planes, each pip patch is the one-plane patch of its height
// followed by the same square 2/3 of a die lower (where a clear glass top
// shows its own bottom face).
func TestTrainingPipPlanes(t *testing.T) {
	d, _, last, plain := trainingCellsAsFound(t)
	defer d.Close()
	two := NewDetector(Options{Classical: true, PipPlanes: 2})
	defer two.Close()
	cells, err := two.TrainingCells(last)
	require.NoError(t, err)
	require.Len(t, cells, len(plain))
	n := d.pipSide * d.pipSide
	differ := 0
	for i := range plain {
		assert.Equal(t, plain[i].Top, cells[i].Top, "top features do not change")
		for h := 0; h < MaxStack; h++ {
			require.Len(t, cells[i].Pips[h], 2*n)
			assert.Equal(t, plain[i].Pips[h], cells[i].Pips[h][:n], "cell %d height %d: the first plane", i, h+1)
			if !assert.ObjectsAreEqual(cells[i].Pips[h][:n], cells[i].Pips[h][n:]) {
				differ++
			}
		}
	}
	assert.Greater(t, differ, len(plain)*MaxStack/2, "the second plane is another square")

	// the second plane is the square 2/3 of a die lower
	data, err := os.ReadFile(last)
	require.NoError(t, err)
	cam, err := ParseTruthCamera(data)
	require.NoError(t, err)
	img := gocv.IMRead(strings.TrimSuffix(last, ".json")+".jpg", gocv.IMReadColor)
	require.False(t, img.Empty())
	defer img.Close()
	two.img = newFrame(img)
	defer func() { two.img = frame{} }()
	m := two.opts.Model
	p := poseFromRect(m, Vec3{0, 0, m.CardThickness}, Vec3{1, 0, 0})
	x := make([]float32, 2*n)
	two.pipFeatures(cam, p, 1, 1, 3, x)
	want := make([]float32, n)
	cu, cv := m.CellCenter(1, 1)
	two.pipPlane(cam, p, cu, cv, m.CardThickness+(3-seenThrough)*m.Die, 0, false, want)
	assert.Equal(t, want, x[n:])

	// a third plane is the top face again, as whiteness: the first two
	// planes as before, the third normalised and not the grey one
	three := NewDetector(Options{Classical: true, PipPlanes: 3})
	defer three.Close()
	three.img = two.img
	defer func() { three.img = frame{} }()
	x3 := make([]float32, 3*n)
	three.pipFeatures(cam, p, 1, 1, 3, x3)
	assert.Equal(t, x, x3[:2*n])
	assert.NotEqual(t, x3[:n], x3[2*n:])
	var sum, sq float64
	for _, v := range x3[2*n:] {
		sum += float64(v)
		sq += float64(v) * float64(v)
	}
	assert.InDelta(t, 0, sum/float64(n), 1e-3)
	assert.LessOrEqual(t, sq/float64(n), 1+1e-3, "unit variance, or less where the patch is flat")
	white := make([]float32, n)
	three.pipPlane(cam, p, cu, cv, m.CardThickness+3*m.Die, 0, true, white)
	assert.Equal(t, white, x3[2*n:])
	g := three.img.white(100, 100)
	assert.InDelta(t, float64(g), three.img.whitenessAt(100, 100), 1e-9, "whitenessAt at a pixel is its whiteness")
}

// AugmentPips turns both planes of a two-plane patch alike, and knows the
// patch shapes it is given.
func TestAugmentPipsPlanes(t *testing.T) {
	side, planes := PipShapeOf(2 * 16 * 16)
	assert.Equal(t, [2]int{16, 2}, [2]int{side, planes})
	side, planes = PipShapeOf(32 * 32)
	assert.Equal(t, [2]int{32, 1}, [2]int{side, planes})
	side, planes = PipShapeOf(3 * 16 * 16)
	assert.Equal(t, [2]int{16, 3}, [2]int{side, planes})
	side, planes = PipShapeOf(4 * 16 * 16)
	assert.Equal(t, [2]int{32, 1}, [2]int{side, planes}, "four planes of 16 are one of 32")
	side, planes = PipShapeOf(5 * 16 * 16)
	assert.Equal(t, [2]int{0, 0}, [2]int{side, planes})
	const s = 8
	x := make([]float32, 2*s*s)
	for i := range x[:s*s] {
		x[i] = float32(i)
		x[s*s+i] = float32(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	moved := 0
	for k := 0; k < 16; k++ {
		before := append([]float32(nil), x[:s*s]...)
		AugmentPips(x, rng)
		assert.Equal(t, x[:s*s], x[s*s:], "the planes turn together")
		if !assert.ObjectsAreEqual(before, x[:s*s]) {
			moved++
		}
	}
	assert.Greater(t, moved, 8, "most draws change the patch")
	_, side, planes, err := pipNetFor(t, cnn.Arch{InC: 2, Side: 16, Convs: []int{4}, Hidden: 4, Classes: 6}, rng).reader()
	require.NoError(t, err)
	assert.Equal(t, [2]int{16, 2}, [2]int{side, planes})
}

// A pip network for glass tops beside the others (pips_glass.cnn) is read
// for the tops read as glass only, averaged with the others; one that reads
// another patch is refused; the same network as the others changes nothing.
func TestGlassPipFiles(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	// every member, as the glass pip network is read: otherwise the others
	// read only their first half where it is sure, and the same network
	// beside them moves a sure top's confidence
	d := NewDetector(Options{EveryMember: true})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.glassPips, "no pips_glass.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0274" // two glass tops
	_, plain := detectStill(t, d, stillDir, still)

	glass := filepath.Join(dir, "pips_glass.cnn")
	require.NoError(t, os.WriteFile(glass, builtinPips, 0o644))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.NotNil(t, d.glassPips)
	_, same := detectStill(t, d, stillDir, still)
	assert.Equal(t, plain, same, "the same network beside itself")

	rng := rand.New(rand.NewPCG(5, 6))
	writeCNN(t, glass, cnn.Arch{InC: 1, Side: 16, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "glass pip network reads 1x16x16")

	// a network that is sure every die shows 6 (its last layer's biases)
	writeCNN(t, glass, cnn.Arch{InC: 1, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, 5)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	_, res := detectStill(t, d, stillDir, still)
	eachGlassTop(t, plain, res, func(where string, was, cell *Cell) {
		assert.Equal(t, 6, cell.Pips, "%s: half the vote for 6 with everything", where)
	})
}

// eachGlassTop checks that res reads every cell as plain did but the tops
// it reads as clear glass (at least one), and calls check for each of
// those with what plain read there.
func eachGlassTop(t *testing.T, plain, res Result, check func(where string, was, cell *Cell)) {
	t.Helper()
	require.Len(t, res.Cards, len(plain.Cards))
	glassTops := 0
	for i, c := range res.Cards {
		for r := range c.Cells {
			for col, cell := range c.Cells[r] {
				was := plain.Cards[i].Cells[r][col]
				where := fmt.Sprintf("card %d r%dc%d", i, r, col)
				if cell == nil || cell.Occluded || cell.Material != 'G' {
					assert.Equal(t, was, cell, "%s: not a glass top, read as before", where)
					continue
				}
				glassTops++
				check(where, was, cell)
			}
		}
	}
	assert.Positive(t, glassTops)
}

// writeCNN writes a small CNN of architecture a, its weights drawn from
// rng, to path; with sure >= 0 its output biases make it sure of class
// sure whatever it reads.
func writeCNN(t *testing.T, path string, a cnn.Arch, rng *rand.Rand, sure int) {
	t.Helper()
	if sure < 0 {
		writeCNNSplit(t, path, a, rng)
		return
	}
	writeCNNSplit(t, path, a, rng, sure)
}

// writeCNNSplit writes a small CNN of architecture a, its weights drawn
// from rng, to path, whose output biases split it evenly between the
// classes given whatever it reads (none: its outputs are as drawn).
func writeCNNSplit(t *testing.T, path string, a cnn.Arch, rng *rand.Rand, classes ...int) {
	t.Helper()
	n, err := cnn.New(a, rng)
	require.NoError(t, err)
	b, err := n.MarshalBinary()
	require.NoError(t, err)
	if len(classes) > 0 {
		bias := make([]float32, a.Classes)
		for k := range bias {
			bias[k] = -20
		}
		for _, k := range classes {
			bias[k] = 20
		}
		b = withOutputBias(b, bias)
	}
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// sureNet is a random CNN of arch a whose outputs are sure of class sure
// (as writeCNN writes it).
func sureNet(t *testing.T, a cnn.Arch, rng *rand.Rand, sure int) *cnn.Net {
	t.Helper()
	path := filepath.Join(t.TempDir(), "net.cnn")
	writeCNN(t, path, a, rng, sure)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	n, err := cnn.Unmarshal(b)
	require.NoError(t, err)
	return n
}

// writeEnsemble writes nets as one ensemble file at path.
func writeEnsemble(t *testing.T, path string, nets []*cnn.Net) {
	t.Helper()
	b, err := cnn.MarshalEnsemble(nets)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// builtinModelDir writes the built-in networks' files into a new folder,
// for UseNetworkFiles; it returns the folder and the top and pip files.
func builtinModelDir(t *testing.T) (dir, top, pips string) {
	dir = t.TempDir()
	top = filepath.Join(dir, "top.mlp")
	pips = filepath.Join(dir, "pips.cnn")
	require.NoError(t, os.WriteFile(top, builtinTop, 0o644))
	require.NoError(t, os.WriteFile(pips, builtinPips, 0o644))
	for _, name := range []string{"height.cnn", "material.cnn"} {
		b, err := builtinModelFS.ReadFile("model/" + name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	return dir, top, pips
}

// The glass pip network is read in as many views as the others: once per
// view for each top read as glass and for each face pipsAt reads at some
// level (as for a glass top), and beside itself it changes nothing.
func TestGlassPipsReadInTheViews(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	for _, views := range []int{1, 2, 4} {
		d := NewDetector(Options{Views: Views{Pips: views}, EveryMember: true}) // every member, as in TestGlassPipFiles
		require.NoError(t, d.UseNetworkFiles(top, pips))
		const stillDir, still = "testdata/synth/stills", "still_0274" // two glass tops
		_, plain := detectStill(t, d, stillDir, still)
		glass := filepath.Join(dir, "pips_glass.cnn")
		require.NoError(t, os.WriteFile(glass, builtinPips, 0o644))
		require.NoError(t, d.UseNetworkFiles(top, pips))
		require.NoError(t, os.Remove(glass))
		counted := &countingPips{pipReader: d.glassPips}
		d.glassPips = counted
		d.facesRead = 0
		_, same := detectStill(t, d, stillDir, still)
		assert.Equal(t, plain, same, "%d views: the same network beside itself", views)
		glassTops := 0
		for _, c := range same.Cards {
			for _, row := range c.Cells {
				for _, cell := range row {
					if cell != nil && !cell.Occluded && cell.Material == 'G' {
						glassTops++
					}
				}
			}
		}
		require.Positive(t, glassTops)
		assert.Equal(t, views*(glassTops+d.facesRead), counted.reads, "%d views, %d glass tops, %d faces read by pipsAt", views, glassTops, d.facesRead)
		d.Close()
	}
}

// countingPips counts the reads of a pip network.
type countingPips struct {
	pipReader
	reads int
}

func (c *countingPips) read(x, out []float32) {
	c.reads++
	c.pipReader.read(x, out)
}

// withOutputBias rewrites a CNN file's output biases (its last values,
// before the checksum) and its checksum.
func withOutputBias(b []byte, bias []float32) []byte {
	b = append([]byte(nil), b[:len(b)-4]...)
	o := len(b) - 4*len(bias)
	for i, v := range bias {
		binary.LittleEndian.PutUint32(b[o+4*i:], math.Float32bits(v))
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// TestMemberByMemberSameSums: the height networks read over the cards'
// cells member by member (plainHeights) and the pip networks over their
// stacks' patches (readPipsAll) give each cell the bits one cell at a time
// gives (addHeight, readPips; the nadir pip network alone for the stacks
// under the camera), for the built-in networks and with the pips read in
// two views (one patch at a time then).
func TestMemberByMemberSameSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, views := range []Views{{}, {Pips: 2}} {
		d := NewDetector(Options{Views: views, EveryMember: true})
		require.Greater(t, len(d.heightCNN), 1, "the built-in height networks are an ensemble")
		require.NotEmpty(t, d.heightNadir, "the nadir height networks are built in")
		d.growCardReads(2)
		d.cardReads[1].under[1][0] = true // a cell under the camera: left alone
		d.cardReads[1].cells[1][0].p[0] = 42
		for i := range 2 {
			for r := range 3 {
				for c := range 2 {
					for k := range d.cardReads[i].cells[r][c].x {
						d.cardReads[i].cells[r][c].x[k] = rng.Float32() * 2
					}
				}
			}
		}
		d.plainHeights(2)
		for i := range 2 {
			for r := range 3 {
				for c := range 2 {
					cr := &d.cardReads[i].cells[r][c]
					if d.cardReads[i].under[r][c] {
						assert.Equal(t, float32(42), cr.p[0], "a skipped cell's reading is left alone")
						continue
					}
					clear(d.heightP)
					d.addHeight(cr.x, 1)
					for k := range d.heightP {
						require.Equal(t, math.Float32bits(d.heightP[k]), math.Float32bits(cr.p[k]), "card %d cell %d,%d class %d", i, r, c, k)
					}
				}
			}
		}
		d.growPips(9)
		for i := range d.pipXs {
			for j := range d.pipXs[i] {
				d.pipXs[i][j] = float32(rng.NormFloat64())
			}
		}
		require.NotNil(t, d.nadirPips, "the nadir pip network is built in")
		d.pipNadir[3], d.pipNadir[7] = true, true // stacks under the camera
		d.readPipsAll(9)
		for i := range 9 {
			copy(d.pipX, d.pipXs[i])
			if d.pipNadir[i] {
				d.readPipsWith(d.nadirPips, d.pipP) // the nadir network's reading alone
			} else {
				d.readPips()
			}
			for k := range d.pipP {
				require.Equal(t, math.Float32bits(d.pipP[k]), math.Float32bits(d.pipPs[i][k]), "views %+v, patch %d, class %d", views, i, k)
			}
		}
		d.Close()
	}
}

// TestSureOf: a first half's mean at ensembleSure or above is sure and
// stands for the ensemble (scaled from the sums divided by n); below, the
// sums are left as they are; a whole ensemble read is never sure.
func TestSureOf(t *testing.T) {
	p := []float32{0.01, ensembleSure/2 + 0.001, 0.02}
	require.True(t, sureOf(p, 2, 1))
	assert.InDelta(t, ensembleSure+0.002, p[1], 1e-6)
	assert.InDelta(t, 0.02, p[0], 1e-7)
	p = []float32{0.01, ensembleSure/2 + 0.001, 0.02}
	require.True(t, sureOf(p, 4, 2), "two of four members")
	assert.InDelta(t, ensembleSure+0.002, p[1], 1e-6)
	p = []float32{0.01, ensembleSure/4 + 0.001, 0.02}
	require.False(t, sureOf(p, 4, 2), "two of four members, their mean under")
	require.True(t, sureOf(p, 4, 1), "one of four members")
	assert.InDelta(t, ensembleSure+0.004, p[1], 1e-6)
	p = []float32{0.2, ensembleSure/2 - 0.001, 0.02}
	q := append([]float32(nil), p...)
	require.False(t, sureOf(p, 2, 1))
	assert.Equal(t, q, p, "an unsure first half's sums are left alone")
	p = []float32{0.99}
	require.False(t, sureOf(p, 2, 2), "every member read")
	d := NewDetector(Options{})
	assert.Equal(t, 1, d.firstMembers(2))
	assert.Equal(t, 2, d.firstMembers(4))
	assert.Equal(t, 1, d.firstMembers(1))
	d.Close()
	d = NewDetector(Options{EveryMember: true})
	assert.Equal(t, 4, d.firstMembers(4))
	d.Close()
}

// TestEnsembleSureSameReads: on every fifth bench still the detector reads
// every card, height, top and occlusion flag as it does with every member
// of the ensembles read, while the second height CNN was left out for
// most of the cells and the last two pip CNNs for most of the stacks.
func TestEnsembleSureSameReads(t *testing.T) {
	full := NewDetector(Options{EveryMember: true})
	defer full.Close()
	fast := NewDetector(Options{})
	defer fast.Close()
	cells, sureCells, stacks, sureStacks := 0, 0, 0, 0
	eachStill(t, 5, func(tr truthFile, img gocv.Mat, cam Camera) {
		a, err := full.Detect(img, cam)
		require.NoError(t, err)
		b, err := fast.Detect(img, cam)
		require.NoError(t, err)
		require.Equal(t, len(a.Cards), len(b.Cards), tr.Image)
		for c := range a.Cards {
			assert.Equal(t, a.Cards[c].Corners, b.Cards[c].Corners, "%s card %d", tr.Image, c)
			for r := range a.Cards[c].Cells {
				for k := range a.Cards[c].Cells[r] {
					x, y := a.Cards[c].Cells[r][k], b.Cards[c].Cells[r][k]
					if !assert.Equal(t, x == nil, y == nil, "%s card %d cell %d,%d", tr.Image, c, r, k) || x == nil {
						continue
					}
					assert.Equal(t, x.Height, y.Height, "%s card %d cell %d,%d", tr.Image, c, r, k)
					assert.Equal(t, x.Top, y.Top, "%s card %d cell %d,%d", tr.Image, c, r, k)
					assert.Equal(t, x.Occluded, y.Occluded, "%s card %d cell %d,%d", tr.Image, c, r, k)
				}
			}
		}
		for i := range fast.plainCells {
			cells++
			if fast.heightSure[i] {
				sureCells++
			}
		}
		for i := range fast.pipN {
			if !fast.pipNadir[i] {
				stacks++
			}
			if fast.pipSure[i] {
				sureStacks++
			}
		}
	})
	require.Greater(t, cells, 500)
	assert.Greater(t, sureCells, cells/2, "the second height CNN read for most cells")
	assert.Greater(t, sureStacks, stacks/2, "the last pip CNNs read for most stacks")
	t.Logf("second height CNN left out for %d of %d cells; last pip CNNs for %d of %d stacks", sureCells, cells, sureStacks, stacks)
}
