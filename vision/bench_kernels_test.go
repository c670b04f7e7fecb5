package vision

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/cpu"

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
	switch m := pix.MaskKernel(); {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI:
		assert.Equal(t, "avx512", m)
	case cpu.X86.HasAVX2:
		assert.Equal(t, "avx2", m)
	default:
		assert.Equal(t, "go", m)
	}
	assert.Contains(t, k, "masks "+pix.MaskKernel())
	was := pix.FastSampling
	defer func() { pix.FastSampling = was }()
	pix.FastSampling = false
	assert.Contains(t, Kernels(), "samplers go")
	pix.FastSampling = true
	switch s := pix.SamplingKernel(); {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL:
		assert.Equal(t, "avx512", s)
	case cpu.X86.HasAVX2:
		assert.Equal(t, "avx2", s)
	default:
		assert.Equal(t, "go", s)
	}
	assert.Contains(t, Kernels(), "samplers "+pix.SamplingKernel())
}
