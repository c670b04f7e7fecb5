//go:build amd64

#include "textflag.h"

// func shiftY(d0, d1, d2, in *float32, n int)
// shiftPlanes' three copies of one plane of n values: each run of 8
// values of in is stored at d0, d1 and d2 (the copies' first values to
// write), the last n%8 one by one. The caller zeroes what the shifts run
// into: the columns past the plane's edges and copy 0's and copy 2's
// first and last value written outside rows 1..side. Registers: SI the
// plane, DI, R8 and R9 the three destinations, CX the values left.
TEXT ·shiftY(SB), NOSPLIT, $0-40
	MOVQ d0+0(FP), DI
	MOVQ d1+8(FP), R8
	MOVQ d2+16(FP), R9
	MOVQ in+24(FP), SI
	MOVQ n+32(FP), CX

vec:
	CMPQ CX, $8
	JLT  tail
	VMOVUPS (SI), Y0
	VMOVUPS Y0, (DI)
	VMOVUPS Y0, (R8)
	VMOVUPS Y0, (R9)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	SUBQ $8, CX
	JMP  vec

tail:
	TESTQ CX, CX
	JEQ   done
	MOVL (SI), AX
	MOVL AX, (DI)
	MOVL AX, (R8)
	MOVL AX, (R9)
	ADDQ $4, SI
	ADDQ $4, DI
	ADDQ $4, R8
	ADDQ $4, R9
	DECQ CX
	JMP  tail

done:
	VZEROUPPER
	RET
