//go:build amd64

#include "textflag.h"
#include "flush_amd64.h"

// func dotRows16Y(acc *[64]float32, x, wt *float32, nb int)
// The four lanes of vec.Dot for 16 rows of a dense layer at once, from the
// weights laid out by denseWT for AVX2: acc[8g+4r+k] = sum over blocks
// b < nb of x[4b+k]*w[2g+r][4b+k], for groups g < 8 of two rows r, lanes
// k < 4. Each YMM register holds one group's two rows of four lanes (the
// four inputs broadcast to both halves); each lane is a separate multiply
// and add in order of b (no fused multiply-add), as dotRows8SSE does it,
// so the bits are the same.
TEXT ·dotRows16Y(SB), NOSPLIT, $8-32
	FLUSH_ON
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ wt+16(FP), DX
	MOVQ nb+24(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    ydone
yloop:
	VBROADCASTF128 (SI), Y8
	VMULPS 0(DX), Y8, Y9
	VMULPS 32(DX), Y8, Y10
	VMULPS 64(DX), Y8, Y11
	VMULPS 96(DX), Y8, Y12
	VMULPS 128(DX), Y8, Y13
	VMULPS 160(DX), Y8, Y14
	VMULPS 192(DX), Y8, Y15
	VADDPS Y9, Y0, Y0
	VMULPS 224(DX), Y8, Y9
	VADDPS Y10, Y1, Y1
	VADDPS Y11, Y2, Y2
	VADDPS Y12, Y3, Y3
	VADDPS Y13, Y4, Y4
	VADDPS Y14, Y5, Y5
	VADDPS Y15, Y6, Y6
	VADDPS Y9, Y7, Y7
	ADDQ $16, SI
	ADDQ $256, DX
	DECQ CX
	JNZ  yloop
ydone:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	FLUSH_OFF
	VZEROUPPER
	RET
