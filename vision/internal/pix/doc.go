// Package pix holds the per-pixel colour measures the card finder reads
// millions of times a frame: HSV value and saturation (ValSat) and the
// whiteness of the card's printed line work, value minus saturation
// (Whiteness, a run of pixels at a time). Whiteness has an AVX-512 version
// (whiteness_amd64.s, on processors with AVX-512 BW and VBMI) that gives
// exactly ValSat's integers: the saturation's division is done in float32
// and truncated, which is exact for every pixel (TestWhitenessExact).
package pix
