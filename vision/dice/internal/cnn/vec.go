package cnn

// The two kernels every layer is built on. vec_generic.go has the portable
// versions; vec_simd.go has AVX2/FMA versions used when the package is built
// with GOEXPERIMENT=simd on amd64 (the trainer is; the reader need not be).

// axpyGo adds a*src to dst (len(src) >= len(dst)).
func axpyGo(dst, src []float32, a float32) {
	src = src[:len(dst)]
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		d, s := dst[i:i+4:i+4], src[i:i+4:i+4]
		d[0] += a * s[0]
		d[1] += a * s[1]
		d[2] += a * s[2]
		d[3] += a * s[3]
	}
	for ; i < len(dst); i++ {
		dst[i] += a * src[i]
	}
}

// dotGo is the dot product of a and b (len(b) >= len(a)).
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// conv9Go adds to dst[i] the sum over the nine taps t of w[t]*src[off[t]+i]:
// one input plane's share of a 3x3 convolution, computed for a whole plane
// at once (src must reach off[t]+len(dst) for every t).
func conv9Go(dst, src []float32, off *[9]int, w *[9]float32) {
	n := len(dst)
	p0, p1, p2 := src[off[0]:off[0]+n], src[off[1]:off[1]+n], src[off[2]:off[2]+n]
	p3, p4, p5 := src[off[3]:off[3]+n], src[off[4]:off[4]+n], src[off[5]:off[5]+n]
	p6, p7, p8 := src[off[6]:off[6]+n], src[off[7]:off[7]+n], src[off[8]:off[8]+n]
	w0, w1, w2, w3, w4, w5, w6, w7, w8 := w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]
	for i := range dst {
		dst[i] += w0*p0[i] + w1*p1[i] + w2*p2[i] + w3*p3[i] + w4*p4[i] + w5*p5[i] + w6*p6[i] + w7*p7[i] + w8*p8[i]
	}
}
