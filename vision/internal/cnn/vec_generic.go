//go:build !amd64

package cnn

func axpy(dst, src []float32, a float32) { axpyGo(dst, src, a) }

func dot(a, b []float32) float32 { return dotGo(a, b) }

// SIMD reports whether the kernels use SIMD instructions.
const SIMD = false

// SIMDZ reports whether the forward pass uses AVX-512 kernels.
const SIMDZ = false

// SIMDY reports whether the forward pass uses the AVX2 kernels of
// several channels a call.
const SIMDY = false

func shiftPlanes(sh, in []float32, side, nin int) { shiftPlanesGo(sh, in, side, nin) }

// convReluLayerYC: no compact kernels here (Forward takes the compact
// layout only where SIMDY is true), the Go loops.
func convReluLayerYC(act, sh []float32, nin, side int, w, b []float32, nout int) {
	convCompactGo(act, sh, nin, side, w, b, nout)
}

func conv9(dst, src []float32, off *[9]int, w *[9]float32) { conv9Go(dst, src, off, w) }

func convRelu(dst, src []float32, pst, nin, ps int, w []float32, bias float32) {
	convReluGo(dst, src, pst, nin, ps, w, bias)
}

func dotRows(out, w, x []float32) { dotRowsGo(out, w, x) }

func grad9(gw *[9]float32, dk, p []float32, ps int) { grad9Go(gw, dk, p, ps) }

func convBack(dst, src []float32, back *[9]int, w *[9]float32, ps int) { conv9(dst, src, back, w) }

func pool2(dst, src []float32, h, ps, nch, wide int) { pool2Go(dst, src, h, ps, nch, wide) }

// convReluLayer computes all nout output channels of a conv block, each
// wide values of act, one channel at a time.
func convReluLayer(act, pad []float32, pst, nin, ps int, w, b []float32, nout, wide int) {
	convReluEach(act, pad, pst, nin, ps, w, b, nout, wide)
}

// denseWT: no other layout here.
func denseWT(w []float32, in, out int) ([]float32, int) { return nil, 0 }

func dotRowsWT(out, w, wt, x []float32, rows int) { dotRowsGo(out, w, x) }
