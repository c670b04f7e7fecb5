//go:build amd64

package cnn

import "golang.org/x/sys/cpu"

// On amd64 the forward pass's 3x3 kernels have AVX2/FMA versions in
// assembly (vec_amd64.s; the convolution with bias and ReLU, wide and by
// rows, in rows_amd64.s, which gen_rows.go writes), used when the
// processor and the OS support it; the rest is portable Go.

//go:noescape
func conv9AVX2(dst *float32, n int, r0, r1, r2 *float32, w *[9]float32)

//go:noescape
func convReluAVX2(dst *float32, n int, src *float32, pst, nin, ps int, w *float32, bias float32)

//go:noescape
func dotRows8SSE(acc *[32]float32, x, w *float32, stride, n int)

//go:noescape
func pool2SSE(dst, src *float32, h, ps, nch, wide int)

//go:noescape
func grad9AVX2(out *[72]float32, dk, p *float32, ps, n int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasAVX is whether the processor and the OS do AVX (dotRows8SSE's
// VEX-encoded instructions).
var hasAVX = cpu.X86.HasAVX

// SIMD reports whether the kernels use SIMD instructions.
var SIMD = hasAVX2FMA()

func hasAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&fma == 0 || c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // the OS saves XMM and YMM state
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0 // AVX2
}

func axpy(dst, src []float32, a float32) { axpyGo(dst, src, a) }

func dot(a, b []float32) float32 { return dotGo(a, b) }

func conv9(dst, src []float32, off *[9]int, w *[9]float32) {
	n := len(dst)
	m := n &^ 7
	if !SIMD || m == 0 || !rowTaps(off) {
		conv9Go(dst, src, off, w)
		return
	}
	// the three rows of taps, bounds-checked here for all m+2 values read
	r0 := src[off[0] : off[0]+m+2]
	r1 := src[off[3] : off[3]+m+2]
	r2 := src[off[6] : off[6]+m+2]
	conv9AVX2(&dst[0], m, &r0[0], &r1[0], &r2[0], w)
	if m < n {
		conv9Go(dst[m:], src[m:], off, w)
	}
}

// rowTaps reports whether the taps come in three rows of three neighbours
// (the forward pass's layout), which the assembly kernel assumes.
func rowTaps(off *[9]int) bool {
	for r := 0; r < 9; r += 3 {
		if off[r] < 0 || off[r+1] != off[r]+1 || off[r+2] != off[r]+2 {
			return false
		}
	}
	return true
}

//go:generate go run gen_rows.go

// rowKernel is one of gen_rows.go's kernels: rows output rows of one
// channel of a conv block whose side is a multiple of 8.
type rowKernel struct {
	rows int
	f    func(dst, src *float32, pst, nin int, w *float32, bias float32)
}

// convRelu is convReluGo with the whole vectors of dst done by the
// assembly kernel in one call per output channel (same bits). Where the
// block's side is a multiple of 8 that gen_rows.go made kernels for, the
// real values of each wide row are done a block of rows at a time and
// the two padding columns are left as they are (no one reads them).
func convRelu(dst, src []float32, pst, nin, ps int, w []float32, bias float32) {
	n := len(dst)
	m := n &^ 7
	if !SIMD || m == 0 || nin < 1 {
		convReluGo(dst, src, pst, nin, ps, w, bias)
		return
	}
	if s := ps - 2; n == s*ps {
		if ks := rowKernelsFor(s); ks != nil {
			// everything the kernels read and write, bounds-checked here
			_ = src[(nin-1)*pst+(s+1)*ps+s+1]
			_ = w[9*nin-1]
			_ = dst[(s-1)*ps+s-1]
			for y := 0; y < s; {
				var k rowKernel // the largest block that fits
				for _, kk := range ks {
					if kk.rows <= s-y {
						k = kk
						break
					}
				}
				if k.f == nil { // (gen_rows.go's blocks tile their sides)
					convReluGo(dst[y*ps:], src[y*ps:], pst, nin, ps, w, bias)
					break
				}
				k.f(&dst[y*ps], &src[y*ps], pst, nin, &w[0], bias)
				y += k.rows
			}
			return
		}
	}
	// everything the kernel reads, bounds-checked here
	_ = src[(nin-1)*pst+2*ps+2+m-1]
	_ = w[9*nin-1]
	convReluAVX2(&dst[0], m, &src[0], pst, nin, ps, &w[0], bias)
	if m < n {
		convReluGo(dst[m:], src[m:], pst, nin, ps, w, bias)
	}
}

// dotRows is dotRowsGo with eight rows at a time in assembly (same bits as
// vec.Dot, which is plain SSE arithmetic), where the processor has AVX
// (the kernel's instructions are VEX-encoded: not on every amd64).
func dotRows(out, w, x []float32) {
	n := len(x)
	m := n &^ 3
	j := 0
	if m > 0 && hasAVX {
		var acc [32]float32
		for ; j+8 <= len(out); j += 8 {
			_ = w[(j+7)*n+m-1] // the last value the kernel reads
			dotRows8SSE(&acc, &x[0], &w[j*n], n, m)
			for r := 0; r < 8; r++ {
				a := w[(j+r)*n : (j+r+1)*n]
				s0, s1, s2, s3 := acc[4*r], acc[4*r+1], acc[4*r+2], acc[4*r+3]
				for i := m; i < n; i++ {
					s0 += float32(a[i] * x[i])
				}
				out[j+r] = (s0 + s1) + (s2 + s3)
			}
		}
	}
	dotRowsGo(out[j:], w[j*n:], x)
}

// grad9 adds to gw[t] the dot product of dk with p shifted by tap t's
// offset (t/3)*ps + t%3, for the nine taps: one plane pair's share of a
// 3x3 convolution's weight gradient. The assembly keeps eight lanes per
// tap, added pairwise at the end (not the bits of nine dot calls).
func grad9(gw *[9]float32, dk, p []float32, ps int) {
	n := len(dk)
	m := n &^ 7
	if !SIMD || m == 0 {
		grad9Go(gw, dk, p, ps)
		return
	}
	_ = p[2*ps+2+n-1] // the last value read
	var acc [72]float32
	grad9AVX2(&acc, &dk[0], &p[0], ps, m)
	for t := 0; t < 9; t++ {
		l := acc[8*t : 8*t+8 : 8*t+8]
		s := ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
		off := (t/3)*ps + t%3
		for i := m; i < n; i++ {
			s += float32(dk[i] * p[off+i])
		}
		gw[t] += s
	}
}

// convBack adds to dst[i] the sum over taps t of w[t]*src[back[t]+i] for
// the backward offsets back = tapOffsets(ps, 2*ps+2, -1): the same as the
// forward offsets from 0 with the weights in reverse order, which the
// assembly kernel takes.
func convBack(dst, src []float32, back *[9]int, w *[9]float32, ps int) {
	fwd := tapOffsets(ps, back[8], 1)
	var rw [9]float32
	for t := range rw {
		rw[t] = w[8-t]
	}
	conv9(dst, src, &fwd, &rw)
}

// pool2 is pool2Go in SSE assembly (part of amd64, so on every processor),
// four outputs at a time, with the same bits.
func pool2(dst, src []float32, h, ps, nch, wide int) {
	if h < 1 || nch < 1 {
		return
	}
	// everything the kernel reads and writes, bounds-checked here
	_ = src[(nch-1)*wide+(2*h-1)*ps+2*h-1]
	_ = dst[nch*h*h-1]
	pool2SSE(&dst[0], &src[0], h, ps, nch, wide)
}

// SIMDZ reports whether the forward pass's convolutions and dense
// layers use the AVX-512 kernels (convz_amd64.s, which gen_rows.go writes,
// and densez_amd64.s): the processor has AVX-512F and the OS saves its
// registers. GODEBUG=cpu.avx512f=off turns them off (to measure the AVX2
// kernels on such a machine); tests turn it off to compare.
var SIMDZ = SIMD && cpu.X86.HasAVX512F

// zKernel is one of the AVX-512 kernels gen_rows.go writes: c output
// channels over a run of vectors of 16 outputs.
type zKernel struct {
	c int
	f func(dst, src *float32, wide, pst, nin, ps int, w *float32, wstride int, bias *float32, mask uint64)
}

// convReluLayer computes all nout output channels of a conv block, each
// wide values of act (as convRelu does one), from the padded planes pad:
// with the AVX-512 kernels where the processor has them, several channels
// and up to six vectors of 16 outputs a call (same bits), else one
// channel at a time with convRelu. The AVX-512 kernels also write the
// padding columns of the wide rows (no one reads them).
func convReluLayer(act, pad []float32, pst, nin, ps int, w, b []float32, nout, wide int) {
	// (a block whose wide rows are not whole vectors of 8 has its last
	// values done in Go by convRelu, without fused multiply-adds: it stays
	// there, for the same bits)
	if nin < 1 || nout < 1 || wide < 8 || wide%8 != 0 || !SIMDZ && !SIMDY {
		convReluEach(act, pad, pst, nin, ps, w, b, nout, wide)
		return
	}
	if !SIMDZ {
		convReluLayerY(act, pad, pst, nin, ps, w, b, nout, wide)
		return
	}
	// everything the kernels read and write, bounds-checked here (reads
	// past the last whole vector are masked, as are the writes)
	_ = pad[(nin-1)*pst+2*ps+2+wide-1]
	_ = act[nout*wide-1]
	_ = w[nout*nin*9-1]
	_ = b[nout-1]
	maxV := len(zKernels) - 1
	nv := (wide + 15) / 16
	nb := (nv + maxV - 1) / maxV // runs of near-equal length
	for v0, bi := 0, 0; bi < nb; bi++ {
		v := (nv - v0 + nb - bi - 1) / (nb - bi)
		mask := uint64(0xffff)
		if v0+v == nv && wide%16 != 0 {
			mask = 1<<(wide%16) - 1
		}
		ks := zKernels[v]
		for k := 0; k < nout; {
			kk := mostChannels(ks, nout-k)
			kk.f(&act[k*wide+16*v0], &pad[16*v0], wide, pst, nin, ps, &w[k*nin*9], nin*9, &b[k], mask)
			k += kk.c
		}
		v0 += v
	}
}

// mostChannels is the first of a list of kernels (most channels first)
// that does at most left channels, or the last.
func mostChannels[K interface{ channels() int }](ks []K, left int) K {
	for _, k := range ks {
		if k.channels() <= left {
			return k
		}
	}
	return ks[len(ks)-1]
}

func (k zKernel) channels() int  { return k.c }
func (k yKernel) channels() int  { return k.c }
func (k ycKernel) channels() int { return k.c }

// SIMDY reports whether convReluLayer uses the AVX2 kernels of several
// channels a call (convy_amd64.s, which gen_rows.go writes): AVX2 and FMA
// without AVX-512, which has its own.
var SIMDY = SIMD && !SIMDZ

// yKernel is one of the AVX2 kernels gen_rows.go writes: c output
// channels over a run of vectors of 8 outputs.
type yKernel struct {
	c int
	f func(dst, src *float32, wide, pst, nin, ps int, w *float32, wstride int, bias *float32)
}

// convReluLayerY is convReluLayer with the AVX2 kernels, for wide a
// multiple of 8: runs of at most maxVY vectors of near-equal length, and
// in each run the output channels several at a time (same bits as one
// channel at a time; the padding columns are written too).
func convReluLayerY(act, pad []float32, pst, nin, ps int, w, b []float32, nout, wide int) {
	// everything the kernels read and write, bounds-checked here
	_ = pad[(nin-1)*pst+2*ps+2+wide-1]
	_ = act[nout*wide-1]
	_ = w[nout*nin*9-1]
	_ = b[nout-1]
	maxV := len(yKernels) - 1
	nv := wide / 8
	nb := (nv + maxV - 1) / maxV
	for v0, bi := 0, 0; bi < nb; bi++ {
		v := (nv - v0 + nb - bi - 1) / (nb - bi)
		ks := yKernels[v]
		for k := 0; k < nout; {
			kk := mostChannels(ks, nout-k)
			kk.f(&act[k*wide+8*v0], &pad[8*v0], wide, pst, nin, ps, &w[k*nin*9], nin*9, &b[k])
			k += kk.c
		}
		v0 += v
	}
}

//go:noescape
func dotRows32Z(acc *[128]float32, x, wt *float32, nb int)

// ycKernel is one of the compact-layout AVX2 kernels gen_rows.go writes:
// c output channels over runs of a number of vectors of 8 outputs.
type ycKernel struct {
	c int
	f func(dst, src *float32, wide, pst, nin, side, third int, w *float32, wstride int, bias *float32, runs int)
}

// convReluLayerYC is convReluLayerY over the compact layout: the output
// channels each wide = compactWide(side) values of act, output j being
// row j/side, column j%side (the values from side² on are not outputs);
// the input planes each as their three column-shifted copies in sh
// (shiftPlanes: third = compactLen(side) values apart, 3·third a plane).
// No padding column is computed, and each output gets the same operations
// in the same order as in the wide layout (same bits). For each block of
// output channels, one call does every run of maxVY vectors and one more
// the rest (a call's fixed cost — the MXCSR's setting, the arguments —
// was a third of the time of a block with one input plane, done a run a
// call).
func convReluLayerYC(act, sh []float32, nin, side int, w, b []float32, nout int) {
	third, wide := compactLen(side), compactWide(side)
	// everything the kernels read and write, bounds-checked here
	_ = sh[(nin-1)*3*third+2*third+2*side+wide-1]
	_ = act[nout*wide-1]
	_ = w[nout*nin*9-1]
	_ = b[nout-1]
	maxV := len(ycKernels) - 1
	nv := wide / 8
	runs, rest := nv/maxV, nv%maxV
	for _, r := range [2]struct{ v, runs, v0 int }{{maxV, runs, 0}, {rest, 1, runs * maxV}} {
		if r.v == 0 || r.runs == 0 {
			continue
		}
		ks := ycKernels[r.v]
		for k := 0; k < nout; {
			kk := mostChannels(ks, nout-k)
			kk.f(&act[k*wide+8*r.v0], &sh[8*r.v0], wide, 3*third, nin, side, third, &w[k*nin*9], nin*9, &b[k], r.runs)
			k += kk.c
		}
	}
}

//go:noescape
func shiftY(d0, d1, d2, in *float32, n int)

// shiftPlanes is shiftPlanesGo with each plane's three copies stored by
// shiftY (one load, three stores, 8 values at a time) where there is
// AVX2, and the values the shifts carry past the plane's edges zeroed
// after (the same values).
func shiftPlanes(sh, in []float32, side, nin int) {
	if !SIMD {
		shiftPlanesGo(sh, in, side, nin)
		return
	}
	third, ss := compactLen(side), side*side
	_ = in[nin*ss-1]
	_ = sh[3*nin*third-1]
	for c := 0; c < nin; c++ {
		s0 := sh[3*c*third : 3*c*third+third]
		s1 := sh[(3*c+1)*third : (3*c+1)*third+third]
		s2 := sh[(3*c+2)*third : (3*c+2)*third+third]
		// from copy 0's row 1, column 1, copy 1's row 1, column 0 and
		// copy 2's row 0, column side-1: ss values each, within the copy
		shiftY(&s0[side+1], &s1[side], &s2[side-1], &in[c*ss], ss)
		s2[side-1] = 0
		for y := 1; y <= side; y++ {
			s0[y*side] = 0        // column -1
			s2[y*side+side-1] = 0 // column side
		}
		s0[(side+1)*side] = 0
	}
}

//go:noescape
func dotRows16Y(acc *[64]float32, x, wt *float32, nb int)

// denseWT lays out the weights w of a dense layer (out rows of in values)
// for dotRows32Z where the processor has AVX-512 (out a multiple of 32),
// else for dotRows16Y where it has AVX2 (out a multiple of 16), and
// returns the rows a call (32 or 16); or nil and 0 where neither applies.
// For each block of rows a call, each block b of four inputs and each
// group g of rows (four for AVX-512, two for AVX2), the weights
// w[row g·rg+r][input 4b+k] in order of r, then k.
func denseWT(w []float32, in, out int) ([]float32, int) {
	rows := 0
	switch {
	case in < 4:
	case SIMDZ && out%32 == 0:
		rows = 32
	case SIMDY && out%16 == 0:
		rows = 16
	}
	if rows == 0 {
		return nil, 0
	}
	rg := rows / 8 // rows a group: eight groups a call
	nb := in / 4
	wt := make([]float32, out*nb*4)
	for rb := 0; rb < out/rows; rb++ {
		for b := 0; b < nb; b++ {
			for g := 0; g < 8; g++ {
				for r := 0; r < rg; r++ {
					row := w[(rows*rb+rg*g+r)*in:]
					copy(wt[((rb*nb+b)*8+g)*4*rg+4*r:][:4], row[4*b:4*b+4])
				}
			}
		}
	}
	return wt, rows
}

// dotRowsWT is dotRows for a layer with weights laid out by denseWT for
// rows a call (32: AVX-512, 16: AVX2; out a multiple of it), with the
// same bits.
func dotRowsWT(out, w, wt, x []float32, rows int) {
	n := len(x)
	m := n &^ 3
	nb := m / 4
	_ = wt[len(out)*nb*4-1] // the last value the kernels read
	var acc [128]float32
	for rb := 0; rb < len(out)/rows; rb++ {
		if rows == 32 {
			dotRows32Z(&acc, &x[0], &wt[rb*nb*128], nb)
		} else {
			dotRows16Y((*[64]float32)(acc[:64]), &x[0], &wt[rb*nb*64], nb)
		}
		for r := 0; r < rows; r++ {
			j := rows*rb + r
			// group r/rg's register, row r%rg's four lanes
			l := acc[4*r:][:4]
			s0, s1, s2, s3 := l[0], l[1], l[2], l[3]
			a := w[j*n : (j+1)*n]
			for i := m; i < n; i++ {
				s0 += float32(a[i] * x[i])
			}
			out[j] = (s0 + s1) + (s2 + s3)
		}
	}
}
