//go:build amd64

package pix

import "golang.org/x/sys/cpu"

// hasWhiteZ is whether the AVX-512 kernel runs here: it needs AVX-512 F
// and BW (512-bit registers, byte masks) and VBMI (VPERMB, which sorts a
// run of BGR bytes into B, G and R).
var hasWhiteZ = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI

// whiteZ is Whiteness over n pixels (a multiple of 16) by AVX-512.
//
//go:noescape
func whiteZ(dst *int16, bgr *uint8, n int)
