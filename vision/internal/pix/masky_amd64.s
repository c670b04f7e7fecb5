//go:build amd64

#include "textflag.h"

// VPSHUFB indices that make, out of 8 BGR pixels 6 bytes apart (every
// other pixel of a row, 45 bytes loaded as three 16-byte blocks at 0, 16
// and 29), the words B | G<<8 (wordBG*) and R (wordR*) of the pixels one
// block holds, in their pixels' places (0x80: none here, a zero byte).
// Block 0 holds pixels 0-2, block 1 pixels 3-4, block 2 pixels 5-7.
DATA wordBG0<>+0(SB)/8, $0x80800d0c07060100
DATA wordBG0<>+8(SB)/8, $0x8080808080808080
GLOBL wordBG0<>(SB), RODATA|NOPTR, $16
DATA wordBG1<>+0(SB)/8, $0x0302808080808080
DATA wordBG1<>+8(SB)/8, $0x8080808080800908
GLOBL wordBG1<>(SB), RODATA|NOPTR, $16
DATA wordBG2<>+0(SB)/8, $0x8080808080808080
DATA wordBG2<>+8(SB)/8, $0x0e0d080702018080
GLOBL wordBG2<>(SB), RODATA|NOPTR, $16
DATA wordR0<>+0(SB)/8, $0x8080800e80088002
DATA wordR0<>+8(SB)/8, $0x8080808080808080
GLOBL wordR0<>(SB), RODATA|NOPTR, $16
DATA wordR1<>+0(SB)/8, $0x8004808080808080
DATA wordR1<>+8(SB)/8, $0x808080808080800a
GLOBL wordR1<>(SB), RODATA|NOPTR, $16
DATA wordR2<>+0(SB)/8, $0x8080808080808080
DATA wordR2<>+8(SB)/8, $0x800f800980038080
GLOBL wordR2<>(SB), RODATA|NOPTR, $16

// lowWord is 0x00ff in every word.
DATA lowWord<>+0(SB)/4, $0x00ff00ff
GLOBL lowWord<>(SB), RODATA|NOPTR, $4

// pick6Y gathers into dst the words the tables t0-t2 pick out of the
// blocks in Y0-Y2 (per 128-bit lane: 8 pixels in each), ORed. It uses Y4.
#define pick6Y(t0, t1, t2, dst) \
	VPSHUFB t0, Y0, dst \
	VPSHUFB t1, Y1, Y4 \
	VPOR Y4, dst, dst \
	VPSHUFB t2, Y2, Y4 \
	VPOR Y4, dst, dst

// func blueY(row *uint8, v, sum, bg *int16, n int)
// 16 pixels a round, by AVX2: pixels 0-7 in the low lanes, 8-15 in the
// high ones (the blocks at 48, 64 and 77 bytes), their B | G<<8 and R
// words sorted out with VPSHUFB (tables in Y9-Y14, 0x00ff in Y15), then
// B-max(G,R), B+G+R and B-G in 16 bits. The round reads its 93 bytes,
// none past the last pixel's R.
TEXT ·blueY(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ sum+16(FP), R8
	MOVQ bg+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTI128 wordBG0<>(SB), Y9
	VBROADCASTI128 wordBG1<>(SB), Y10
	VBROADCASTI128 wordBG2<>(SB), Y11
	VBROADCASTI128 wordR0<>(SB), Y12
	VBROADCASTI128 wordR1<>(SB), Y13
	VBROADCASTI128 wordR2<>(SB), Y14
	VPBROADCASTD lowWord<>(SB), Y15

bloop:
	CMPQ CX, $16
	JLT  bdone
	VMOVDQU (SI), X0
	VINSERTI128 $1, 48(SI), Y0, Y0
	VMOVDQU 16(SI), X1
	VINSERTI128 $1, 64(SI), Y1, Y1
	VMOVDQU 29(SI), X2
	VINSERTI128 $1, 77(SI), Y2, Y2
	pick6Y(Y9, Y10, Y11, Y3)   // B | G<<8
	pick6Y(Y12, Y13, Y14, Y5)  // R
	VPAND Y15, Y3, Y6          // B
	VPSRLW $8, Y3, Y7          // G
	VPMAXSW Y5, Y7, Y8
	VPSUBW Y8, Y6, Y8          // B - max(G, R)
	VPADDW Y7, Y6, Y3
	VPADDW Y5, Y3, Y3          // B + G + R
	VPSUBW Y7, Y6, Y4          // B - G
	VMOVDQU Y8, (DI)
	VMOVDQU Y3, (R8)
	VMOVDQU Y4, (R9)
	ADDQ $96, SI
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	SUBQ $16, CX
	JMP  bloop

bdone:
	VZEROUPPER
	RET

// VPSHUFB indices that sort, in each lane, 8 pairs of bytes into their
// first bytes, then their second ones.
DATA unpair<>+0(SB)/8, $0x0e0c0a0806040200
DATA unpair<>+8(SB)/8, $0x0f0d0b0907050301
GLOBL unpair<>(SB), RODATA|NOPTR, $16

// func threshY(v, sum, ts, tw *int16, seed, half *uint8, n int)
// By AVX2: first the two tables as one on the stack, ts[s] | tw[s]<<16
// for every s (768 dwords), so that one gather finds both thresholds of
// 8 pixels; then 16 pixels a round: the dwords gathered by B+G+R, for
// pixels 0-3, 8-11 and 4-7, 12-15 (the sums and values unpacked in that
// order), compared as words with each value twice (ts > v, tw > v), the
// marks packed to bytes and sorted (VPSHUFB, VPERMQ), and negated into v
// >= ts as 1 or 0 (seed) and v >= tw as 255 or 0 (half). R11 is the
// table, Y12 the gathers' mask, Y13 the unpair indices, Y14 zero, Y15
// all ones. (A gather's destination is zeroed first so that it does not
// wait for the register's last value, which it would merge with.)
TEXT ·threshY(SB), $3072-56
	MOVQ v+0(FP), SI
	MOVQ sum+8(FP), DX
	MOVQ ts+16(FP), R8
	MOVQ tw+24(FP), R9
	MOVQ seed+32(FP), DI
	MOVQ half+40(FP), R10
	MOVQ n+48(FP), CX
	LEAQ (SP), R11
	XORQ AX, AX

tpair:
	VMOVDQU (R8)(AX*1), Y0       // ts[s], 16 of them
	VMOVDQU (R9)(AX*1), Y1       // tw[s]
	VPUNPCKLWD Y1, Y0, Y2        // s 0-3 | 8-11
	VPUNPCKHWD Y1, Y0, Y3        // s 4-7 | 12-15
	VPERM2I128 $0x20, Y3, Y2, Y4 // s 0-7
	VPERM2I128 $0x31, Y3, Y2, Y5 // s 8-15
	VMOVDQU Y4, (R11)(AX*2)
	VMOVDQU Y5, 32(R11)(AX*2)
	ADDQ $32, AX
	CMPQ AX, $1536
	JLT  tpair
	VBROADCASTI128 unpair<>(SB), Y13
	VPXOR Y14, Y14, Y14
	VPCMPEQD Y15, Y15, Y15

tloop:
	CMPQ CX, $16
	JLT  tdone
	VMOVDQU (DX), Y0
	VPUNPCKLWD Y14, Y0, Y1     // B+G+R of pixels 0-3 | 8-11, as dwords
	VPUNPCKHWD Y14, Y0, Y0     // of 4-7 | 12-15
	VMOVDQA Y15, Y12
	VPXOR Y2, Y2, Y2
	VPGATHERDD Y12, (R11)(Y1*4), Y2
	VMOVDQA Y15, Y12
	VPXOR Y3, Y3, Y3
	VPGATHERDD Y12, (R11)(Y0*4), Y3
	VMOVDQU (SI), Y4
	VPUNPCKLWD Y4, Y4, Y5      // v of 0-3 | 8-11, each twice
	VPUNPCKHWD Y4, Y4, Y4      // of 4-7 | 12-15
	VPCMPGTW Y5, Y2, Y2        // ts > v, tw > v
	VPCMPGTW Y4, Y3, Y3
	VPACKSSWB Y3, Y2, Y2       // pixels 0-7 | 8-15, a pair of bytes each
	VPSHUFB Y13, Y2, Y2
	VPERMQ $0xd8, Y2, Y2       // ts > v of pixels 0-15, then tw > v
	VPXOR Y15, Y2, Y2          // v >= ts, v >= tw: -1 or 0
	VEXTRACTI128 $1, Y2, (R10) // 255 or 0
	VPABSB X2, X2              // 1 or 0
	VMOVDQU X2, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $16, DI
	ADDQ $16, R10
	SUBQ $16, CX
	JMP  tloop

tdone:
	VZEROUPPER
	RET

// VPSHUFB indices that take the low bytes of the 8 dwords of a gather of
// pixels 0-7 (keepLo) or 8-15 (keepHi) to their pixels' places: 0-3 and
// 8-11 in the low lane, 4-7 and 12-15 in the high one, so that the two
// lanes ORed are the 16 pixels in order.
DATA keepLo<>+0(SB)/8, $0x808080800c080400
DATA keepLo<>+8(SB)/8, $0x8080808080808080
DATA keepLo<>+16(SB)/8, $0x0c08040080808080
DATA keepLo<>+24(SB)/8, $0x8080808080808080
GLOBL keepLo<>(SB), RODATA|NOPTR, $32
DATA keepHi<>+0(SB)/8, $0x8080808080808080
DATA keepHi<>+8(SB)/8, $0x808080800c080400
DATA keepHi<>+16(SB)/8, $0x8080808080808080
DATA keepHi<>+24(SB)/8, $0x0c08040080808080
GLOBL keepHi<>(SB), RODATA|NOPTR, $32

// func keepY(mask *uint8, lab *uint16, keep *uint8, last int32, n int)
// 16 pixels a round, by AVX2: keep[min(label, last)] gathered 8 at a time
// (4-byte loads, the low byte kept; keep has room past its end), the low
// bytes sorted into place (tables in Y8, Y9), the lanes ORed and ANDed
// into the mask. Y6 is last in every dword, Y7 the gathers' mask (their
// destinations zeroed first, as in threshY).
TEXT ·keepY(SB), NOSPLIT, $0-40
	MOVQ mask+0(FP), DI
	MOVQ lab+8(FP), SI
	MOVQ keep+16(FP), R8
	MOVQ n+32(FP), CX
	MOVL last+24(FP), AX
	VMOVD AX, X6
	VPBROADCASTD X6, Y6
	VMOVDQU keepLo<>(SB), Y8
	VMOVDQU keepHi<>(SB), Y9

kloop:
	CMPQ CX, $16
	JLT  kdone
	VPMOVZXWD (SI), Y0         // labels of pixels 0-7
	VPMOVZXWD 16(SI), Y1       // of 8-15
	VPMINUD Y6, Y0, Y0
	VPMINUD Y6, Y1, Y1
	VPCMPEQD Y7, Y7, Y7
	VPXOR Y2, Y2, Y2
	VPGATHERDD Y7, (R8)(Y0*1), Y2
	VPCMPEQD Y7, Y7, Y7
	VPXOR Y3, Y3, Y3
	VPGATHERDD Y7, (R8)(Y1*1), Y3
	VPSHUFB Y8, Y2, Y2
	VPSHUFB Y9, Y3, Y3
	VPOR Y3, Y2, Y2
	VEXTRACTI128 $1, Y2, X3
	VPOR X3, X2, X2            // keep[label] of the 16 pixels
	VPAND (DI), X2, X2
	VMOVDQU X2, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  kloop

kdone:
	VZEROUPPER
	RET
