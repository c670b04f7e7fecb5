package pix

// SumTable holds a threshold per B+G+R (0..765), with room past the last
// for the kernels' 4-byte loads.
type SumTable [768]int16

// FastMasks is whether BluePixels, Threshold and KeepLabelled run their
// SIMD kernels here (else Go loops): AVX-512 or AVX2.
var FastMasks = hasWhiteZ || hasWhiteY

// MaskKernel names the kernels BluePixels, Threshold and KeepLabelled
// run here: "avx512", "avx2" or "go". They are chosen by the same
// processor features as Whiteness's.
func MaskKernel() string { return WhitenessKernel() }

// BluePixels reads every other pixel of a row of BGR bytes (pixel i's
// bytes at row[6i:6i+3]) into B-max(G,R), B+G+R and B-G, for i below
// len(v). row must hold them; sum and bg must be as long as v.
func BluePixels(row []uint8, v, sum, bg []int16) {
	n := len(v)
	if n == 0 {
		return
	}
	row, sum, bg = row[:6*(n-1)+3], sum[:n], bg[:n]
	k := 0
	switch {
	case n < 16:
	case hasWhiteZ:
		k = n &^ 15
		blueZ(&row[0], &v[0], &sum[0], &bg[0], k)
	case hasWhiteY:
		k = n &^ 15
		blueY(&row[0], &v[0], &sum[0], &bg[0], k)
	}
	blueGo(row, v, sum, bg, k)
}

// blueGo is BluePixels from pixel k on.
func blueGo(row []uint8, v, sum, bg []int16, k int) {
	for i := k; i < len(v); i++ {
		b, g, r := int16(row[6*i]), int16(row[6*i+1]), int16(row[6*i+2])
		v[i], sum[i], bg[i] = b-max(g, r), b+g+r, b-g
	}
}

// Threshold marks each pixel i whose value v[i] reaches the threshold
// for its B+G+R (sum[i]): seed[i] = 1 where v[i] >= ts[sum[i]], else 0;
// half[i] = 255 where v[i] >= tw[sum[i]], else 0. sum, seed and half must
// be as long as v, and every sum 0..765.
func Threshold(v, sum []int16, ts, tw *SumTable, seed, half []uint8) {
	n := len(v)
	sum, seed, half = sum[:n], seed[:n], half[:n]
	k := 0
	switch {
	case n < 16:
	case hasWhiteZ:
		k = n &^ 15
		threshZ(&v[0], &sum[0], &ts[0], &tw[0], &seed[0], &half[0], k)
	case hasWhiteY:
		k = n &^ 15
		threshY(&v[0], &sum[0], &ts[0], &tw[0], &seed[0], &half[0], k)
	}
	threshGo(v, sum, ts, tw, seed, half, k)
}

// threshGo is Threshold from pixel k on.
func threshGo(v, sum []int16, ts, tw *SumTable, seed, half []uint8, k int) {
	for i := k; i < len(v); i++ {
		s := sum[i]
		seed[i] = b2u(v[i] >= ts[s])
		half[i] = 255 * b2u(v[i] >= tw[s])
	}
}

// KeepLabelled clears mask[i] where keep[lab[i]] is 0 (mask[i] &=
// keep[lab[i]]); a label past keep's end reads its last entry. lab must
// be as long as mask, and keep not empty. The kernels run only where keep
// has room for 3 bytes past its last label (its capacity), which their
// 4-byte loads read (else the Go loop runs).
func KeepLabelled(mask []uint8, lab []uint16, keep []uint8) {
	n := len(mask)
	lab = lab[:n]
	last := len(keep) - 1
	k := 0
	switch {
	case n < 16 || cap(keep) < len(keep)+3:
	case hasWhiteZ:
		k = n &^ 15
		keepZ(&mask[0], &lab[0], &keep[0], int32(last), k)
	case hasWhiteY:
		k = n &^ 15
		keepY(&mask[0], &lab[0], &keep[0], int32(last), k)
	}
	keepGo(mask, lab, keep, k)
}

// keepGo is KeepLabelled from pixel k on.
func keepGo(mask []uint8, lab []uint16, keep []uint8, k int) {
	last := len(keep) - 1
	for i := k; i < len(mask); i++ {
		mask[i] &= keep[min(int(lab[i]), last)]
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
