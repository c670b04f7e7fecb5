package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/blueprints-companion/blueprints/vision/internal/cnn"
	"github.com/blueprints-companion/blueprints/vision/internal/pix"
)

// TestKernels: Kernels names the kernels in use, and follows the
// samplers' switch.
func TestKernels(t *testing.T) {
	k := Kernels()
	want := "networks go"
	if cnn.SIMDZ {
		want = "networks avx512"
	} else if cnn.SIMD {
		want = "networks avx2"
	}
	assert.Contains(t, k, want)
	assert.Contains(t, k, "whiteness "+pix.WhitenessKernel())
	was := pix.FastSampling
	defer func() { pix.FastSampling = was }()
	pix.FastSampling = false
	assert.Contains(t, Kernels(), "samplers go")
	pix.FastSampling = true
	assert.Contains(t, Kernels(), "samplers avx512")
}
