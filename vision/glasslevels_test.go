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

// TestGlassLevelsMendsBench pins a glass top of the committed bench that
// the height and pip networks read a level high and the glass levels
// network reads right: still_0051, seat 3, row 1 column 1, R4 G5, read
// three high G5 without the network (Options.NoGlassLevels), two high
// with it.
func TestGlassLevelsMendsBench(t *testing.T) {
	const dir, still = "testdata/synth/stills", "still_0051"
	stackReadAs(t, dir, still, 3, 0, 0, "R4 G5", 2, "G5")
	d := NewDetector(Options{NoGlassLevels: true})
	defer d.Close()
	tr, res := detectStill(t, d, dir, still)
	found := false
	for _, tc := range tr.Cards {
		if tc.Seat != 3 {
			continue
		}
		i, e := nearestCard(res.Cards, make([]bool, len(res.Cards)), tc.CornersPx)
		require.GreaterOrEqual(t, i, 0)
		require.Less(t, e, 60.0)
		cell := res.Cards[i].Cells[0][0]
		require.NotNil(t, cell)
		assert.Equal(t, 3, cell.Height, "without the network")
		assert.Equal(t, "G5", cell.Top, "without the network")
		found = true
	}
	assert.True(t, found, "seat 3's card")
}

// A glass levels network beside the model files is read (glass_levels.cnn),
// one of another shape is refused with a message that names it, and none
// leaves the glass tops to the height and pip networks.
func TestGlassLevelsFile(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Nil(t, d.glass, "no glass_levels.cnn: none")

	path := filepath.Join(dir, "glass_levels.cnn")
	b, err := builtinModelFS.ReadFile("model/glass_levels.cnn")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.NotNil(t, d.glass)

	rng := rand.New(rand.NewPCG(3, 4))
	writeCNN(t, path, cnn.Arch{InC: 1, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: GlassLevelsClasses}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "glass levels network reads 1 planes")
	writeCNN(t, path, cnn.Arch{InC: 3 * d.pipPlanes, Side: d.pipSide, Convs: []int{4}, Hidden: 4, Classes: 6}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "to 6 classes")
	require.NoError(t, os.WriteFile(path, []byte("not a network"), 0o644))
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "glass_levels.cnn")
}
