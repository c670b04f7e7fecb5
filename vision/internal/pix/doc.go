// Package pix holds the per-pixel measures the detector reads millions of
// times a frame:
//   - HSV value and saturation (ValSat), and the whiteness of the card's
//     printed line work, value minus saturation (Whiteness, a run of
//     pixels at a time);
//   - at points of a card lifted to a height and seen through a pinhole
//     camera (Sampler, many points at a time): the colour bilinear between
//     pixels (Colours), and whether the nearest pixel shows a die rather
//     than the card or the table (DieLike);
//   - a whiteness plane filled a tile at a time (Tiles): its values
//     bilinear along a line (Along) or at projected points (White);
//   - the card masks' per-pixel passes (BluePixels, Threshold,
//     KeepLabelled).
//
// Each has an AVX-512 kernel (the *_amd64.s files; AVX-512 F and VL for
// the samplers, BW and VBMI too for the byte passes) used where the
// processor has it, which gives exactly the Go code's results: the
// samplers do the Go code's double-precision operations in its order,
// without fused multiply-adds, 8 points a time; the saturation's integer
// division is a float32 division truncated, exact for every pixel; the
// mask passes are integer operations. The tests compare the two bit for
// bit (TestWhitenessExact, TestColoursExact, TestDieLikeExact,
// TestAlongExact, TestWhiteExact, TestBluePixelsExact, TestThresholdExact,
// TestKeepLabelled). Where a kernel loads more bytes than it needs, it
// does so only where its caller left room; loads that would cross the
// frame's end are moved back (the *LastPixel and LastByte tests read
// frames that end at a page the process may not read). Whiteness has an
// AVX2 kernel too (whitey_amd64.s, the same float32 quotient, 16 pixels
// a round, loading only the run's own bytes), and so have the samplers
// (sampley_amd64.s, dieliky_amd64.s, tilesy_amd64.s: the same operations
// 4 points a time; the *YExact tests call them directly) and the mask
// passes (masky_amd64.s), for processors without AVX-512 such as AMD's
// before Zen 4, where the whiteness plane is kept too.
package pix
