//go:build amd64

package vec

import "golang.org/x/sys/cpu"

// hasAVX is whether the processor and the OS support AVX (the 8-wide
// registers the assembly uses; it needs no FMA).
var hasAVX = cpu.X86.HasAVX

//go:noescape
func dot32AVX(acc *[32]float32, a, b *float32, blocks int)

func dot32Blocks(acc *[32]float32, a, b []float32) {
	if !hasAVX {
		dot32BlocksGo(acc, a, b)
		return
	}
	b = b[:len(a)]
	dot32AVX(acc, &a[0], &b[0], len(a)/32)
}

// MXCSR returns the SSE control and status register of the calling
// thread. The assembly kernels here and in package cnn set flush-to-zero
// and denormals-are-zero (bits 15 and 6) for the length of each call and
// put the caller's value back; tests check that none leaks out.
func MXCSR() uint32

// FlushBits are MXCSR's flush-to-zero (FTZ) and denormals-are-zero (DAZ)
// bits, which the kernels set while they run.
const FlushBits = 0x8040
