package vec

import (
	"math"
	"testing"
)

// TestDot32FlushesSubnormals: the assembly reads a subnormal operand as
// zero and rounds a subnormal product to zero (the plain Go loop keeps
// both), and leaves the caller's MXCSR as it found it, flush bits clear.
func TestDot32FlushesSubnormals(t *testing.T) {
	if !hasAVX {
		t.Skip("no AVX here: Dot32 runs the plain Go loop, which keeps subnormals")
	}
	before := MXCSR()
	if before&FlushBits != 0 {
		t.Fatalf("MXCSR %#x before any kernel: flush bits already set", before)
	}
	tiny := math.Float32frombits(1) // the smallest subnormal
	a, b := make([]float32, 64), make([]float32, 64)
	for _, c := range []struct {
		name   string
		ai, bi float32
	}{
		{"subnormal operand", tiny, 1},
		{"subnormal product", 1e-20, 1e-20},
	} {
		a[5], b[5] = c.ai, c.bi
		got := Dot32(a, b)
		// the control bits only: the low six are sticky exception flags,
		// which any float arithmetic may raise
		if after := MXCSR(); after&^0x3f != before&^0x3f {
			t.Fatalf("%s: MXCSR %#x after Dot32, %#x before", c.name, after, before)
		}
		saved := hasAVX
		hasAVX = false
		plain := Dot32(a, b)
		hasAVX = saved
		if plain == 0 {
			t.Fatalf("%s: the Go loop gives 0; the case does not test flushing", c.name)
		}
		if got != 0 {
			t.Errorf("%s: Dot32 = %g, want 0 (flushed)", c.name, got)
		}
	}
	a[5], b[5] = 2, 3
	if got := Dot32(a, b); got != 6 {
		t.Errorf("normal values: Dot32 = %g, want 6", got)
	}
}

func TestFlushSubnormals(t *testing.T) {
	tiny := math.Float32frombits(1)
	p := []float32{0, 1, -tiny, tiny * 1000, math.SmallestNonzeroFloat32, 1.1754944e-38, -2.5, float32(math.Inf(1))}
	if n := FlushSubnormals(p); n != 3 {
		t.Errorf("flushed %d values, want 3", n)
	}
	want := []float32{0, 1, 0, 0, 0, 1.1754944e-38, -2.5, float32(math.Inf(1))}
	for i := range p {
		if p[i] != want[i] {
			t.Errorf("[%d] = %g, want %g", i, p[i], want[i])
		}
	}
}
