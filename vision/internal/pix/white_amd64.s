//go:build amd64

#include "textflag.h"
#include "macros_amd64.h"

// Tiles' kernels: 8 points at a time, the Go code's double-precision
// operations in its order (no fused multiply-adds), so the same bits.
// Each first gathers the done flags of the tiles its in-frame points
// read; a point that needs a tile not filled yet gets +Inf, for the
// caller to read (and fill the tile). A pixel's value and its right-hand neighbour's are one 4-byte
// gather (where the pixel is the last of its row, the neighbour is
// another row's or past the plane's end, read with weight 0: the same
// bits); Tiles.args made sure there is room past the ends.

// func alongZ(a *tileArgs, fr, out *float64, n int) int
TEXT ·alongZ(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), AX
	MOVQ fr+8(FP), R8
	MOVQ out+16(FP), R9
	MOVQ n+24(FP), CX
	MOVQ 96(AX), SI            // plane
	MOVQ 104(AX), DI           // done
	XORQ DX, DX                // points done
	VBROADCASTSD 48(AX), Z31   // 1.0
	VPXORQ Z30, Z30, Z30       // 0
	VBROADCASTSD 56(AX), Z29   // NaN
	VBROADCASTSD 136(AX), Z28  // +Inf

aloop:
	LEAQ 8(DX), BX
	CMPQ BX, CX
	JGT  adone
	VMOVUPD (R8)(DX*8), Z0     // f
	VMULPD.BCST 16(AX), Z0, Z1
	VADDPD.BCST 0(AX), Z1, Z1  // x = x0 + f*dx
	VMULPD.BCST 24(AX), Z0, Z2
	VADDPD.BCST 8(AX), Z2, Z2  // y = y0 + f*dy
	// inside: x >= 0, y >= 0, x <= w-1, y <= h-1
	VCMPPD $13, Z30, Z1, K1
	VCMPPD $13, Z30, Z2, K1, K1
	VCMPPD.BCST $2, 32(AX), Z1, K1, K1
	VCMPPD.BCST $2, 40(AX), Z2, K1, K1
	VCVTTPD2DQ Z1, Y3          // x0
	VCVTTPD2DQ Z2, Y4          // y0
	VPADDD.BCST 80(AX), Y3, Y5
	VPMINSD.BCST 68(AX), Y5, Y5 // x1 = min(x0+1, w-1)
	VPADDD.BCST 80(AX), Y4, Y6
	VPMINSD.BCST 72(AX), Y6, Y6 // y1 = min(y0+1, h-1)
	// the tiles' flags: rows y0 and y1, tiles x0/64 and x1/64
	VPSRLD $6, Y3, Y7
	VPSRLD $6, Y5, Y8
	VPMULLD.BCST 76(AX), Y4, Y9
	VPADDD Y7, Y9, Y9
	VPMULLD.BCST 76(AX), Y6, Y10
	VPADDD Y7, Y10, Y10
	GATHER(K1, DI, Y9, 1, Y11)
	GATHER(K1, DI, Y10, 1, Y12)
	VPANDD Y12, Y11, Y11
	VPTESTMD.BCST 84(AX), Y11, K3 // tile x0/64 filled in both rows
	VPTESTMD.BCST 88(AX), Y11, K4 // the next one too
	VPCMPEQD Y7, Y8, K5           // or x1 lies in the same tile
	KORW K5, K4, K4
	KANDW K4, K3, K3              // ready
	KANDNW K1, K3, K4             // inside and not ready: +Inf
	KANDW K3, K1, K5              // inside and ready: read
	// the values: pixels (x0, y0), (x0+1, y0) and (x0, y1), (x0+1, y1)
	VPMULLD.BCST 64(AX), Y4, Y13
	VPADDD Y3, Y13, Y13
	VPMULLD.BCST 64(AX), Y6, Y14
	VPADDD Y3, Y14, Y14
	GATHER(K5, SI, Y13, 2, Y15)
	GATHER(K5, SI, Y14, 2, Y16)
	VPSLLD $16, Y15, Y17
	VPSRAD $16, Y17, Y17
	VCVTDQ2PD Y17, Z17         // w00
	VPSRAD $16, Y15, Y18
	VCVTDQ2PD Y18, Z18         // w10
	VPSLLD $16, Y16, Y19
	VPSRAD $16, Y19, Y19
	VCVTDQ2PD Y19, Z19         // w01
	VPSRAD $16, Y16, Y20
	VCVTDQ2PD Y20, Z20         // w11
	VCVTDQ2PD Y3, Z21
	VSUBPD Z21, Z1, Z21        // fx
	VCVTDQ2PD Y4, Z22
	VSUBPD Z22, Z2, Z22        // fy
	VSUBPD Z21, Z31, Z23       // 1-fx
	VSUBPD Z22, Z31, Z24       // 1-fy
	VMULPD Z23, Z17, Z17
	VMULPD Z21, Z18, Z18
	VADDPD Z18, Z17, Z17
	VMULPD Z23, Z19, Z19
	VMULPD Z21, Z20, Z20
	VADDPD Z20, Z19, Z19
	VMULPD Z24, Z17, Z17
	VMULPD Z22, Z19, Z19
	VADDPD Z19, Z17, Z17
	VBLENDMPD Z17, Z29, K5, Z17 // NaN outside
	VMOVAPD Z28, K4, Z17        // +Inf where a tile is not filled
	VMOVUPD Z17, (R9)(DX*8)
	ADDQ $8, DX
	JMP  aloop

adone:
	VZEROUPPER
	MOVQ DX, ret+32(FP)
	RET

// func nearestZ(s *Sampler, a *tileArgs, u, v, out *float64, idx *int32, n int) int
TEXT ·nearestZ(SB), NOSPLIT, $0-64
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
	VPXORQ Z30, Z30, Z30
	VBROADCASTSD 136(BX), Z28  // +Inf

nloop:
	LEAQ 8(DX), R11
	CMPQ R11, CX
	JGT  ndone
	VMOVUPD (R8)(DX*8), Z0     // u
	VMOVUPD (R9)(DX*8), Z1     // v
	PROJECT                    // px (Z4), py (Z5); K1: in front
	// the nearest pixel: px >= -0.5, py >= -0.5, then int(p+0.5) in the frame
	NEAREST(120(BX), 112(BX), 64(BX), 72(BX), K1, K1, Z4, Z5, Y3, Y4)
	// the tile's flag
	VPSRLD $6, Y3, Y7
	VPMULLD.BCST 76(BX), Y4, Y9
	VPADDD Y7, Y9, Y9
	GATHER(K1, DI, Y9, 1, Y11)
	VPTESTMD.BCST 84(BX), Y11, K3 // filled
	KANDNW K1, K3, K4             // in the frame and not filled: +Inf
	KANDW K3, K1, K5              // in the frame and filled: read
	VPMULLD.BCST 64(BX), Y4, Y13
	VPADDD Y3, Y13, Y13           // the pixel's index
	VMOVDQU32 Y13, (R12)(DX*4)
	GATHER(K5, SI, Y13, 2, Y15)
	VPSLLD $16, Y15, Y15
	VPSRAD $16, Y15, Y15
	VCVTDQ2PD.Z Y15, K5, Z15   // 0 outside
	VMOVAPD Z28, K4, Z15
	VMOVUPD Z15, (R10)(DX*8)
	ADDQ $8, DX
	JMP  nloop

ndone:
	VZEROUPPER
	MOVQ DX, ret+56(FP)
	RET
