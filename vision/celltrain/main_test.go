package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/blueprints-companion/blueprints/vision"
	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
)

// The networks train side by side, yet each file must depend only on the
// data and the seed, not on how many trained at once.
func TestTrainingDoesNotDependOnJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains five small networks twice")
	}
	files := map[string][]byte{}
	for _, jobs := range []string{"1", "3"} {
		dir := t.TempDir()
		out := func(name string) string { return filepath.Join(dir, name) }
		err := run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-epochs", "1",
			"-hidden", "8", "-height-hidden", "8", "-pip-convs", "4,8", "-pip-cnn-hidden", "8",
			"-height-convs", "4,8", "-height-cnn-hidden", "8", "-height-members", "2",
			"-train", "top,pips,height,height-cnn", "-jobs", jobs,
			"-out-top", out("top.mlp"), "-out-pips", out("pips.cnn"), "-out-height", out("height.mlp"), "-out-height-cnn", out("height.cnn")})
		require.NoError(t, err)
		for _, name := range []string{"top.mlp", "pips.cnn", "height.mlp", "height2.mlp", "height.cnn"} {
			b, err := os.ReadFile(out(name))
			require.NoError(t, err, "-jobs %s wrote no %s", jobs, name)
			if prev, ok := files[name]; ok {
				assert.Equal(t, prev, b, "%s differs between -jobs 1 and -jobs %s", name, jobs)
			}
			files[name] = b
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-data", "x", "-train", "top,legs"},
		{"-data", "x", "-height-members", "-1"},
	} {
		assert.Error(t, run(args), "%q", args)
	}
	assert.ErrorContains(t, run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-pip-convs", "4,x"}), "conv widths")
	assert.ErrorContains(t, run([]string{"-data", "x", "-face-super", "0"}), "-face-super 0")
	assert.ErrorContains(t, run([]string{"-data", "x", "-max-slide", "-0.1"}), "-max-slide -0.1")
	assert.ErrorContains(t, run([]string{"-data", "x", "-max-slide", "NaN"}), "-max-slide NaN")
	assert.ErrorContains(t, run([]string{"-data", "x", "-pip-shift", "5"}), "-pip-shift 5")
	assert.ErrorContains(t, run([]string{"-data", "x", "-pip-noise", "NaN"}), "-pip-noise NaN")
	assert.ErrorContains(t, run([]string{"-data", "x", "-pip-dropout", "1"}), "-pip-dropout 1")
	assert.ErrorContains(t, run([]string{"-data", "x", "-nadir-side", "24"}), "give -max-slide")
	assert.ErrorContains(t, run([]string{"-data", "x", "-nadir-side", "23", "-max-slide", "0.3"}), "-nadir-side 23")
	for _, dir := range []string{"../testdata/synth/stills", "../testdata/synth-mistakes"} {
		assert.ErrorContains(t, run([]string{"-data", dir, "-eval", "-out-pips", "../model/pips.cnn"}), "not training data", "%s: measured by the corpus tests", dir)
	}
}

// The train/validation split must not depend on how the data folder is
// spelled: relative, absolute, or with "./" and "..".
func TestSplitKeyIgnoresSpelling(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel := "build/synth-train/1001/stills/still_0001.json"
	for _, p := range []string{rel, "./" + rel, filepath.Join(wd, rel), filepath.Join("..", filepath.Base(wd), rel)} {
		assert.Equal(t, rel, splitKey(p), "%s", p)
	}
	assert.NotEqual(t, splitKey(rel), splitKey("build/synth-train/1001/stills/still_0002.json"))
}

// Sequences only train; stills split by their path's hash, about the share
// asked for; and the training cells are measured as found, not jittered.
func TestSplitAndAsFound(t *testing.T) {
	assert.False(t, isValidation("vision/testdata/synth/sequences/round1_p1/frame_000.json", 1))
	assert.True(t, isValidation("build/synth-train/1001/stills/still_0001.json", 1))
	assert.False(t, isValidation("build/synth-train/1001/stills/still_0001.json", 0))
	n := 0
	for i := 0; i < 2000; i++ {
		if isValidation(fmt.Sprintf("build/synth-train/1001/stills/still_%04d.json", i), 0.15) {
			n++
		}
	}
	assert.InDelta(t, 300, n, 60, "15 %% of 2,000 stills")
	cells := []vision.CellSample{{Row: 0}, {Row: 0, Jittered: true}, {Row: 1}}
	assert.Equal(t, []vision.CellSample{{Row: 0}, {Row: 1}}, asFound(cells))
}

func TestBadPipMaterial(t *testing.T) {
	for _, m := range []string{"Q", "GW", "g"} {
		err := run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-pip-material", m, "-train", "pips"})
		require.Error(t, err, m)
		assert.Contains(t, err.Error(), "-pip-material")
	}
}

// trainCNNFrom starts from the given network's weights (no epochs: a copy
// of it) and refuses one of another architecture.
func TestTrainCNNFrom(t *testing.T) {
	arch := cnn.Arch{InC: 1, Side: 8, Convs: []int{4}, Hidden: 8, Classes: 6}
	from, err := cnn.New(arch, rand.New(rand.NewPCG(3, 4)))
	require.NoError(t, err)
	want, err := from.MarshalBinary()
	require.NoError(t, err)
	got, err := trainCNNFrom("t", nil, arch, from, prepPips, 0, 1e-3, 9, 0, time.Now())
	require.NoError(t, err)
	b, err := got.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, want, b, "no epochs: the network started from")
	fresh, err := trainCNN("t", nil, arch, prepPips, 0, 1e-3, 9, time.Now())
	require.NoError(t, err)
	fb, err := fresh.MarshalBinary()
	require.NoError(t, err)
	assert.NotEqual(t, want, fb, "without it: random weights of its own seed")
	other := arch
	other.Hidden = 16
	_, err = trainCNNFrom("t", nil, other, from, prepPips, 0, 1e-3, 9, 0, time.Now())
	assert.ErrorContains(t, err, "start from")
}

// -height-from and -material-from start the CNNs they train from a file's
// networks (each height CNN from the member of the same index): with no
// epochs the file written is the file read, an epoch from it moves it, and
// a file that cannot serve (too few members, another architecture, none
// there) is refused by name.
func TestStartFrom(t *testing.T) {
	for _, tc := range []struct {
		name, from, out string
		train           []string
		bad             [][2]string // a flag and value that make the file unfit, and the error's words
	}{
		{"height", "-height-from", "-out-height-cnn",
			[]string{"-height-convs", "4,8", "-height-cnn-hidden", "8", "-height-cnn-members", "2", "-train", "height-cnn"},
			[][2]string{{"-height-cnn-members=3", "-height-from"}}},
		{"material", "-material-from", "-out-material-cnn",
			[]string{"-material-convs", "4,8", "-material-cnn-hidden", "8", "-train", "material-cnn"},
			[][2]string{{"-material-cnn-hidden=16", "start from"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := func(name string) string { return filepath.Join(dir, name) }
			args := func(epochs string, extra ...string) []string {
				a := []string{"-data", "../testdata/synth/sequences/round1_p1", "-epochs", epochs, "-height-members", "0",
					"-out-top", "../model/top.mlp", "-out-pips", "../model/pips.cnn"}
				return append(append(a, tc.train...), extra...)
			}
			require.NoError(t, run(args("1", tc.out, out("a.cnn"))))
			require.NoError(t, run(args("0", tc.from, out("a.cnn"), tc.out, out("b.cnn"))))
			a, err := os.ReadFile(out("a.cnn"))
			require.NoError(t, err)
			b, err := os.ReadFile(out("b.cnn"))
			require.NoError(t, err)
			assert.Equal(t, a, b, "no epochs: the networks started from")
			require.NoError(t, run(args("1", tc.from, out("a.cnn"), tc.out, out("c.cnn"))))
			c, err := os.ReadFile(out("c.cnn"))
			require.NoError(t, err)
			assert.NotEqual(t, a, c, "an epoch from them moves them")
			for _, bad := range tc.bad {
				err = run(args("0", tc.from, out("a.cnn"), tc.out, out("d.cnn"), bad[0]))
				assert.ErrorContains(t, err, bad[1], bad[0])
			}
			err = run(args("0", tc.from, out("missing.cnn"), tc.out, out("e.cnn")))
			assert.ErrorContains(t, err, "missing.cnn")
		})
	}
}

// -nadir-side trains height CNNs that read the cells' finer face planes
// (vision.CellSample.Nadir): the file holds networks of that side, which
// measure reads from the same planes.
func TestNadirSide(t *testing.T) {
	out := filepath.Join(t.TempDir(), "height_nadir.cnn")
	err := run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-epochs", "1",
		"-nadir-side", "16", "-max-slide", "1", "-height-convs", "4,8", "-height-cnn-hidden", "8",
		"-height-members", "0", "-out-height", "", "-train", "height-cnn", "-out-height-cnn", out,
		"-out-top", "../model/top.mlp", "-out-pips", "../model/pips.cnn"})
	require.NoError(t, err)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	nets, err := cnn.UnmarshalAll(b)
	require.NoError(t, err)
	require.Len(t, nets, 1)
	a := nets[0].Arch
	assert.Equal(t, 16, a.Side)
	assert.Equal(t, vision.HeightCNNChannels, a.InC)
	assert.Equal(t, vision.NadirPlanesLen(16), nets[0].InputLen())
}

// -height-from a file of nadir networks of several sides (as
// height_nadir.cnn is) starts from those of the side trained, in their
// order, and refuses a file with none of that side by name.
func TestStartFromMixedSides(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	arch := func(side int) cnn.Arch {
		return cnn.Arch{InC: vision.HeightCNNChannels, Side: side, Convs: []int{4, 8}, Hidden: 8, Classes: vision.HeightClasses}
	}
	var nets []*cnn.Net
	for _, side := range []int{24, 16, 24} {
		n, err := cnn.New(arch(side), rng)
		require.NoError(t, err)
		nets = append(nets, n)
	}
	mixed, err := cnn.MarshalEnsemble(nets)
	require.NoError(t, err)
	from := filepath.Join(dir, "mixed.cnn")
	require.NoError(t, os.WriteFile(from, mixed, 0o644))
	train := func(side, members int, out string) error {
		return run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-epochs", "0",
			"-nadir-side", fmt.Sprint(side), "-max-slide", "1", "-height-convs", "4,8", "-height-cnn-hidden", "8",
			"-height-cnn-members", fmt.Sprint(members), "-height-from", from,
			"-height-members", "0", "-out-height", "", "-train", "height-cnn", "-out-height-cnn", out,
			"-out-top", "../model/top.mlp", "-out-pips", "../model/pips.cnn"})
	}
	out := filepath.Join(dir, "out.cnn")
	require.NoError(t, train(24, 2, out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := cnn.MarshalEnsemble([]*cnn.Net{nets[0], nets[2]})
	require.NoError(t, err)
	assert.Equal(t, want, got, "the side-24 networks, no epochs: as they were")
	require.NoError(t, train(16, 1, out))
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	want, err = cnn.MarshalEnsemble(nets[1:2])
	require.NoError(t, err)
	assert.Equal(t, want, got, "the side-16 one")
	assert.ErrorContains(t, train(16, 2, out), "holds 1 networks, 2 are to be trained")
	assert.ErrorContains(t, train(20, 1, out), "holds no network of side 20")
}

// shiftPlanes moves every plane alike, repeating the edge; pipPrep with
// no shift and no noise is prepPips, and with them changes a patch by at
// most a shift and the noise asked for.
func TestPipPrepShiftAndNoise(t *testing.T) {
	const side = 4
	src := make([]float32, 2*side*side)
	for i := range src {
		src[i] = float32(i)
	}
	dst := make([]float32, len(src))
	shiftPlanes(dst, src, side, 2, 1, 0) // one sample right
	for p := 0; p < 2; p++ {
		for i := 0; i < side; i++ {
			row := dst[p*16+i*side : p*16+(i+1)*side]
			want := []float32{src[p*16+i*side], src[p*16+i*side], src[p*16+i*side+1], src[p*16+i*side+2]}
			assert.Equal(t, want, row, "plane %d row %d", p, i)
		}
	}
	shiftPlanes(dst, src, side, 2, 0, -1) // one sample up
	assert.Equal(t, src[side:2*side], dst[:side], "the first row is the second")
	assert.Equal(t, src[3*side:4*side], dst[3*side:4*side], "the last row repeated")

	// a 32x32 patch: shifted copies keep the values, noise moves them
	x := make([]float32, 32*32)
	for i := range x {
		x[i] = float32(i % 7)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([]float32, len(x))
	prep := pipPrep(2, 0)
	moved := false
	for range 20 {
		prep(out, x, rng)
		var s, s0 float64
		for i := range out {
			s += float64(out[i])
			s0 += float64(x[i])
			if out[i] < 0 || out[i] > 6 || out[i] != float32(int(out[i])) {
				t.Fatalf("shift made value %v, not one of the patch's", out[i])
			}
		}
		if s != s0 {
			moved = true
		}
	}
	assert.True(t, moved, "some shift moves the patch off its sum")
	// a flat patch: no symmetry or shift changes it, the noise does
	flat := make([]float32, 32*32)
	for i := range flat {
		flat[i] = 1
	}
	pipPrep(1, 0)(out, flat, rng)
	assert.Equal(t, flat, out, "a shift leaves a flat patch flat")
	pipPrep(0, 0.1)(out, flat, rng)
	var d2 float64
	for i := range out {
		d2 += float64(out[i]-1) * float64(out[i]-1)
	}
	assert.InDelta(t, 0.1, math.Sqrt(d2/float64(len(out))), 0.01, "noise of deviation 0.1")
}

// Each clear glass top the bench scores (a hand over less than
// vision.HandCovered of it, other dice less than vision.HiddenByDice) is
// learned from three times by the glass levels network (read a level low,
// at and a level high, off the six levels not), with its true height's
// offset and value; other cells not at all.
func TestGlassLevelSamples(t *testing.T) {
	patch := func(v float32) []float32 { return []float32{v, v} }
	var pips [vision.MaxStack][]float32
	for k := range pips {
		pips[k] = patch(float32(k + 1))
	}
	glass := vision.CellSample{Height: 1, Material: 'G', PipsTop: 4, Pips: pips}
	tall := glass
	tall.Height, tall.PipsTop = 3, 6
	cells := []vision.CellSample{glass, tall,
		{Height: 2, Material: 'W', PipsTop: 4, Pips: pips},              // not glass
		{Height: 2, Material: 'G', PipsTop: 4, Pips: pips, Hand: 0.3},   // a hand over it
		{Height: 2, Material: 'G', PipsTop: 4, Pips: pips, Hidden: 0.6}, // other dice hide it
		{Height: 2, Material: 'G', PipsTop: 4, Pips: pips, Jittered: true},
		{Height: 0, Pips: pips}, // empty
		{Height: 2, Material: 'G', PipsTop: 3, Pips: pips, Hand: 0.1}, // a hand over a little of it: scored, so learned
	}
	s := glassLevelSamples(cells)
	require.Len(t, s, 2+3+3)
	assert.Equal(t, vision.GlassLevelsClass(2, 3, 3), s[7].Class)
	// the one-high G4 read one and two high
	assert.Equal(t, vision.GlassLevelsClass(1, 4, 1), s[0].Class)
	assert.Equal(t, []float32{0, 0, 1, 1, 2, 2}, s[0].X)
	assert.Equal(t, 3, s[1].Class, "read a level high: the first third, value 4")
	// the three-high G6 read two, three and four high
	assert.Equal(t, []int{6 + 6 + 5, 6 + 5, 5}, []int{s[2].Class, s[3].Class, s[4].Class})
	assert.Equal(t, []float32{3, 3, 4, 4, 5, 5}, s[4].X)
}

// -train glass-levels writes a network that reads three planes of the pip
// networks' patch to 18 classes.
func TestTrainGlassLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a small network")
	}
	out := filepath.Join(t.TempDir(), "glass_levels.cnn")
	require.NoError(t, run([]string{"-data", "../testdata/synth/sequences/round1_p1", "-epochs", "1",
		"-train", "glass-levels", "-glass-levels-convs", "4,8", "-glass-levels-hidden", "8",
		"-out-pips", "../model/pips.cnn", "-out-top", "../model/top.mlp", "-height-members", "0", "-out-height", "",
		"-out-glass-levels", out}))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	n, err := cnn.Unmarshal(b)
	require.NoError(t, err)
	pips, err := os.ReadFile("../model/pips.cnn")
	require.NoError(t, err)
	pn, err := cnn.UnmarshalAll(pips)
	require.NoError(t, err)
	assert.Equal(t, 3*pn[0].Arch.InC, n.Arch.InC)
	assert.Equal(t, pn[0].Arch.Side, n.Arch.Side)
	assert.Equal(t, vision.GlassLevelsClasses, n.Arch.Classes)
}
