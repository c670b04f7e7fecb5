//go:build goexperiment.simd && amd64

package cnn

import "simd/archsimd"

var useSIMD = archsimd.X86.AVX2() && archsimd.X86.FMA()

// SIMD reports whether the kernels use SIMD instructions.
var SIMD = useSIMD

func axpy(dst, src []float32, a float32) {
	if !useSIMD || len(dst) < 16 {
		axpyGo(dst, src, a)
		return
	}
	src = src[:len(dst)]
	av := archsimd.BroadcastFloat32x8(a)
	n := len(dst)
	i := 0
	for ; i+32 <= n; i += 32 {
		d0 := archsimd.LoadFloat32x8Slice(dst[i:])
		d1 := archsimd.LoadFloat32x8Slice(dst[i+8:])
		d2 := archsimd.LoadFloat32x8Slice(dst[i+16:])
		d3 := archsimd.LoadFloat32x8Slice(dst[i+24:])
		archsimd.LoadFloat32x8Slice(src[i:]).MulAdd(av, d0).StoreSlice(dst[i:])
		archsimd.LoadFloat32x8Slice(src[i+8:]).MulAdd(av, d1).StoreSlice(dst[i+8:])
		archsimd.LoadFloat32x8Slice(src[i+16:]).MulAdd(av, d2).StoreSlice(dst[i+16:])
		archsimd.LoadFloat32x8Slice(src[i+24:]).MulAdd(av, d3).StoreSlice(dst[i+24:])
	}
	for ; i+8 <= n; i += 8 {
		d := archsimd.LoadFloat32x8Slice(dst[i:])
		archsimd.LoadFloat32x8Slice(src[i:]).MulAdd(av, d).StoreSlice(dst[i:])
	}
	for ; i < n; i++ {
		dst[i] += a * src[i]
	}
	archsimd.ClearAVXUpperBits()
}

func dot(a, b []float32) float32 {
	if !useSIMD || len(a) < 16 {
		return dotGo(a, b)
	}
	b = b[:len(a)]
	var z [8]float32
	s0 := archsimd.LoadFloat32x8(&z)
	s1, s2, s3 := s0, s0, s0
	n := len(a)
	i := 0
	for ; i+32 <= n; i += 32 {
		s0 = archsimd.LoadFloat32x8Slice(a[i:]).MulAdd(archsimd.LoadFloat32x8Slice(b[i:]), s0)
		s1 = archsimd.LoadFloat32x8Slice(a[i+8:]).MulAdd(archsimd.LoadFloat32x8Slice(b[i+8:]), s1)
		s2 = archsimd.LoadFloat32x8Slice(a[i+16:]).MulAdd(archsimd.LoadFloat32x8Slice(b[i+16:]), s2)
		s3 = archsimd.LoadFloat32x8Slice(a[i+24:]).MulAdd(archsimd.LoadFloat32x8Slice(b[i+24:]), s3)
	}
	for ; i+8 <= n; i += 8 {
		s0 = archsimd.LoadFloat32x8Slice(a[i:]).MulAdd(archsimd.LoadFloat32x8Slice(b[i:]), s0)
	}
	s0.Add(s1).Add(s2.Add(s3)).Store(&z)
	archsimd.ClearAVXUpperBits()
	sum := (z[0] + z[1]) + (z[2] + z[3]) + ((z[4] + z[5]) + (z[6] + z[7]))
	for ; i < n; i++ {
		sum += a[i] * b[i]
	}
	return sum
}

func conv9(dst, src []float32, off *[9]int, w *[9]float32) {
	n := len(dst)
	if !useSIMD || n < 8 {
		conv9Go(dst, src, off, w)
		return
	}
	p0, p1, p2 := src[off[0]:off[0]+n], src[off[1]:off[1]+n], src[off[2]:off[2]+n]
	p3, p4, p5 := src[off[3]:off[3]+n], src[off[4]:off[4]+n], src[off[5]:off[5]+n]
	p6, p7, p8 := src[off[6]:off[6]+n], src[off[7]:off[7]+n], src[off[8]:off[8]+n]
	w0, w1, w2 := archsimd.BroadcastFloat32x8(w[0]), archsimd.BroadcastFloat32x8(w[1]), archsimd.BroadcastFloat32x8(w[2])
	w3, w4, w5 := archsimd.BroadcastFloat32x8(w[3]), archsimd.BroadcastFloat32x8(w[4]), archsimd.BroadcastFloat32x8(w[5])
	w6, w7, w8 := archsimd.BroadcastFloat32x8(w[6]), archsimd.BroadcastFloat32x8(w[7]), archsimd.BroadcastFloat32x8(w[8])
	i := 0
	for ; i+8 <= n; i += 8 {
		a := archsimd.LoadFloat32x8Slice(dst[i:])
		a = archsimd.LoadFloat32x8Slice(p0[i:]).MulAdd(w0, a)
		a = archsimd.LoadFloat32x8Slice(p1[i:]).MulAdd(w1, a)
		a = archsimd.LoadFloat32x8Slice(p2[i:]).MulAdd(w2, a)
		a = archsimd.LoadFloat32x8Slice(p3[i:]).MulAdd(w3, a)
		a = archsimd.LoadFloat32x8Slice(p4[i:]).MulAdd(w4, a)
		a = archsimd.LoadFloat32x8Slice(p5[i:]).MulAdd(w5, a)
		a = archsimd.LoadFloat32x8Slice(p6[i:]).MulAdd(w6, a)
		a = archsimd.LoadFloat32x8Slice(p7[i:]).MulAdd(w7, a)
		a = archsimd.LoadFloat32x8Slice(p8[i:]).MulAdd(w8, a)
		a.StoreSlice(dst[i:])
	}
	archsimd.ClearAVXUpperBits()
	if i < n {
		conv9Go(dst[i:], src[i:], off, w)
	}
}

func convRelu(dst, src []float32, pst, nin, ps int, w []float32, bias float32) {
	convReluGo(dst, src, pst, nin, ps, w, bias)
}

func dotRows(out, w, x []float32) { dotRowsGo(out, w, x) }

func grad9(gw *[9]float32, dk, p []float32, ps int) { grad9Go(gw, dk, p, ps) }

func convBack(dst, src []float32, back *[9]int, w *[9]float32, ps int) { conv9(dst, src, back, w) }
