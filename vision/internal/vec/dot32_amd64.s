//go:build amd64

#include "textflag.h"

// func dot32AVX(acc *[32]float32, a, b *float32, blocks int)
// acc[k] += a[32j+k]*b[32j+k] for j < blocks, k < 32, in order of j: a
// multiply then an add, each rounded (VMULPS, VADDPS; no FMA), exactly as
// dot32BlocksGo does it.
TEXT ·dot32AVX(SB), NOSPLIT, $8-32
	// denormals flushed to zero for the call (MXCSR FTZ|DAZ), restored at RET
	STMXCSR 0(SP)
	MOVL 0(SP), AX
	MOVL AX, 4(SP)
	ORL $0x8040, AX
	MOVL AX, 0(SP)
	LDMXCSR 0(SP)
	MOVQ acc+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ blocks+24(FP), CX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3

loop:
	TESTQ CX, CX
	JZ    done
	VMOVUPS 0(SI), Y4
	VMOVUPS 32(SI), Y5
	VMOVUPS 64(SI), Y6
	VMOVUPS 96(SI), Y7
	VMULPS  0(DX), Y4, Y4
	VMULPS  32(DX), Y5, Y5
	VMULPS  64(DX), Y6, Y6
	VMULPS  96(DX), Y7, Y7
	VADDPS  Y4, Y0, Y0
	VADDPS  Y5, Y1, Y1
	VADDPS  Y6, Y2, Y2
	VADDPS  Y7, Y3, Y3
	ADDQ    $128, SI
	ADDQ    $128, DX
	DECQ    CX
	JMP     loop

done:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	LDMXCSR 4(SP)
	VZEROUPPER
	RET

// func MXCSR() uint32
TEXT ·MXCSR(SB), NOSPLIT, $8-4
	STMXCSR 0(SP)
	MOVL 0(SP), AX
	MOVL AX, ret+0(FP)
	RET
