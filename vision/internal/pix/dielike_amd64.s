//go:build amd64

#include "textflag.h"
#include "macros_amd64.h"

// func dieZ(s *Sampler, t *DieTest, img *uint8, u, v, x, y *float64, flags *uint8, n int)
// DieTest.die at 8 projected points at a time: the Go code's operations
// in double precision and its order, the saturation's division in
// float32, truncated (exact: see whiteZ). The nearest pixel's B, G, R are
// one 4-byte gather from at most s.last, shifted down where that moved
// it (as sampleZ).
TEXT ·dieZ(SB), NOSPLIT, $0-72
	MOVQ s+0(FP), AX
	MOVQ t+8(FP), BX
	MOVQ img+16(FP), SI
	MOVQ u+24(FP), R8
	MOVQ v+32(FP), R9
	MOVQ x+40(FP), R10
	MOVQ y+48(FP), R11
	MOVQ flags+56(FP), R12
	MOVQ n+64(FP), CX
	VPXORQ Z30, Z30, Z30
	MOVL $0xff, DX
	VPBROADCASTD DX, Y29       // byte mask

dloop:
	CMPQ CX, $8
	JLT  ddone
	VMOVUPD (R8), Z0           // u
	VMOVUPD (R9), Z1           // v
	PROJECT                    // px (Z4), py (Z5); K1: in front
	VMOVUPD Z4, (R10)
	VMOVUPD Z5, (R11)
	// the nearest pixel in the frame (K2)
	NEAREST(88(BX), 80(BX), 232(AX), 240(AX), K1, K2, Z8, Z9, Y8, Y9)
	VPMULLD.BCST 232(AX), Y9, Y10
	VPADDD Y8, Y10, Y10
	VPADDD Y10, Y10, Y11
	VPADDD Y11, Y10, Y10       // 3*(iy*w + ix)
	PIXEL(K2, Y10, Y13, Y11, Y12)
	VPANDD Y29, Y13, Y14       // B
	VPSRLD $8, Y13, Y15
	VPANDD Y29, Y15, Y15       // G
	VPSRLD $16, Y13, Y16
	VPANDD Y29, Y16, Y16       // R
	VPADDD Y15, Y14, Y17
	VPADDD Y16, Y17, Y17       // sum
	VPCMPD.BCST $1, 96(BX), Y17, K2, K4 // dark: sum < 30
	// chroma
	VCVTDQ2PD Y17, Z18         // float sum
	VCVTDQ2PD Y16, Z19
	VDIVPD Z18, Z19, Z19       // r/sum
	VCVTDQ2PD Y15, Z20
	VDIVPD Z18, Z20, Z20       // g/sum
	// near the card: sqrt(dx*dx + dy*dy) < CardTol
	VSUBPD.BCST 0(BX), Z19, Z21
	VSUBPD.BCST 8(BX), Z20, Z22
	VMULPD Z21, Z21, Z21
	VMULPD Z22, Z22, Z22
	VADDPD Z22, Z21, Z21
	VSQRTPD Z21, Z21
	VCMPPD.BCST $1, 32(BX), Z21, K5 // near the card
	// blue: bl = (b - max(g,r))/sum >= 0.015 and b - max(g,r) >= 4
	VPMAXSD Y16, Y15, Y23      // max(g, r)
	VPSUBD Y23, Y14, Y24       // b - max(g, r)
	VCVTDQ2PD Y24, Z25
	VDIVPD Z18, Z25, Z25       // bl
	VCMPPD.BCST $13, 64(BX), Z25, K6
	VPCMPD.BCST $5, 100(BX), Y24, K6, K6
	KORW K6, K5, K5            // near the card or blue
	// the white line work: bl > -0.04, sat < 60, value > 150
	VPMAXSD Y23, Y14, Y26      // value
	VPMINSD Y16, Y15, Y27
	VPMINSD Y27, Y14, Y27      // lowest
	VPSUBD Y27, Y26, Y27
	VPSLLD $8, Y27, Y28
	VPSUBD Y27, Y28, Y27       // (value - lowest)*255
	VCVTDQ2PS Y27, Y27
	VCVTDQ2PS Y26, Y28
	VDIVPS Y28, Y27, Y27
	VCVTTPS2DQ Y27, Y27        // saturation
	VCMPPD.BCST $14, 72(BX), Z25, K6
	VPCMPD.BCST $1, 104(BX), Y27, K6, K6
	VPCMPD.BCST $6, 108(BX), Y26, K6, K6
	KORW K6, K5, K5            // card-like
	// far from the table's chroma, or far darker or brighter
	VSUBPD.BCST 16(BX), Z19, Z21
	VSUBPD.BCST 24(BX), Z20, Z22
	VMULPD Z21, Z21, Z21
	VMULPD Z22, Z22, Z22
	VADDPD Z22, Z21, Z21
	VSQRTPD Z21, Z21
	VCMPPD.BCST $13, 40(BX), Z21, K6 // far from the table
	VCMPPD.BCST $1, 48(BX), Z18, K7
	KORW K7, K6, K6
	VCMPPD.BCST $14, 56(BX), Z18, K7
	KORW K7, K6, K6            // a die unless card-like
	KANDNW K6, K5, K6          // ... and not card-like
	KORW K4, K6, K6
	KANDW K2, K6, K6           // die-like, in the frame
	// flags: 1 in front, 2 die-like
	VPBROADCASTD.Z 112(BX), K1, Y20
	VPBROADCASTD.Z 116(BX), K6, Y21
	VPORD Y21, Y20, Y20
	VPMOVDB Y20, X20
	VMOVQ X20, (R12)
	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $64, R10
	ADDQ $64, R11
	ADDQ $8, R12
	SUBQ $8, CX
	JMP  dloop

ddone:
	VZEROUPPER
	RET
