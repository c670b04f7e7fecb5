package pix

// ValSat is HSV's value and saturation (0..255) of a BGR pixel. The
// saturation is (v-lo)·255/v rounded down, by a multiply with v's
// reciprocal instead of a division (exact for every pixel:
// TestValSatExact).
func ValSat(b, g, r uint8) (v, s int) {
	hi := max(b, g, r)
	v = int(hi)
	lo := int(min(b, g, r))
	if v == 0 {
		return 0, 0
	}
	return v, int(uint64((v-lo)*255) * recip32[hi] >> 32)
}

// recip32[d] is 2^32/d rounded up (d > 0): n·recip32[d] >> 32 is n/d
// rounded down for every n < 2^16, since the rounding adds less than
// n/2^32 < 1/d to the quotient.
var recip32 = func() (t [256]uint64) {
	for d := uint64(1); d < 256; d++ {
		t[d] = (1<<32)/d + 1
	}
	return t
}()

// FastWhiteness is whether Whiteness runs a SIMD kernel here (else it is
// ValSat pixel by pixel): AVX-512 or AVX2.
var FastWhiteness = hasWhiteZ || hasWhiteY

// WhitenessKernel names the kernel Whiteness runs here: "avx512", "avx2"
// or "go".
func WhitenessKernel() string {
	switch {
	case hasWhiteZ:
		return "avx512"
	case hasWhiteY:
		return "avx2"
	}
	return "go"
}

// Whiteness writes to dst[i] the whiteness (value minus saturation, from
// ValSat; -255..255) of the BGR pixel at bgr[3i:3i+3], for every i below
// len(dst). bgr must hold 3·len(dst) bytes.
func Whiteness(dst []int16, bgr []uint8) {
	bgr = bgr[:3*len(dst)]
	n := 0
	switch {
	case len(dst) < 16:
	case hasWhiteZ:
		n = len(dst) &^ 15
		whiteZ(&dst[0], &bgr[0], n)
	case hasWhiteY:
		n = len(dst) &^ 15
		whiteY(&dst[0], &bgr[0], n)
	}
	whitenessGo(dst[n:], bgr[3*n:])
}

func whitenessGo(dst []int16, bgr []uint8) {
	bgr = bgr[:3*len(dst)]
	for i := range dst {
		v, s := ValSat(bgr[3*i], bgr[3*i+1], bgr[3*i+2])
		dst[i] = int16(v - s)
	}
}
