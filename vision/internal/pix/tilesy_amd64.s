//go:build amd64

#include "textflag.h"
#include "macrosy_amd64.h"

// Tiles' kernels by AVX2: 4 points at a time, as alongZ and nearestZ
// (white_amd64.s) do 8: the Go code's double-precision operations in its
// order (no fused multiply-adds), so the same bits; +Inf where a tile
// the point reads is not filled yet. The values are gathered at every
// in-frame point, beside the tiles' done flags rather than after them
// (so that the loads overlap): those of tiles not filled are replaced. A
// pixel's value and its right-hand neighbour's are one 4-byte gather
// (the neighbour read with weight 0 where the pixel ends its row). The
// tests on doubles give masks of 4 quadwords, those on integers masks of
// 4 dwords (QTODY and VPMOVSXDQ convert).

// func alongY(a *tileArgs, fr, out *float64, n int) int
TEXT ·alongY(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), AX
	MOVQ fr+8(FP), R8
	MOVQ out+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ 96(AX), SI            // plane
	MOVQ 104(AX), DI           // done
	XORQ DX, DX                // points done
	VBROADCASTSD 48(AX), Y15   // 1.0
	VBROADCASTSD 56(AX), Y14   // NaN
	VBROADCASTSD 136(AX), Y13  // +Inf

aloop:
	LEAQ 4(DX), BX
	CMPQ BX, CX
	JGT  adone
	VMOVUPD (R8)(DX*8), Y0     // f
	VBROADCASTSD 16(AX), Y1
	VMULPD Y1, Y0, Y1
	VBROADCASTSD 0(AX), Y2
	VADDPD Y2, Y1, Y1          // x = x0 + f*dx
	VBROADCASTSD 24(AX), Y2
	VMULPD Y2, Y0, Y2
	VBROADCASTSD 8(AX), Y3
	VADDPD Y3, Y2, Y2          // y = y0 + f*dy
	// inside (X4): x >= 0, y >= 0, x <= w-1, y <= h-1
	VXORPD Y3, Y3, Y3
	VCMPPD $13, Y3, Y1, Y4
	VCMPPD $13, Y3, Y2, Y5
	VANDPD Y5, Y4, Y4
	VBROADCASTSD 32(AX), Y3
	VCMPPD $2, Y3, Y1, Y5
	VANDPD Y5, Y4, Y4
	VBROADCASTSD 40(AX), Y3
	VCMPPD $2, Y3, Y2, Y5
	VANDPD Y5, Y4, Y4
	QTODY(Y4, X4, X5, X4)
	VCVTTPD2DQY Y1, X5         // x0
	VCVTTPD2DQY Y2, X6         // y0
	VPBROADCASTD 80(AX), X7    // 1
	VPADDD X7, X5, X8
	VPBROADCASTD 68(AX), X9
	VPMINSD X9, X8, X8         // x1 = min(x0+1, w-1)
	VPADDD X7, X6, X9
	VPBROADCASTD 72(AX), X10
	VPMINSD X10, X9, X9        // y1 = min(y0+1, h-1)
	// the tiles' flags: rows y0 and y1, tiles x0/64 and x1/64
	VPSRLD $6, X5, X10
	VPSRLD $6, X8, X8
	VPCMPEQD X10, X8, X8       // x1 lies in x0's tile
	VPBROADCASTD 76(AX), X7    // perRow
	VPMULLD X7, X6, X11
	VPADDD X10, X11, X11
	VPMULLD X7, X9, X12
	VPADDD X10, X12, X12
	GATHERY(X4, DI, X11, 1, X7, X3)
	GATHERY(X4, DI, X12, 1, X10, X3)
	VPAND X10, X7, X7          // filled in both rows
	VPXOR X12, X12, X12
	VPBROADCASTD 84(AX), X10
	VPAND X10, X7, X11
	VPCMPEQD X12, X11, X11     // tile x0/64 not
	VPBROADCASTD 88(AX), X10
	VPAND X10, X7, X7
	VPCMPEQD X12, X7, X7       // the next one not
	VPANDN X7, X8, X7          // ... and x1 lies there
	VPOR X7, X11, X11          // not ready
	VPAND X4, X11, X12         // inside and not ready: +Inf
	// the values: pixels (x0, y0), (x0+1, y0) and (x0, y1), (x0+1, y1),
	// at every point inside (those of tiles not filled are replaced)
	VPBROADCASTD 64(AX), X7    // w
	VPMULLD X7, X6, X10
	VPADDD X5, X10, X10
	VPMULLD X7, X9, X11
	VPADDD X5, X11, X11
	GATHERY(X4, SI, X10, 2, X7, X3)
	GATHERY(X4, SI, X11, 2, X9, X3)
	VCVTDQ2PD X5, Y0
	VSUBPD Y0, Y1, Y0          // fx
	VCVTDQ2PD X6, Y1
	VSUBPD Y1, Y2, Y1          // fy
	VSUBPD Y0, Y15, Y2         // 1-fx
	VSUBPD Y1, Y15, Y3         // 1-fy
	VPSLLD $16, X7, X5
	VPSRAD $16, X5, X5
	VCVTDQ2PD X5, Y5           // w00
	VPSRAD $16, X7, X6
	VCVTDQ2PD X6, Y6           // w10
	VMULPD Y2, Y5, Y5
	VMULPD Y0, Y6, Y6
	VADDPD Y6, Y5, Y5
	VPSLLD $16, X9, X6
	VPSRAD $16, X6, X6
	VCVTDQ2PD X6, Y6           // w01
	VPSRAD $16, X9, X7
	VCVTDQ2PD X7, Y7           // w11
	VMULPD Y2, Y6, Y6
	VMULPD Y0, Y7, Y7
	VADDPD Y7, Y6, Y6
	VMULPD Y3, Y5, Y5
	VMULPD Y1, Y6, Y6
	VADDPD Y6, Y5, Y5
	VPMOVSXDQ X4, Y4
	VBLENDVPD Y4, Y5, Y14, Y5  // NaN outside
	VPMOVSXDQ X12, Y12
	VBLENDVPD Y12, Y13, Y5, Y5 // +Inf where a tile is not filled
	VMOVUPD Y5, (R9)(DX*8)
	ADDQ $4, DX
	JMP  aloop

adone:
	VZEROUPPER
	MOVQ DX, ret+32(FP)
	RET

// func nearestY(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int
TEXT ·nearestY(SB), NOSPLIT, $0-64
	MOVQ s+0(FP), AX
	MOVQ a+8(FP), BX
	MOVQ u+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ out+32(FP), R10
	MOVQ idx+40(FP), R12
	MOVQ n+48(FP), CX
	MOVQ 96(BX), SI            // plane
	MOVQ 104(BX), DI           // done
	XORQ DX, DX
	VBROADCASTSD 136(BX), Y13  // +Inf

nloop:
	LEAQ 4(DX), R11
	CMPQ R11, CX
	JGT  ndone
	VMOVUPD (R8)(DX*8), Y0     // u
	VMOVUPD (R9)(DX*8), Y1     // v
	PROJECTY                   // px (Y4), py (Y5); Y7: in front
	// the nearest pixel (X4, X5) in the frame (X8)
	NEARESTY(120(BX), 112(BX), 64(BX), 72(BX), X8)
	VPMULLD X2, X5, X10
	VPADDD X4, X10, X10        // the pixel's index
	VMOVDQU X10, (R12)(DX*4)
	// its value, and its tile's flag (a value of a tile not filled is
	// replaced)
	GATHERY(X8, SI, X10, 2, X11, X3)
	VPSRLD $6, X4, X9
	VPBROADCASTD 76(BX), X10
	VPMULLD X10, X5, X10
	VPADDD X9, X10, X10
	GATHERY(X8, DI, X10, 1, X9, X3)
	VPBROADCASTD 84(BX), X10
	VPAND X10, X9, X9
	VPXOR X10, X10, X10
	VPCMPEQD X10, X9, X9       // not filled
	VPAND X8, X9, X10          // in the frame and not filled: +Inf
	VPSLLD $16, X11, X11
	VPSRAD $16, X11, X11
	VCVTDQ2PD X11, Y11         // 0 outside
	VPMOVSXDQ X10, Y10
	VBLENDVPD Y10, Y13, Y11, Y11
	VMOVUPD Y11, (R10)(DX*8)
	ADDQ $4, DX
	JMP  nloop

ndone:
	VZEROUPPER
	MOVQ DX, ret+56(FP)
	RET
