package cnn

import (
	"math"
	"testing"
)

// TestRowKernelsUsed checks that convRelu takes gen_rows.go's kernels for
// the sides they were made for (the padding columns are left as they
// were), so that TestConvRelu's comparison covers them; and that every
// side's blocks of rows add up to the side.
func TestRowKernelsUsed(t *testing.T) {
	if !SIMD {
		t.Log("no AVX2/FMA here: the wide kernel in Go is used, nothing to check")
		return
	}
	for _, s := range []int{8, 16, 32, 64} {
		ks := rowKernelsFor(s)
		if len(ks) == 0 {
			t.Fatalf("side %d: no row kernels", s)
		}
		if ks[len(ks)-1].rows > s {
			t.Errorf("side %d: smallest block %d rows", s, ks[len(ks)-1].rows)
		}
		ps := s + 2
		pst, wide := planeLen(s), s*ps
		src := make([]float32, 2*pst)
		for i := range src {
			src[i] = float32(i%7) - 3
		}
		w := make([]float32, 18)
		for i := range w {
			w[i] = float32(i%5) - 2
		}
		dst := make([]float32, wide)
		for i := range dst {
			dst[i] = float32(math.NaN())
		}
		convRelu(dst, src, pst, 2, ps, w, 0.5)
		for i, v := range dst {
			if real := i%ps < s; real == (v != v) {
				t.Fatalf("side %d: [%d] (column %d) = %v: want real columns written, padding left", s, i, i%ps, v)
			}
		}
	}
	if rowKernelsFor(12) != nil || rowKernelsFor(6) != nil {
		t.Error("row kernels for a side that is not a multiple of 8")
	}
}
