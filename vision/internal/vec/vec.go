package vec

import "math"

// Axpy adds a*src to dst (len(src) >= len(dst)).
func Axpy(dst, src []float32, a float32) {
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

// Dot is the dot product of a and b (len(b) >= len(a)).
func Dot(a, b []float32) float32 {
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

// FlushSubnormals sets every subnormal value of p (non-zero, with a
// magnitude below 2^-126, the smallest normal float32) to zero and returns
// how many it changed. A network's weights are flushed as it is loaded:
// weight decay leaves many weights that small, they change no reading,
// and on many Intel processors every multiply by one takes a microcode
// assist of a hundred cycles or more.
func FlushSubnormals(p []float32) int {
	n := 0
	for i, v := range p {
		if b := math.Float32bits(v); b&0x7f800000 == 0 && b&0x007fffff != 0 {
			p[i] = 0
			n++
		}
	}
	return n
}
