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
