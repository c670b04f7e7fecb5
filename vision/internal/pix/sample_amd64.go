//go:build amd64

package pix

import "golang.org/x/sys/cpu"

// hasSampleZ is whether the AVX-512 sampler runs here: AVX-512 F and VL
// (8 doubles a register, masked gathers of 8 dwords).
var hasSampleZ = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// hasSampleY is whether the AVX2 samplers run here (where the AVX-512
// ones do not): 4 doubles a register, gathers with vector masks.
var hasSampleY = cpu.X86.HasAVX2

// sampleZ is Colours over n points (a multiple of 8) by AVX-512.
//
//go:noescape
func sampleZ(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int)

// sampleY is Colours over n points (a multiple of 4) by AVX2; the frame
// must hold at least 8 bytes.
//
//go:noescape
func sampleY(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int)

// alongZ is Tiles.Along's kernel over n points (a multiple of 8); it
// returns n.
//
//go:noescape
func alongZ(a *tileArgs, fr, out *float64, n int) int

// nearestZ is Sampler.White's kernel over n points (a multiple of 8); it
// returns n.
//
//go:noescape
func nearestZ(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int

// dieZ is Sampler.DieLike's kernel over n points (a multiple of 8).
//
//go:noescape
func dieZ(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int)

// alongY is Tiles.Along's kernel over n points (a multiple of 4) by
// AVX2; it returns n.
//
//go:noescape
func alongY(a *tileArgs, fr, out *float64, n int) int

// nearestY is Sampler.White's kernel over n points (a multiple of 4) by
// AVX2; it returns n.
//
//go:noescape
func nearestY(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int

// dieY is Sampler.DieLike's kernel over n points (a multiple of 4) by
// AVX2.
//
//go:noescape
func dieY(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int)
