//go:build amd64

package pix

import "golang.org/x/sys/cpu"

// hasWhiteZ is whether the AVX-512 kernel runs here: it needs AVX-512 F
// and BW (512-bit registers, byte masks) and VBMI (VPERMB, which sorts a
// run of BGR bytes into B, G and R).
var hasWhiteZ = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI

// hasWhiteY is whether the AVX2 kernels (whiteY and the mask passes'
// blueY, threshY, keepY) run here, where the AVX-512 ones do not.
var hasWhiteY = cpu.X86.HasAVX2

// whiteY is Whiteness over n pixels (a multiple of 16) by AVX2.
//
//go:noescape
func whiteY(dst *int16, bgr *uint8, n int)

// whiteZ is Whiteness over n pixels (a multiple of 16) by AVX-512.
//
//go:noescape
func whiteZ(dst *int16, bgr *uint8, n int)

// blueZ is BluePixels over n pixels (a multiple of 16).
//
//go:noescape
func blueZ(row *uint8, v, sum, bg *int16, n int)

// threshZ is Threshold over n pixels (a multiple of 16).
//
//go:noescape
func threshZ(v, sum, ts, tw *int16, seed, half *uint8, n int)

// keepZ is KeepLabelled over n pixels (a multiple of 16).
//
//go:noescape
func keepZ(mask *uint8, lab *uint16, keep *uint8, last int32, n int)

// blueY is BluePixels over n pixels (a multiple of 16) by AVX2.
//
//go:noescape
func blueY(row *uint8, v, sum, bg *int16, n int)

// threshY is Threshold over n pixels (a multiple of 16) by AVX2.
//
//go:noescape
func threshY(v, sum, ts, tw *int16, seed, half *uint8, n int)

// keepY is KeepLabelled over n pixels (a multiple of 16) by AVX2.
//
//go:noescape
func keepY(mask *uint8, lab *uint16, keep *uint8, last int32, n int)
