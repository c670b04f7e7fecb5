//go:build amd64

#include "textflag.h"
#include "flush_amd64.h"

// func dotRows32Z(acc *[128]float32, x, wt *float32, nb int)
// The four lanes of vec.Dot for 32 rows of a dense layer at once, from
// the weights laid out by denseWT: acc[16g+4r+k] = sum over blocks b < nb
// of x[4b+k]*w[4g+r][4b+k], for groups g < 8 of four rows r, lanes k < 4.
// Each ZMM register holds one group's four rows of four lanes; each lane
// is a separate multiply and add in order of b (no fused multiply-add),
// as dotRows8SSE does it, so the bits are the same.
TEXT ·dotRows32Z(SB), NOSPLIT, $8-32
	FLUSH_ON
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ wt+16(FP), DX
	MOVQ nb+24(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	TESTQ CX, CX
	JZ    zdone
zloop:
	VBROADCASTF32X4 (SI), Z8
	VMULPS 0(DX), Z8, Z9
	VMULPS 64(DX), Z8, Z10
	VMULPS 128(DX), Z8, Z11
	VMULPS 192(DX), Z8, Z12
	VMULPS 256(DX), Z8, Z13
	VMULPS 320(DX), Z8, Z14
	VMULPS 384(DX), Z8, Z15
	VMULPS 448(DX), Z8, Z16
	VADDPS Z9, Z0, Z0
	VADDPS Z10, Z1, Z1
	VADDPS Z11, Z2, Z2
	VADDPS Z12, Z3, Z3
	VADDPS Z13, Z4, Z4
	VADDPS Z14, Z5, Z5
	VADDPS Z15, Z6, Z6
	VADDPS Z16, Z7, Z7
	ADDQ $16, SI
	ADDQ $512, DX
	DECQ CX
	JNZ  zloop
zdone:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	FLUSH_OFF
	VZEROUPPER
	RET
