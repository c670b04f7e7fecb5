// Package pix holds the per-pixel measures the detector reads millions of
// times a frame: HSV value and saturation (ValSat); the whiteness of the
// card's printed line work, value minus saturation (Whiteness, a run of
// pixels at a time); and the colour, bilinear between pixels, at points of
// a card lifted to a height and seen through a pinhole camera (Sampler,
// many points at a time); the whiteness plane's values along a line or at
// projected points (Tiles); and the card masks' per-pixel passes
// (BluePixels, Threshold, KeepLabelled).
//
// Whiteness and Sampler have AVX-512 versions (whiteness_amd64.s on
// processors with AVX-512 BW and VBMI, sample_amd64.s with AVX-512 F and
// VL) that give exactly the Go code's results: the whiteness's division is
// done in float32 and truncated, which is exact for every pixel
// (TestWhitenessExact); the sampler does the Go code's double-precision
// operations in its order, without fused multiply-adds, 8 points a time
// (TestColoursExact, TestColoursLastPixel, TestAlongExact,
// TestWhiteExact); the mask passes (AVX-512 BW and VBMI) are integer
// operations, exact by construction (TestBluePixelsExact,
// TestThresholdExact, TestKeepLabelled). Where a kernel loads more bytes
// than it needs, it does so only where its caller left room.
package pix
