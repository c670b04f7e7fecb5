package vec

import "testing"

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
