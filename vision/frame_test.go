package vision

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	frames := 0
	eachStill(t, 10, func(tr truthFile, img gocv.Mat, cam Camera) {
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
		frames++
	})
	assert.GreaterOrEqual(t, frames, 20)
}

// eachStill calls fn with every every-th still of the bench corpus (its
// truth, image and truth camera), closing the image after.
func eachStill(t *testing.T, every int, fn func(tr truthFile, img gocv.Mat, cam Camera)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpus, "*.json"))
	require.NoError(t, err)
	for i, tf := range files {
		if i%every != 0 {
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
		fn(tr, img, cam)
		img.Close()
	}
}

// BenchmarkWhitePlane reads the bench's 1280x720 four-card stills with and
// without the whiteness plane, frame by frame in turn (so a busy host's
// slow spells fall on both alike), and reports each way's mean time per
// frame and their ratio.
func BenchmarkWhitePlane(b *testing.B) {
	if !pix.FastWhiteness {
		b.Skip("no whiteness kernel here: there is no plane to compare")
	}
	saved := pix.FastWhiteness
	defer func() { pix.FastWhiteness = saved }()
	type still struct {
		img gocv.Mat
		cam Camera
	}
	var stills []still
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json"))
	for _, tf := range files {
		data, err := os.ReadFile(tf)
		require.NoError(b, err)
		var tr truthFile
		if json.Unmarshal(data, &tr) != nil || tr.Width != 1280 || len(tr.Cards) != 4 {
			continue
		}
		cam, err := ParseTruthCamera(data)
		require.NoError(b, err)
		img := gocv.IMRead(filepath.Join(corpus, tr.Image), gocv.IMReadColor)
		require.False(b, img.Empty(), tr.Image)
		defer img.Close()
		stills = append(stills, still{img, cam})
	}
	require.NotEmpty(b, stills)
	d := NewDetector(Options{})
	defer d.Close()
	var took [2]time.Duration
	frames := 0
	for b.Loop() {
		for _, s := range stills {
			for way := range took {
				pix.FastWhiteness = way == 1
				start := time.Now()
				if _, err := d.Detect(s.img, s.cam); err != nil {
					b.Fatal(err)
				}
				took[way] += time.Since(start)
			}
			frames++
		}
	}
	ms := func(t time.Duration) float64 { return float64(t.Microseconds()) / 1000 / float64(frames) }
	b.ReportMetric(ms(took[0]), "ms/frame-direct")
	b.ReportMetric(ms(took[1]), "ms/frame-plane")
	b.ReportMetric(ms(took[1])/ms(took[0]), "plane/direct")
	b.ReportMetric(0, "ns/op")
}
