//go:build amd64

package pix

import "golang.org/x/sys/cpu"

// hasSampleZ is whether the AVX-512 sampler runs here: AVX-512 F and VL
// (8 doubles a register, masked gathers of 8 dwords).
var hasSampleZ = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// sampleZ is Colours over n points (a multiple of 8) by AVX-512.
//
//go:noescape
func sampleZ(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int)

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
