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

// Fine height CNNs (height_fine.cnn beside --cell-model's files) are read
// only for plain cells the height CNNs read as a stack less than
// fineBelow sure, and blended in at fineWeight among the heights only;
// networks of several finer sides in one file are read together, and a
// network of the level inputs' side, or of other planes, is refused.
func TestFineHeightFiles(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Zero(t, d.fineN, "no height_fine.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0022"
	_, plain := detectStill(t, d, stillDir, still)
	require.NotEmpty(t, plain.Cards)
	cam := stillCamera(t, stillDir, still)

	fine := filepath.Join(dir, "height_fine.cnn")
	rng := rand.New(rand.NewPCG(9, 10))
	writeCNN(t, fine, cnn.Arch{InC: HeightCNNChannels, Side: faceSide, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, 6)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "fine height CNN takes 12x12x12")
	writeCNN(t, fine, cnn.Arch{InC: 1, Side: 24, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, 6)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "fine height CNN takes 1x24x24")

	// one network sure of 3 at side 16, one sure of 4 at side 24
	var nets []*cnn.Net
	for _, n := range []struct{ side, sure int }{{16, 3}, {24, 4}} {
		nets = append(nets, sureNet(t, cnn.Arch{InC: HeightCNNChannels, Side: n.side, Convs: []int{4, 4}, Hidden: 4, Classes: HeightClasses}, rng, n.sure))
	}
	writeEnsemble(t, fine, nets)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.Equal(t, 2, d.fineN)
	require.Len(t, d.heightFine, 2, "two sides, two groups")
	_, res := detectStill(t, d, stillDir, still)
	require.Len(t, res.Cards, len(plain.Cards))

	c := res.Cards[0]
	bg := &d.cardReads[0].bg
	// a sure reading is left alone
	sure := []float32{0.01, 0.95, 0.01, 0.01, 0.01, 0.005, 0.005, 0.01}
	copy(d.heightP, sure)
	d.fineHeight(cam, c.pose, bg, 1, 0)
	assert.Equal(t, sure, d.heightP)
	// an unsure one is half its own, half the fine networks' (1/2 for 3, 1/2 for 4)
	copy(d.heightP, []float32{0, 0, 0.6, 0.4, 0, 0, 0, 0})
	d.fineHeight(cam, c.pose, bg, 1, 0)
	want := []float32{0, 0, 0.3, 0.2 + 0.25, 0.25, 0, 0, 0}
	for k := range want {
		assert.InDelta(t, want[k], d.heightP[k], 1e-3, "class %d", k)
	}
	// only its heights are blended: empty and hand keep their shares, the
	// fine networks' heights scaled to the 0.6 the heights hold
	copy(d.heightP, []float32{0.3, 0, 0.4, 0.2, 0, 0, 0, 0.1})
	d.fineHeight(cam, c.pose, bg, 1, 0)
	want = []float32{0.3, 0, 0.2, 0.1 + 0.15, 0.15, 0, 0, 0.1}
	for k := range want {
		assert.InDelta(t, want[k], d.heightP[k], 1e-3, "class %d", k)
	}
	// a reading whose likeliest class is empty, or a hand, is left alone
	// however unsure: the fine networks never move a cell between empty
	// and a stack
	for _, p := range [][]float32{
		{0.45, 0.3, 0.2, 0.05, 0, 0, 0, 0},
		{0.2, 0.1, 0.2, 0.05, 0, 0, 0, 0.45},
	} {
		copy(d.heightP, p)
		d.fineHeight(cam, c.pose, bg, 1, 0)
		assert.Equal(t, p, d.heightP)
	}

	require.NoError(t, os.Remove(fine))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Zero(t, d.fineN)
	assert.Nil(t, d.heightFine)
	_, again := detectStill(t, d, stillDir, still)
	assert.Equal(t, plain.Cards[0].Cells, again.Cards[0].Cells, "without the file, read as before")
}
