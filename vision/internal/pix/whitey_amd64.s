//go:build amd64

#include "textflag.h"

// VPSHUFB indices that pick, out of 16 BGR pixels (48 bytes, loaded as
// three 16-byte blocks), the B, G or R bytes one block holds into their
// pixels' places (0x80: none here, a zero byte).
DATA shufB0<>+0(SB)/8, $0x80800f0c09060300
DATA shufB0<>+8(SB)/8, $0x8080808080808080
GLOBL shufB0<>(SB), RODATA|NOPTR, $16
DATA shufB1<>+0(SB)/8, $0x0502808080808080
DATA shufB1<>+8(SB)/8, $0x80808080800e0b08
GLOBL shufB1<>(SB), RODATA|NOPTR, $16
DATA shufB2<>+0(SB)/8, $0x8080808080808080
DATA shufB2<>+8(SB)/8, $0x0d0a070401808080
GLOBL shufB2<>(SB), RODATA|NOPTR, $16
DATA shufG0<>+0(SB)/8, $0x8080800d0a070401
DATA shufG0<>+8(SB)/8, $0x8080808080808080
GLOBL shufG0<>(SB), RODATA|NOPTR, $16
DATA shufG1<>+0(SB)/8, $0x0603008080808080
DATA shufG1<>+8(SB)/8, $0x80808080800f0c09
GLOBL shufG1<>(SB), RODATA|NOPTR, $16
DATA shufG2<>+0(SB)/8, $0x8080808080808080
DATA shufG2<>+8(SB)/8, $0x0e0b080502808080
GLOBL shufG2<>(SB), RODATA|NOPTR, $16
DATA shufR0<>+0(SB)/8, $0x8080800e0b080502
DATA shufR0<>+8(SB)/8, $0x8080808080808080
GLOBL shufR0<>(SB), RODATA|NOPTR, $16
DATA shufR1<>+0(SB)/8, $0x0704018080808080
DATA shufR1<>+8(SB)/8, $0x8080808080800d0a
GLOBL shufR1<>(SB), RODATA|NOPTR, $16
DATA shufR2<>+0(SB)/8, $0x8080808080808080
DATA shufR2<>+8(SB)/8, $0x0f0c090603008080
GLOBL shufR2<>(SB), RODATA|NOPTR, $16

// one32 is 1.0 in float32.
DATA one32<>+0(SB)/4, $0x3f800000
GLOBL one32<>(SB), RODATA|NOPTR, $4

// pickY gathers one channel of the 16 pixels in X0-X2 into dst: each
// block's bytes shuffled into place by its table, then ORed. It uses X6.
#define pickY(t0, t1, t2, dst) \
	VPSHUFB t0, X0, dst \
	VPSHUFB t1, X1, X6 \
	VPOR X6, dst, dst \
	VPSHUFB t2, X2, X6 \
	VPOR X6, dst, dst

// whiteHalfY computes, for the 8 pixels whose hi and lo bytes are the low
// 8 bytes of X7 and X8, hi - trunc(float32((hi-lo)*255) / float32(max(hi,
// 1))) into the 8 dwords of dstY (1.0 broadcast in Y15), as whiteZ does.
// It uses Y9-Y12.
#define whiteHalfY(dstY) \
	VPMOVZXBD X7, Y9 \
	VPMOVZXBD X8, Y10 \
	VPSUBD Y10, Y9, Y10 \
	VPSLLD $8, Y10, Y11 \
	VPSUBD Y10, Y11, Y11 \
	VCVTDQ2PS Y11, Y11 \
	VCVTDQ2PS Y9, Y12 \
	VMAXPS Y15, Y12, Y12 \
	VDIVPS Y12, Y11, Y11 \
	VCVTTPS2DQ Y11, Y11 \
	VPSUBD Y11, Y9, dstY

// func whiteY(dst *int16, bgr *uint8, n int)
// 16 pixels a round, by AVX2: the B, G and R bytes sorted out with
// VPSHUFB, hi = max(B,G,R), lo = min(B,G,R), then as whiteZ (the same
// float32 quotient, exact for the same reason) eight pixels at a time.
TEXT ·whiteY(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ bgr+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS one32<>(SB), Y15

loop:
	CMPQ CX, $16
	JLT  done
	VMOVDQU (SI), X0
	VMOVDQU 16(SI), X1
	VMOVDQU 32(SI), X2
	pickY(shufB0<>(SB), shufB1<>(SB), shufB2<>(SB), X3) // B
	pickY(shufG0<>(SB), shufG1<>(SB), shufG2<>(SB), X4) // G
	pickY(shufR0<>(SB), shufR1<>(SB), shufR2<>(SB), X5) // R
	VPMAXUB X4, X3, X7
	VPMAXUB X5, X7, X7         // hi
	VPMINUB X4, X3, X8
	VPMINUB X5, X8, X8         // lo
	whiteHalfY(Y13)            // pixels 0..7
	VPSRLDQ $8, X7, X7
	VPSRLDQ $8, X8, X8
	whiteHalfY(Y14)            // pixels 8..15
	VPACKSSDW Y14, Y13, Y13    // per lane: 0..3, 8..11 | 4..7, 12..15
	VPERMQ  $0xd8, Y13, Y13    // 0..7, 8..15
	VMOVDQU Y13, (DI)
	ADDQ $48, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JMP  loop

done:
	VZEROUPPER
	RET
