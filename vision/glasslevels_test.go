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

// The glass levels network's input is the pip patches at the levels below,
// at and above the read height, zeros off the six levels; its class is the
// true height's offset and the value.
func TestGlassLevelsInputAndClass(t *testing.T) {
	var pips [MaxStack][]float32
	for k := range pips {
		pips[k] = []float32{float32(k + 1), float32(k + 1)}
	}
	x := make([]float32, 6)
	GlassLevelsInput(&pips, 3, x)
	assert.Equal(t, []float32{2, 2, 3, 3, 4, 4}, x)
	GlassLevelsInput(&pips, 1, x)
	assert.Equal(t, []float32{0, 0, 1, 1, 2, 2}, x, "no level under the first")
	GlassLevelsInput(&pips, MaxStack, x)
	assert.Equal(t, []float32{5, 5, 6, 6, 0, 0}, x, "no level over the sixth")

	assert.Equal(t, 0, GlassLevelsClass(2, 1, 3), "a level low, value 1")
	assert.Equal(t, 6+4, GlassLevelsClass(3, 5, 3), "at the read height, value 5")
	assert.Equal(t, 17, GlassLevelsClass(4, 6, 3), "a level high, value 6")
	assert.Equal(t, -1, GlassLevelsClass(5, 6, 3), "two levels off")
	assert.Equal(t, -1, GlassLevelsClass(3, 7, 3), "no such value")
	assert.Equal(t, -1, GlassLevelsClass(3, 0, 3), "no such value")
}

// A glass levels network beside the model files (glass_levels.cnn) is
// read for the tops read as clear glass less than glassLevelsUnsure sure
// only: one sure of a value at the read height makes each such glass top
// that value, at that height, and changes no other cell; one of another
// shape is refused with a message that names it; none leaves the glass
// tops as the height and pip networks read them.
func TestGlassLevelsFile(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.glass, "no glass_levels.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0274" // two glass tops
	_, plain := detectStill(t, d, stillDir, still)

	path := filepath.Join(dir, "glass_levels.cnn")
	rng := rand.New(rand.NewPCG(3, 4))
	// sure of class 6+0: the true height is the one read, the value 1
	// (the still's glass tops are a G3 read 0.4 sure and a G6 read 0.95)
	writeCNN(t, path, cnn.Arch{InC: 3 * d.pipPlanes, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: GlassLevelsClasses}, rng, 6+0)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.NotNil(t, d.glass)
	_, res := detectStill(t, d, stillDir, still)
	unsure := 0
	eachGlassTop(t, plain, res, func(where string, was, cell *Cell) {
		require.NotNil(t, was, "%s: a glass top read before", where)
		if was.Confidence >= glassLevelsUnsure {
			assert.Equal(t, was, cell, "%s: read %.2f sure, not read by the network", where, was.Confidence)
			return
		}
		unsure++
		assert.Equal(t, was.Height, cell.Height, "%s: the height read", where)
		assert.Equal(t, 1, cell.Pips, "%s: the value the network is sure of", where)
	})
	assert.Positive(t, unsure, "a glass top read unsurely")

	// torn between the read height's values 1 and 5 (the two glass tops
	// are a G3 and a G6, which the pip networks read surely): neither
	// pair holds glassLevelsGate of the product, so the reads stay.
	writeCNNSplit(t, path, cnn.Arch{InC: 3 * d.pipPlanes, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: GlassLevelsClasses}, rng, 6+0, 6+4)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	_, res = detectStill(t, d, stillDir, still)
	eachGlassTop(t, plain, res, func(where string, was, cell *Cell) {
		assert.Equal(t, was, cell, "%s: a torn network leaves the read as it was", where)
	})

	writeCNN(t, path, cnn.Arch{InC: 1, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: GlassLevelsClasses}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "glass levels network reads 1 planes")
	writeCNN(t, path, cnn.Arch{InC: 3 * d.pipPlanes, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "to 6 classes")
	require.NoError(t, os.WriteFile(path, []byte("not a network"), 0o644))
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "glass_levels.cnn")
}

// TestGlassLevelsMendJudges pins two clear glass tops of the fifty-sixth
// session's judges (vision/testdata/stacks) that the height and pip
// networks misread and the built-in glass levels network, its pair
// holding more than glassLevelsGate of the product, reads right; with
// Options.NoGlassLevels they read as before it.
func TestGlassLevelsMendJudges(t *testing.T) {
	for _, c := range []struct {
		still          string
		seat, row, col int
		want           string
		height         int
		top            string
		// without the glass levels network
		oldHeight int
		oldTop    string
	}{
		// fresh 2195, still_0138, seat 0, row 1 column 1: a one-high G2
		// read two high G1, 0.44 sure.
		{"fresh2195_0138", 0, 0, 0, "G2", 1, "G2", 2, "G1"},
		// fresh 2200, still_0115, seat 1, row 1 column 1: S4 G5 S6 G6
		// read five high G1, 0.12 sure.
		{"fresh2200_0115", 1, 0, 0, "S4 G5 S6 G6", 4, "G6", 5, "G1"},
	} {
		t.Run(c.still, func(t *testing.T) {
			for _, off := range []bool{false, true} {
				cell := pinnedStack(t, Options{NoGlassLevels: off}, c.still, c.seat, c.row, c.col, c.want)
				height, top := c.height, c.top
				if off {
					height, top = c.oldHeight, c.oldTop
				}
				assert.Equal(t, height, cell.Height, "NoGlassLevels %v", off)
				assert.Equal(t, top, cell.Top, "NoGlassLevels %v", off)
			}
		})
	}
}

// The glass levels network is built in, and Options.NoGlassLevels leaves
// the glass tops of a committed still as the height and pip networks
// read them: every other cell reads the same either way.
func TestGlassLevelsBuiltIn(t *testing.T) {
	d := NewDetector(Options{})
	defer d.Close()
	require.NotNil(t, d.glass, "the built-in glass levels network")
	assert.Len(t, d.glass.ws, 2, "two members")
	off := NewDetector(Options{NoGlassLevels: true})
	defer off.Close()
	const stillDir, still = "testdata/synth/stills", "still_0274" // two glass tops
	_, plain := detectStill(t, off, stillDir, still)
	_, res := detectStill(t, d, stillDir, still)
	eachGlassTop(t, plain, res, func(where string, was, cell *Cell) {
		require.NotNil(t, was, "%s: a glass top read before", where)
		assert.Equal(t, was.Top, cell.Top, "%s: read surely before, the same now", where)
	})
}
