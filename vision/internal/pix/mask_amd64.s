//go:build amd64

#include "textflag.h"

// VPERMI2B indices that pick, out of 16 BGR pixels 6 bytes apart (every
// other pixel of a row, 96 bytes in two registers), their B, G and R
// bytes into the low 16 bytes.
DATA pickB6<>+0(SB)/8, $0x2a241e18120c0600
DATA pickB6<>+8(SB)/8, $0x5a544e48423c3630
GLOBL pickB6<>(SB), RODATA|NOPTR, $16
DATA pickG6<>+0(SB)/8, $0x2b251f19130d0701
DATA pickG6<>+8(SB)/8, $0x5b554f49433d3731
GLOBL pickG6<>(SB), RODATA|NOPTR, $16
DATA pickR6<>+0(SB)/8, $0x2c26201a140e0802
DATA pickR6<>+8(SB)/8, $0x5c56504a443e3832
GLOBL pickR6<>(SB), RODATA|NOPTR, $16

// func blueZ(row *uint8, v, sum, bg *int16, n int)
// 16 pixels a round: B-max(G,R), B+G+R, B-G in 16 bits. The second
// register loads only the 29 bytes the round reads (a masked load reads
// nothing past them).
TEXT ·blueZ(SB), NOSPLIT, $0-40
	MOVQ row+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ sum+16(FP), R8
	MOVQ bg+24(FP), R9
	MOVQ n+32(FP), CX
	MOVL $0x1fffffff, AX
	KMOVQ AX, K1
	VMOVDQU pickB6<>(SB), X10
	VMOVDQU pickG6<>(SB), X11
	VMOVDQU pickR6<>(SB), X12

bloop:
	CMPQ CX, $16
	JLT  bdone
	VMOVDQU8 (SI), Z0
	VMOVDQU8.Z 64(SI), K1, Z1
	VMOVDQA64 Z10, Z2
	VPERMI2B Z1, Z0, Z2        // B
	VMOVDQA64 Z11, Z3
	VPERMI2B Z1, Z0, Z3        // G
	VMOVDQA64 Z12, Z4
	VPERMI2B Z1, Z0, Z4        // R
	VPMOVZXBW X2, Y2
	VPMOVZXBW X3, Y3
	VPMOVZXBW X4, Y4
	VPMAXSW Y4, Y3, Y5
	VPSUBW Y5, Y2, Y5          // B - max(G, R)
	VPADDW Y3, Y2, Y6
	VPADDW Y4, Y6, Y6          // B + G + R
	VPSUBW Y3, Y2, Y7          // B - G
	VMOVDQU Y5, (DI)
	VMOVDQU Y6, (R8)
	VMOVDQU Y7, (R9)
	ADDQ $96, SI
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	SUBQ $16, CX
	JMP  bloop

bdone:
	VZEROUPPER
	RET

// func threshZ(v, sum, ts, tw *int16, seed, half *uint8, n int)
// 16 pixels a round: each pixel's thresholds gathered from the tables by
// its B+G+R (4-byte loads, the low 16 bits kept; SumTable has room past
// its last entry), compared with its value.
TEXT ·threshZ(SB), NOSPLIT, $0-56
	MOVQ v+0(FP), SI
	MOVQ sum+8(FP), DX
	MOVQ ts+16(FP), R8
	MOVQ tw+24(FP), R9
	MOVQ seed+32(FP), DI
	MOVQ half+40(FP), R10
	MOVQ n+48(FP), CX

tloop:
	CMPQ CX, $16
	JLT  tdone
	VPMOVSXWD (SI), Z0         // v
	VPMOVZXWD (DX), Z1         // B+G+R
	KXNORW K1, K1, K1
	VPXORD Z2, Z2, Z2
	VPGATHERDD (R8)(Z1*2), K1, Z2
	KXNORW K1, K1, K1
	VPXORD Z3, Z3, Z3
	VPGATHERDD (R9)(Z1*2), K1, Z3
	VPSLLD $16, Z2, Z2
	VPSRAD $16, Z2, Z2         // ts[sum]
	VPSLLD $16, Z3, Z3
	VPSRAD $16, Z3, Z3         // tw[sum]
	VPCMPD $5, Z2, Z0, K2      // v >= ts[sum]
	VPCMPD $5, Z3, Z0, K3      // v >= tw[sum]
	VPMOVM2B K2, X4
	VPABSB X4, X4              // 1 or 0
	VPMOVM2B K3, X5            // 255 or 0
	VMOVDQU X4, (DI)
	VMOVDQU X5, (R10)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $16, DI
	ADDQ $16, R10
	SUBQ $16, CX
	JMP  tloop

tdone:
	VZEROUPPER
	RET

// func keepZ(mask *uint8, lab *uint16, keep *uint8, last int32, n int)
// 16 pixels a round: keep[min(label, last)] gathered (4-byte loads, the
// low byte kept; keep has room past its end) and ANDed into the mask.
TEXT ·keepZ(SB), NOSPLIT, $0-40
	MOVQ mask+0(FP), DI
	MOVQ lab+8(FP), SI
	MOVQ keep+16(FP), R8
	MOVQ n+32(FP), CX
	MOVL last+24(FP), AX
	VPBROADCASTD AX, Z6

kloop:
	CMPQ CX, $16
	JLT  kdone
	VPMOVZXWD (SI), Z0
	VPMINUD Z6, Z0, Z0
	KXNORW K1, K1, K1
	VPXORD Z1, Z1, Z1
	VPGATHERDD (R8)(Z0*1), K1, Z1
	VPMOVDB Z1, X1             // the low bytes
	VPANDD (DI), X1, X1
	VMOVDQU X1, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  kloop

kdone:
	VZEROUPPER
	RET
