//go:build amd64

#include "textflag.h"
#include "macrosy_amd64.h"

// spread4<>[m] holds bit i of m (0..15) in its byte i: the flags of 4
// lanes from VMOVMSKPD's 4 bits.
DATA spread4<>+0(SB)/4, $0x00000000
DATA spread4<>+4(SB)/4, $0x00000001
DATA spread4<>+8(SB)/4, $0x00000100
DATA spread4<>+12(SB)/4, $0x00000101
DATA spread4<>+16(SB)/4, $0x00010000
DATA spread4<>+20(SB)/4, $0x00010001
DATA spread4<>+24(SB)/4, $0x00010100
DATA spread4<>+28(SB)/4, $0x00010101
DATA spread4<>+32(SB)/4, $0x01000000
DATA spread4<>+36(SB)/4, $0x01000001
DATA spread4<>+40(SB)/4, $0x01000100
DATA spread4<>+44(SB)/4, $0x01000101
DATA spread4<>+48(SB)/4, $0x01010000
DATA spread4<>+52(SB)/4, $0x01010001
DATA spread4<>+56(SB)/4, $0x01010100
DATA spread4<>+60(SB)/4, $0x01010101
GLOBL spread4<>(SB), RODATA|NOPTR, $64

// func dieY(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int)
// DieTest.die at 4 projected points at a time by AVX2, as dieZ: the Go
// code's operations in double precision and its order, the saturation's
// division in float32, truncated (exact: see whiteZ). The nearest
// pixel's B, G, R are one 4-byte gather from at most s.last, shifted
// down where that moved it. The tests on doubles give masks of 4
// quadwords, those on integers masks of 4 dwords (widened by VPMOVSXDQ
// where they meet); the flags are the masks' sign bits (VMOVMSKPD)
// spread to bytes.
TEXT ·dieY(SB), NOSPLIT, $0-72
	MOVQ s+0(FP), AX
	MOVQ t+8(FP), BX
	MOVQ img+16(FP), SI
	MOVQ u+24(FP), R8
	MOVQ v+32(FP), R9
	MOVQ x+40(FP), R10
	MOVQ y+48(FP), R11
	MOVQ flags+56(FP), R12
	MOVQ n+64(FP), CX
	LEAQ spread4<>(SB), R13
	VPCMPEQD Y15, Y15, Y15
	VPSRLD $24, Y15, Y15       // byte mask

loop:
	CMPQ CX, $4
	JLT  done
	VMOVUPD (R8), Y0           // u
	VMOVUPD (R9), Y1           // v
	PROJECTY                   // px (Y4), py (Y5); Y7: in front
	VMOVUPD Y4, (R10)
	VMOVUPD Y5, (R11)
	VMOVMSKPD Y7, DX           // flag 1: in front
	// the nearest pixel in the frame (X8); (ix, iy) in (X4, X5)
	NEARESTY(88(BX), 80(BX), 232(AX), 240(AX), X8)
	VPMULLD X2, X5, X5
	VPADDD X4, X5, X5
	VPADDD X5, X5, X1
	VPADDD X1, X5, X5          // 3*(iy*w + ix)
	// its B, G, R: 4 bytes from at most s.last, shifted down
	VPBROADCASTD 244(AX), X1
	VPMINSD X1, X5, X1
	VPSUBD X1, X5, X2
	VPSLLD $3, X2, X2
	GATHERY(X8, SI, X1, 1, X9, X3)
	VPSRLVD X2, X9, X9
	VPAND X15, X9, X10         // B
	VPSRLD $8, X9, X11
	VPAND X15, X11, X11        // G
	VPSRLD $16, X9, X12
	VPAND X15, X12, X12        // R
	VPADDD X11, X10, X13
	VPADDD X12, X13, X13       // sum
	VPBROADCASTD 96(BX), X0
	VPCMPGTD X13, X0, X14      // dark: sum < 30
	// chroma
	VCVTDQ2PD X13, Y0          // float sum
	VCVTDQ2PD X12, Y1
	VDIVPD Y0, Y1, Y1          // r/sum
	VCVTDQ2PD X11, Y2
	VDIVPD Y0, Y2, Y2          // g/sum
	// near the card: sqrt(dx*dx + dy*dy) < CardTol
	VBROADCASTSD 0(BX), Y3
	VSUBPD Y3, Y1, Y3
	VBROADCASTSD 8(BX), Y4
	VSUBPD Y4, Y2, Y4
	VMULPD Y3, Y3, Y3
	VMULPD Y4, Y4, Y4
	VADDPD Y4, Y3, Y3
	VSQRTPD Y3, Y3
	VBROADCASTSD 32(BX), Y4
	VCMPPD $1, Y4, Y3, Y5      // near the card
	// blue: bl = (b - max(g,r))/sum >= 0.015 and b - max(g,r) >= 4
	VPMAXSD X12, X11, X3       // max(g, r)
	VPSUBD X3, X10, X4         // b - max(g, r)
	VCVTDQ2PD X4, Y6
	VDIVPD Y0, Y6, Y6          // bl
	VBROADCASTSD 64(BX), Y7
	VCMPPD $13, Y7, Y6, Y7
	VPBROADCASTD 100(BX), X9
	VPCMPGTD X4, X9, X9        // b - max(g, r) < 4
	VPMOVSXDQ X9, Y9
	VANDNPD Y7, Y9, Y7
	VORPD Y7, Y5, Y5           // near the card or blue
	// the white line work: bl > -0.04, sat < 60, value > 150
	VPMAXSD X3, X10, X3        // value
	VPMINSD X12, X11, X4
	VPMINSD X4, X10, X4        // lowest
	VPSUBD X4, X3, X4
	VPSLLD $8, X4, X9
	VPSUBD X4, X9, X4          // (value - lowest)*255
	VCVTDQ2PS X4, X4
	VCVTDQ2PS X3, X9
	VDIVPS X9, X4, X4
	VCVTTPS2DQ X4, X4          // saturation
	VPBROADCASTD 104(BX), X9
	VPCMPGTD X4, X9, X4        // sat < 60
	VPBROADCASTD 108(BX), X9
	VPCMPGTD X9, X3, X3        // value > 150
	VPAND X3, X4, X4
	VPMOVSXDQ X4, Y4
	VBROADCASTSD 72(BX), Y7
	VCMPPD $14, Y7, Y6, Y7
	VANDPD Y7, Y4, Y4
	VORPD Y4, Y5, Y5           // card-like
	// far from the table's chroma, or far darker or brighter
	VBROADCASTSD 16(BX), Y3
	VSUBPD Y3, Y1, Y1
	VBROADCASTSD 24(BX), Y3
	VSUBPD Y3, Y2, Y2
	VMULPD Y1, Y1, Y1
	VMULPD Y2, Y2, Y2
	VADDPD Y2, Y1, Y1
	VSQRTPD Y1, Y1
	VBROADCASTSD 40(BX), Y3
	VCMPPD $13, Y3, Y1, Y1     // far from the table
	VBROADCASTSD 48(BX), Y3
	VCMPPD $1, Y3, Y0, Y2
	VORPD Y2, Y1, Y1
	VBROADCASTSD 56(BX), Y3
	VCMPPD $14, Y3, Y0, Y2
	VORPD Y2, Y1, Y1           // a die unless card-like
	VANDNPD Y1, Y5, Y1         // ... and not card-like
	VPMOVSXDQ X14, Y2
	VORPD Y2, Y1, Y1           // or dark
	VPMOVSXDQ X8, Y2
	VANDPD Y2, Y1, Y1          // die-like, in the frame
	// flags: 1 in front, 2 die-like
	VMOVMSKPD Y1, DI
	MOVL (R13)(DX*4), DX
	MOVL (R13)(DI*4), DI
	LEAL (DX)(DI*2), DX
	MOVL DX, (R12)
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $4, R12
	SUBQ $4, CX
	JMP  loop

done:
	VZEROUPPER
	RET
