package vec

import (
	"math"
	"testing"
)

// Small whole numbers add up exactly in float32 in any order, so the
// unrolled kernels must match a plain loop bit for bit, for every length
// around the unrolling (the tail loop included).
func TestKernelsMatchPlainLoops(t *testing.T) {
	for n := 0; n <= 13; n++ {
		a, b := make([]float32, n), make([]float32, n+3) // b may be longer
		for i := range a {
			a[i] = float32(i%5 - 2)
		}
		for i := range b {
			b[i] = float32(3 - i%7)
		}
		var want float32
		for i := range a {
			want += a[i] * b[i]
		}
		if got := Dot(a, b); got != want {
			t.Errorf("Dot n=%d: %v, want %v", n, got, want)
		}
		dst := make([]float32, n)
		for i := range dst {
			dst[i] = float32(i)
		}
		Axpy(dst, b, -2)
		for i := range dst {
			if w := float32(i) - 2*b[i]; dst[i] != w {
				t.Errorf("Axpy n=%d [%d]: %v, want %v", n, i, dst[i], w)
			}
		}
	}
}

// Dot32 must give the same bits with and without the assembly, for every
// length around the blocks of 32, on values whose sums round.
func TestDot32SameBitsEveryWay(t *testing.T) {
	for n := 0; n <= 200; n++ {
		a, b := make([]float32, n), make([]float32, n+5)
		for i := range a {
			a[i] = float32(math.Sin(float64(i)*1.7)) * 3.3
		}
		for i := range b {
			b[i] = float32(math.Cos(float64(i)*0.37)) / 7
		}
		// the reference: lanes, tail and pairwise sum written out plainly
		var acc [32]float32
		m := n &^ 31
		for i := 0; i < m; i++ {
			acc[i%32] += float32(a[i] * b[i])
		}
		for i := m; i < n; i++ {
			acc[i-m] += float32(a[i] * b[i])
		}
		for w := 16; w >= 1; w /= 2 {
			for k := 0; k < w; k++ {
				acc[k] += acc[k+w]
			}
		}
		got := Dot32(a, b)
		if math.Float32bits(got) != math.Float32bits(acc[0]) {
			t.Fatalf("n=%d: Dot32 %v, reference %v", n, got, acc[0])
		}
		saved := hasAVX
		hasAVX = false
		goOnly := Dot32(a, b)
		hasAVX = saved
		if math.Float32bits(goOnly) != math.Float32bits(got) {
			t.Fatalf("n=%d: without SIMD %v, with %v", n, goOnly, got)
		}
		var plain float64
		for i := range a {
			plain += float64(a[i]) * float64(b[i])
		}
		if math.Abs(float64(got)-plain) > 1e-4*(1+math.Abs(plain)) {
			t.Fatalf("n=%d: Dot32 %v, exact %v", n, got, plain)
		}
	}
}

func BenchmarkDot32(b *testing.B) {
	x, y := make([]float32, 3840), make([]float32, 3840)
	for i := range x {
		x[i], y[i] = float32(i%13), float32(i%7)
	}
	b.Run("Dot", func(b *testing.B) {
		for b.Loop() {
			Dot(x, y)
		}
	})
	b.Run("Dot32", func(b *testing.B) {
		for b.Loop() {
			Dot32(x, y)
		}
	})
}
