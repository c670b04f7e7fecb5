package cnn

import "github.com/blueprints-companion/blueprints/vision/internal/vec"

// The two kernels every layer is built on. vec_generic.go uses the portable
// versions; on amd64 vec_amd64.go adds assembly (AVX2/FMA) for the
// convolutions where the processor has it.

// axpyGo adds a*src to dst (len(src) >= len(dst)).
func axpyGo(dst, src []float32, a float32) { vec.Axpy(dst, src, a) }

// dotGo is the dot product of a and b (len(b) >= len(a)).
func dotGo(a, b []float32) float32 { return vec.Dot(a, b) }

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

// convReluGo sets dst to one output channel of a 3x3 convolution with
// bias and ReLU: the bias, plus conv9 of each of the nin input planes
// (plane c starts at src[c*pst], rows ps long, weights w[9c:9c+9]) in
// order, then negative sums set to 0 (-0 and NaN are kept as they are).
func convReluGo(dst, src []float32, pst, nin, ps int, w []float32, bias float32) {
	for i := range dst {
		dst[i] = bias
	}
	offs := tapOffsets(ps, 0, 1)
	for c := 0; c < nin; c++ {
		conv9(dst, src[c*pst:], &offs, (*[9]float32)(w[9*c:]))
	}
	for i, v := range dst {
		if v < 0 {
			dst[i] = 0
		}
	}
}

// dotRowsGo sets out[j] to dot(w[j*len(x):(j+1)*len(x)], x): a dense
// layer's sums before the bias.
func dotRowsGo(out, w, x []float32) {
	n := len(x)
	for j := range out {
		out[j] = dot(w[j*n:(j+1)*n], x)
	}
}

// grad9Go adds to gw[t] dot(dk, p[off:off+len(dk)]) for each tap t, off =
// (t/3)*ps + t%3.
func grad9Go(gw *[9]float32, dk, p []float32, ps int) {
	for t := 0; t < 9; t++ {
		off := (t/3)*ps + t%3
		gw[t] += dot(dk, p[off:off+len(dk)])
	}
}

// pool2Go is 2x2 max pooling of nch channels: channel k of src starts at
// src[k*wide] and holds 2h rows of ps values (the first 2h of each row
// real); channel k of dst, at dst[k*h*h], gets h×h values, each the first
// of the largest of its square in the order top-left, top-right,
// bottom-left, bottom-right (Backward's poolArgs finds the same one again).
func pool2Go(dst, src []float32, h, ps, nch, wide int) {
	for k := 0; k < nch; k++ {
		for y := 0; y < h; y++ {
			r0 := src[k*wide+2*y*ps : k*wide+2*y*ps+2*h]
			r1 := src[k*wide+(2*y+1)*ps : k*wide+(2*y+1)*ps+2*h]
			out := dst[k*h*h+y*h : k*h*h+y*h+h]
			for xx := range out {
				v := r0[2*xx]
				if a := r0[2*xx+1]; a > v {
					v = a
				}
				if a := r1[2*xx]; a > v {
					v = a
				}
				if a := r1[2*xx+1]; a > v {
					v = a
				}
				out[xx] = v
			}
		}
	}
}

// convCompactGo is convReluLayerYC in Go: each output the bias plus, for
// each input plane and tap in order, the weight times copy dx's value
// dy rows down, then the ReLU (a separate multiply and add, as convReluGo
// does them: not the bits of the kernels' fused multiply-adds).
func convCompactGo(act, sh []float32, nin, side int, w, b []float32, nout int) {
	third, wide := compactLen(side), compactWide(side)
	for k := 0; k < nout; k++ {
		for j := 0; j < side*side; j++ {
			sum := b[k]
			for c := 0; c < nin; c++ {
				for t := 0; t < 9; t++ {
					sum += float32(w[(k*nin+c)*9+t] * sh[c*3*third+(t%3)*third+(t/3)*side+j])
				}
			}
			act[k*wide+j] = max(sum, 0)
		}
	}
}

// convReluEach computes all nout output channels of a conv block, each
// wide values of act, with one convRelu per channel.
func convReluEach(act, pad []float32, pst, nin, ps int, w, b []float32, nout, wide int) {
	for k := 0; k < nout; k++ {
		convRelu(act[k*wide:(k+1)*wide], pad, pst, nin, ps, w[k*nin*9:(k+1)*nin*9], b[k])
	}
}
