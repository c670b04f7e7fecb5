//go:build amd64

#include "textflag.h"

// VPERMB indices that pick, out of 16 BGR pixels (48 bytes), their B,
// their G and their R bytes into the low 16 bytes.
DATA pickB<>+0(SB)/8, $0x15120f0c09060300
DATA pickB<>+8(SB)/8, $0x2d2a2724211e1b18
DATA pickG<>+0(SB)/8, $0x1613100d0a070401
DATA pickG<>+8(SB)/8, $0x2e2b2825221f1c19
DATA pickR<>+0(SB)/8, $0x1714110e0b080502
DATA pickR<>+8(SB)/8, $0x2f2c292623201d1a
GLOBL pickB<>(SB), RODATA|NOPTR, $16
GLOBL pickG<>(SB), RODATA|NOPTR, $16
GLOBL pickR<>(SB), RODATA|NOPTR, $16

// func whiteZ(dst *int16, bgr *uint8, n int)
// 16 pixels a round: hi = max(B,G,R), lo = min(B,G,R), the saturation
// s = trunc(float32((hi-lo)*255) / float32(max(hi,1))) and dst = hi - s.
// The quotient's numerator and denominator are exact in float32 and a
// non-integer quotient lies at least 1/255 from the next integer, far
// more than float32's rounding moves it, so s is (hi-lo)*255/hi rounded
// down exactly (0 where hi is 0). No subnormal can arise.
TEXT ·whiteZ(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ bgr+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $0xffffffffffff, AX
	KMOVQ AX, K1               // the 48 bytes of 16 pixels
	MOVL $0x3f800000, AX
	VPBROADCASTD AX, Z14       // 1.0
	VMOVDQU pickB<>(SB), X10   // (a VEX load zeroes the rest of Z10)
	VMOVDQU pickG<>(SB), X11
	VMOVDQU pickR<>(SB), X12

loop:
	CMPQ CX, $16
	JLT  done
	VMOVDQU8.Z (SI), K1, Z0
	VPERMB Z0, Z10, Z1         // B in bytes 0..15
	VPERMB Z0, Z11, Z2         // G
	VPERMB Z0, Z12, Z3         // R
	VPMAXUB X2, X1, X4
	VPMAXUB X3, X4, X4         // hi
	VPMINUB X2, X1, X5
	VPMINUB X3, X5, X5         // lo
	VPMOVZXBD X4, Z4
	VPMOVZXBD X5, Z5
	VPSUBD Z5, Z4, Z6          // hi - lo
	VPSLLD $8, Z6, Z7
	VPSUBD Z6, Z7, Z7          // (hi - lo)*255
	VCVTDQ2PS Z7, Z7
	VCVTDQ2PS Z4, Z8
	VMAXPS Z14, Z8, Z8         // max(hi, 1)
	VDIVPS Z8, Z7, Z7
	VCVTTPS2DQ Z7, Z7          // s
	VPSUBD Z7, Z4, Z7          // hi - s
	VPMOVDW Z7, Y7
	VMOVDQU Y7, (DI)
	ADDQ $48, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  loop

done:
	VZEROUPPER
	RET
