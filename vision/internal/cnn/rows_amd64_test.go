package cnn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/blueprints-companion/blueprints/vision/internal/vec"
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

// TestKernelsFlushSubnormals: every assembly kernel of the forward and
// backward passes reads a subnormal weight as zero and rounds a subnormal
// result to zero (MXCSR's FTZ and DAZ set for the call: on many Intel
// processors each subnormal operand or result costs a microcode assist,
// and the committed networks' forward pass ran three times slower for
// them), and leaves the caller's MXCSR control bits as they were.
func TestKernelsFlushSubnormals(t *testing.T) {
	if !SIMD {
		t.Skip("no AVX2/FMA here: the Go loops run, which keep subnormals")
	}
	const control = ^uint32(0x3f) // the low six bits are sticky exception flags
	before := vec.MXCSR()
	if before&vec.FlushBits != 0 {
		t.Fatalf("MXCSR %#x before any kernel: flush bits already set", before)
	}
	check := func(name string, got float32) {
		t.Helper()
		if after := vec.MXCSR(); after&control != before&control {
			t.Fatalf("%s: MXCSR %#x after the kernel, %#x before", name, after, before)
		}
		if got != 0 {
			t.Errorf("%s: %g, want 0 (flushed)", name, got)
		}
	}
	tiny := math.Float32frombits(1) // the smallest subnormal

	// convolutions: one plane of ones, the centre tap tiny (a subnormal
	// operand) or 1e-20 with inputs of 1e-20 (a subnormal product), bias 0
	for _, s := range []int{8, 12, 16, 32, 64} { // row kernels and the wide one
		for _, c := range []struct {
			name    string
			in, tap float32
		}{{"subnormal weight", 1, tiny}, {"subnormal product", 1e-20, 1e-20}} {
			ps := s + 2
			pst := planeLen(s)
			src := make([]float32, pst)
			for i := range src {
				src[i] = c.in
			}
			w := make([]float32, 9)
			w[4] = c.tap
			dst, ref := make([]float32, s*ps), make([]float32, s*ps)
			convRelu(dst, src, pst, 1, ps, w, 0)
			SIMD = false // conv9's Go loop under convReluGo
			convReluGo(ref, src, pst, 1, ps, w, 0)
			SIMD = true
			if ref[0] == 0 {
				t.Fatalf("side %d, %s: the Go loop gives 0; the case does not test flushing", s, c.name)
			}
			check(fmt.Sprintf("convRelu side %d, %s", s, c.name), dst[0])
		}
	}
	// the AVX2 kernels of several channels a call (convReluLayer with the
	// AVX-512 ones off): a side-12 block, the same two cases
	wasZ, wasY := SIMDZ, SIMDY
	defer func() { SIMDZ, SIMDY = wasZ, wasY }()
	SIMDZ, SIMDY = false, true
	for _, c := range []struct {
		name    string
		in, tap float32
	}{{"subnormal weight", 1, tiny}, {"subnormal product", 1e-20, 1e-20}} {
		const s, nout = 12, 5
		ps, pst := s+2, planeLen(s)
		src := make([]float32, pst)
		for i := range src {
			src[i] = c.in
		}
		w := make([]float32, 9*nout)
		for k := 0; k < nout; k++ {
			w[9*k+4] = c.tap
		}
		dst := make([]float32, nout*s*ps)
		convReluLayer(dst, src, pst, 1, ps, w, make([]float32, nout), nout, s*ps)
		for k := 0; k < nout; k++ {
			check(fmt.Sprintf("convReluLayer (AVX2) channel %d, %s", k, c.name), dst[k*s*ps])
		}
	}
	// the dense layer: eight rows of four
	x := []float32{1, 1, 1, 1}
	w := make([]float32, 32)
	w[0] = tiny
	var acc [32]float32
	dotRows8SSE(&acc, &x[0], &w[0], 4, 4)
	check("dotRows8SSE", acc[0])
	// conv9 (the backward pass's data gradient) and grad9 (its weights)
	row := make([]float32, 10)
	for i := range row {
		row[i] = 1
	}
	out := make([]float32, 8)
	w9 := [9]float32{tiny}
	conv9AVX2(&out[0], 8, &row[0], &row[0], &row[0], &w9)
	check("conv9AVX2", out[0])
	dk := make([]float32, 8)
	dk[0] = tiny
	p := make([]float32, 2*10+2+8)
	for i := range p {
		p[i] = 1
	}
	var g [72]float32
	grad9AVX2(&g, &dk[0], &p[0], 10, 8)
	check("grad9AVX2", g[0])
}

// kernelKind is a family of kernels the layers can run, as SIMDZ and
// SIMDY select it, and the rows a call of its dense layer.
type kernelKind struct {
	name string
	z, y bool
	rows int
}

// kernelKinds lists the families this processor runs: AVX2 (SIMD is
// true), and AVX-512 where SIMDZ was.
func kernelKinds() []kernelKind {
	kinds := []kernelKind{{"avx2", false, true, 16}}
	if SIMDZ {
		kinds = append(kinds, kernelKind{"avx512", true, false, 32})
	}
	return kinds
}

// TestConvReluLayer checks the kernels of several channels a call — the
// AVX-512 ones (runs of one to six vectors of 16, the last one whole or
// half under the mask) where the processor has them, and the AVX2 ones
// (runs of one to three vectors of 8) wherever it has AVX2 — against one
// channel at a time (convReluEach), bit for bit on every real output, for
// conv blocks of many shapes and channel counts that leave every kind of
// remainder. Wide layouts that are not whole vectors of 8 go a channel at
// a time under the AVX2 kernels.
func TestConvReluLayer(t *testing.T) {
	if !SIMD {
		t.Skip("no AVX2/FMA here: convReluLayer is convRelu a channel at a time")
	}
	wasZ, wasY := SIMDZ, SIMDY
	defer func() { SIMDZ, SIMDY = wasZ, wasY }()
	kinds := kernelKinds()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kind := range kinds {
		for _, s := range []int{1, 2, 4, 6, 8, 10, 12, 16, 24, 32} {
			for _, nin := range []int{1, 3, 12} {
				for _, nout := range []int{1, 2, 5, 7, 13, 48} {
					ps := s + 2
					pst, wide := planeLen(s), s*ps
					pad := make([]float32, nin*pst)
					for i := range pad {
						pad[i] = float32(rng.NormFloat64())
					}
					w := make([]float32, 9*nin*nout)
					for i := range w {
						w[i] = float32(rng.NormFloat64())
					}
					b := make([]float32, nout)
					for i := range b {
						b[i] = float32(rng.NormFloat64()) * 0.5
					}
					got, want := make([]float32, nout*wide+16), make([]float32, nout*wide+16)
					for i := range got {
						got[i], want[i] = -7, -7 // past the end: must stay
					}
					SIMDZ, SIMDY = kind.z, kind.y
					convReluLayer(got, pad, pst, nin, ps, w, b, nout, wide)
					convReluEach(want, pad, pst, nin, ps, w, b, nout, wide)
					for i := range got {
						if i < nout*wide && (i%wide)%ps >= s {
							continue // padding columns: written by one, not the other
						}
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%s: side %d, %d in, %d out: [%d] = %v, want %v", kind.name, s, nin, nout, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestDotRowsWT checks the dense layers of several rows a call — the
// AVX-512 one (32 rows, weights laid out by denseWT for it) where the
// processor has it, and the AVX2 one (16 rows) wherever it has AVX2 —
// against dotRows bit for bit, for inputs that are and are not whole
// blocks of four; that a layer whose rows are no whole block gets no
// layout; and that a model file read gets the layout, which a training
// step then drops (its weights change).
func TestDotRowsWT(t *testing.T) {
	if !SIMD {
		t.Skip("no AVX2/FMA here: dense layers run dotRows")
	}
	wasZ, wasY := SIMDZ, SIMDY
	defer func() { SIMDZ, SIMDY = wasZ, wasY }()
	kinds := kernelKinds()
	rng := rand.New(rand.NewPCG(13, 14))
	for _, kind := range kinds {
		SIMDZ, SIMDY = kind.z, kind.y
		for _, out := range []int{32, 64, 128} {
			for _, in := range []int{4, 5, 7, 64, 576, 1027, 3456} {
				w, x := normals(rng, out*in), normals(rng, in)
				wt, rows := denseWT(w, in, out)
				if wt == nil || rows != kind.rows {
					t.Fatalf("%s: %d x %d: layout of %d rows, want %d", kind.name, out, in, rows, kind.rows)
				}
				got, want := make([]float32, out), make([]float32, out)
				dotRowsWT(got, w, wt, x, rows)
				dotRows(want, w, x)
				for j := range got {
					if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
						t.Fatalf("%d rows a call, %d x %d: row %d = %v, want %v", rows, out, in, j, got[j], want[j])
					}
				}
			}
		}
		if wt, _ := denseWT(make([]float32, (kind.rows+8)*8), 8, kind.rows+8); wt != nil {
			t.Errorf("a layout for %d rows, not a multiple of %d", kind.rows+8, kind.rows)
		}
	}
	SIMDZ, SIMDY = wasZ, wasY

	n, err := New(Arch{InC: 1, Side: 8, Convs: []int{4}, Hidden: 32, Classes: 3}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	m := reread(t, n)
	if m.hidden.wt == nil {
		t.Fatal("a model file read without the dense layout")
	}
	x := make([]float32, m.InputLen())
	for i := range x {
		x[i] = float32(i%5) - 2
	}
	ws, gr := m.NewWorkspace(), m.NewGrads()
	ws.Backward(x, 1, gr)
	m.NewAdam(0.1).Step(m, gr, 1)
	if m.hidden.wt != nil {
		t.Fatal("a training step kept the dense layout of the old weights")
	}
}

// TestForwardCompact checks Forward in the compact layout (the AVX2
// kernels' for inference) against the wide layout, bit for bit in every
// pooled value and class probability, for networks of many shapes (sides
// 2 to 32 with one to three conv blocks, one to twelve input planes,
// channel counts that leave every kind of remainder, with and without
// GAP); and that Backward after a compact Forward gives the gradients it
// gives after a wide one, and keeps the workspace wide.
func TestForwardCompact(t *testing.T) {
	if !SIMD {
		t.Skip("no AVX2/FMA here: the compact layout's kernels do not run")
	}
	// (on an AVX-512 machine too: the AVX2 kernels run there as well)
	wasZ, wasY := SIMDZ, SIMDY
	defer func() { SIMDZ, SIMDY = wasZ, wasY }()
	SIMDZ, SIMDY = false, true
	rng := rand.New(rand.NewPCG(21, 22))
	archs := []Arch{
		{InC: 12, Side: 12, Convs: []int{48, 96}, Hidden: 128, Classes: 8},
		{InC: 1, Side: 32, Convs: []int{16, 32, 64}, Hidden: 64, Classes: 6},
		{InC: 3, Side: 12, Convs: []int{32, 64}, Hidden: 64, Classes: 4},
		{InC: 12, Side: 24, Convs: []int{32, 64, 96}, Hidden: 128, Classes: 8},
		{InC: 2, Side: 8, Convs: []int{5, 7, 13}, Hidden: 9, Classes: 3},
		{InC: 1, Side: 4, Convs: []int{3}, Hidden: 4, Classes: 2},
		{InC: 5, Side: 16, Convs: []int{7, 11}, Hidden: 16, Classes: 5, GAP: true},
		{InC: 1, Side: 2, Convs: []int{1}, Hidden: 2, Classes: 2},
	}
	for _, a := range archs {
		n, err := New(a, rng)
		if err != nil {
			t.Fatal(err)
		}
		n = reread(t, n)
		var x []float32
		cw, ww := n.NewWorkspace(), n.NewWorkspace()
		ww.wide = true
		for range 2 { // the buffers' second use too
			x = normals(rng, n.InputLen())
			if err := cw.Forward(x); err != nil {
				t.Fatal(err)
			}
			if err := ww.Forward(x); err != nil {
				t.Fatal(err)
			}
			if !cw.compact || ww.compact {
				t.Fatalf("%+v: compact %v and %v, want true and false", a, cw.compact, ww.compact)
			}
			for l := range n.convs {
				for i, v := range cw.pool[l] {
					if math.Float32bits(v) != math.Float32bits(ww.pool[l][i]) {
						t.Fatalf("%+v: block %d pooled [%d] = %v, want %v", a, l, i, v, ww.pool[l][i])
					}
				}
			}
			for j, p := range cw.Prob {
				if math.Float32bits(p) != math.Float32bits(ww.Prob[j]) {
					t.Fatalf("%+v: class %d = %v, want %v", a, j, p, ww.Prob[j])
				}
			}
		}
		gc, gw := n.NewGrads(), n.NewGrads()
		lc, lw := cw.Backward(x, 1, gc), ww.Backward(x, 1, gw)
		if lc != lw || !cw.wide || cw.compact {
			t.Fatalf("%+v: loss %v after a compact Forward, %v after a wide one; wide %v compact %v", a, lc, lw, cw.wide, cw.compact)
		}
		for i := range gc.g {
			for k, v := range gc.g[i] {
				if math.Float32bits(v) != math.Float32bits(gw.g[i][k]) {
					t.Fatalf("%+v: gradient block %d [%d] = %v, want %v", a, i, k, v, gw.g[i][k])
				}
			}
		}
	}
}
