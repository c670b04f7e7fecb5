//go:build matprofile

package vision

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gocv.io/x/gocv"
)

// TestNoMatLeaks runs detect, with and without the debug image, on a few
// frames and checks that every gocv.Mat it made was closed.
func TestNoMatLeaks(t *testing.T) {
	path, cam := fourCardFrame(t)
	before := gocv.MatProfile.Count()
	d := NewDetector(Options{})
	for i := 0; i < 3; i++ {
		_, err := d.DetectFile(path, cam)
		require.NoError(t, err)
		_, err = d.DebugImage(path, cam, t.TempDir()+"/debug.png")
		require.NoError(t, err)
	}
	// the hard cards' stills take the finder's rarer paths (opened blobs)
	hard, err := filepath.Glob("testdata/cards/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, hard)
	for _, tf := range hard {
		data, err := os.ReadFile(tf)
		require.NoError(t, err)
		hcam, err := ParseTruthCamera(data)
		require.NoError(t, err)
		_, err = d.DetectFile(strings.TrimSuffix(tf, ".json")+".jpg", hcam)
		require.NoError(t, err)
	}
	_, err = d.DetectFile("testdata/no-such-image.jpg", cam)
	assert.Error(t, err)
	require.NoError(t, d.Close())
	assert.Equal(t, before, gocv.MatProfile.Count(), "gocv.Mats left open after detect")
}
