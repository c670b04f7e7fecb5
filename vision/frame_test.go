package vision

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocv.io/x/gocv"

	"github.com/blueprints-companion/blueprints/vision/internal/pix"
)

// TestWhitePlaneSameReads: detect reads the bench stills exactly the same
// (corners, cells, confidences) with the whiteness plane and with each
// pixel's whiteness computed where it is read, and the plane's tiles hold
// valSat's value minus saturation for every pixel they cover.
func TestWhitePlaneSameReads(t *testing.T) {
	if !pix.FastWhiteness {
		t.Log("no whiteness kernel here: both runs take the direct path")
	}
	saved := pix.FastWhiteness
	defer func() { pix.FastWhiteness = saved }()
	d := NewDetector(Options{})
	defer d.Close()
	files, err := filepath.Glob(filepath.Join(corpus, "*.json"))
	require.NoError(t, err)
	frames := 0
	for i, tf := range files {
		if i%10 != 0 {
			continue
		}
		data, err := os.ReadFile(tf)
		require.NoError(t, err)
		var tr truthFile
		if json.Unmarshal(data, &tr) != nil || tr.Image == "" {
			continue
		}
		cam, err := ParseTruthCamera(data)
		require.NoError(t, err)
		img := gocv.IMRead(filepath.Join(corpus, tr.Image), gocv.IMReadColor)
		require.False(t, img.Empty(), tr.Image)
		pix.FastWhiteness = false
		direct, err := d.Detect(img, cam)
		require.NoError(t, err)
		pix.FastWhiteness = saved
		planed, err := d.Detect(img, cam)
		require.NoError(t, err)
		assert.Equal(t, direct, planed, "%s: reads differ with the whiteness plane", tr.Image)
		// the tiles the last detect filled
		bgr, err := img.DataPtrUint8()
		require.NoError(t, err)
		w, filled := img.Cols(), 0
		for ti, done := range d.white.done {
			if !done {
				continue
			}
			filled++
			y, x0 := ti/d.white.tiles, ti%d.white.tiles*whiteTile
			for x := x0; x < min(x0+whiteTile, w); x++ {
				k := (y*w + x) * 3
				v, s := valSat(bgr[k], bgr[k+1], bgr[k+2])
				if int(d.white.plane[y*w+x]) != v-s {
					t.Fatalf("%s: plane at (%d, %d) %d, want %d", tr.Image, x, y, d.white.plane[y*w+x], v-s)
				}
			}
		}
		if saved {
			assert.Positive(t, filled, "%s: no tile filled", tr.Image)
		}
		img.Close()
		frames++
	}
	assert.GreaterOrEqual(t, frames, 20)
}
