package vec

// Dot32 is the dot product of a and b (len(b) >= len(a)) summed in 32
// lanes: lane k adds a[i]*b[i] for every i = k (mod 32) below the last
// whole block of 32, in order; lane j then adds the j-th of the remaining
// products; the lanes are added pairwise (lane k + lane k+16, then k+8,
// k+4, k+2, k+1). Every product and sum is rounded to float32 on its own
// (no fused multiply-add), so the AVX version (dot32_amd64.s), which keeps
// the 32 lanes in four 8-wide registers, gives the same bits as this Go.
// It is the kernel of the cell networks (vision/internal/mlp): long rows
// of a few thousand inputs, where eight-wide SIMD pays.
func Dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var acc [32]float32
	m := len(a) &^ 31
	if m > 0 {
		dot32Blocks(&acc, a[:m], b[:m])
	}
	for i := m; i < len(a); i++ {
		acc[i-m] += float32(a[i] * b[i]) // the conversion forbids a fused multiply-add
	}
	for w := 16; w >= 1; w /= 2 {
		for k := 0; k < w; k++ {
			acc[k] += acc[k+w]
		}
	}
	return acc[0]
}

// dot32BlocksGo adds the lanes of whole blocks of 32 (len(a) a multiple of
// 32, len(b) == len(a)).
func dot32BlocksGo(acc *[32]float32, a, b []float32) {
	for i := 0; i+32 <= len(a); i += 32 {
		x, y := (*[32]float32)(a[i:i+32]), (*[32]float32)(b[i:i+32])
		for k := range acc {
			acc[k] += float32(x[k] * y[k])
		}
	}
}
