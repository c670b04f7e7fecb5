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

// A height_fine.cnn beside the networks is read where the height CNNs are
// unsure of a cell not under the camera, half and half with them, and
// nowhere else; a network of other inputs is refused.
func TestFineHeightFiles(t *testing.T) {
	dir, top, pips := builtinModelDir(t)
	d := NewDetector(Options{})
	defer d.Close()
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Zero(t, d.fineHeightN, "no height_fine.cnn: none")
	const stillDir, still = "testdata/synth/stills", "still_0051" // a stack torn between two and three high
	_, plain := detectStill(t, d, stillDir, still)

	fine := filepath.Join(dir, "height_fine.cnn")
	rng := rand.New(rand.NewPCG(9, 10))
	writeCNN(t, fine, cnn.Arch{InC: 1, Side: 24, Convs: []int{4}, Hidden: 4, Classes: HeightClasses}, rng, -1)
	assert.ErrorContains(t, d.UseNetworkFiles(top, pips), "fine-face height CNN takes 1x24x24")

	// a network sure that every cell holds a stack six high
	writeCNN(t, fine, cnn.Arch{InC: HeightCNNChannels, Side: 24, Convs: []int{4, 4}, Hidden: 4, Classes: HeightClasses}, rng, 6)
	require.NoError(t, d.UseNetworkFiles(top, pips))
	require.Equal(t, 1, d.fineHeightN)
	_, res := detectStill(t, d, stillDir, still)
	require.Len(t, res.Cards, len(plain.Cards))
	blended, kept := 0, 0
	for i, c := range res.Cards {
		p := plain.Cards[i]
		for r := range c.heightP {
			for col := range c.heightP[r] {
				if !p.heightRead[r][col] {
					continue
				}
				was, now := p.heightP[r][col], c.heightP[r][col]
				sure := false
				for _, v := range was {
					sure = sure || v >= ensembleSure
				}
				if sure || p.UnderCamera && d.underCamera(stillCamera(t, stillDir, still), c.pose, r, col) {
					assert.Equal(t, was, now, "card %d r%dc%d: sure, or under the camera: as before", i, r, col)
					kept++
					continue
				}
				blended++
				for k := range was {
					want := was[k] / 2
					if k == 6 {
						want += 0.5
					}
					assert.InDelta(t, want, now[k], 1e-5, "card %d r%dc%d class %d: half and half", i, r, col, k)
				}
			}
		}
	}
	assert.Positive(t, blended, "the still has unsure cells")
	assert.Positive(t, kept, "and sure ones")

	require.NoError(t, os.Remove(fine))
	require.NoError(t, d.UseNetworkFiles(top, pips))
	assert.Zero(t, d.fineHeightN)
	_, res = detectStill(t, d, stillDir, still)
	assert.Equal(t, plain.Cards, res.Cards, "without the file, the reads of before")
}
