//go:build amd64

#include "textflag.h"
#include "macros_amd64.h"

// func sampleZ(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int)
// Sampler.colour for 8 points at a time, every operation the same and in
// the same order (double precision, no fused multiply-adds), so the same
// bits. Lanes behind the camera or outside the frame load nothing and
// give 0. Each pixel's B, G, R are one 4-byte gather, from at most
// s.last (the frame's last 4 bytes) and shifted down where that moved it.
TEXT ·sampleZ(SB), NOSPLIT, $0-64
	MOVQ s+0(FP), AX
	MOVQ img+8(FP), SI
	MOVQ u+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ ob+32(FP), R10
	MOVQ og+40(FP), R11
	MOVQ or+48(FP), R12
	MOVQ n+56(FP), CX
	VBROADCASTSD 216(AX), Z31  // 1.0
	VPXORQ Z30, Z30, Z30       // 0.0
	MOVL $0xff, DX
	VPBROADCASTD DX, Y29       // byte mask

loop:
	CMPQ CX, $8
	JLT  done
	VMOVUPD (R8), Z0           // u
	VMOVUPD (R9), Z1           // v
	PROJECT                    // px (Z4), py (Z5); K1: in front
	// inside the frame: px >= 0, py >= 0, px <= w-1, py <= h-1
	VCMPPD $13, Z30, Z4, K1, K1
	VCMPPD $13, Z30, Z5, K1, K1
	VCMPPD.BCST $2, 200(AX), Z4, K1, K1
	VCMPPD.BCST $2, 208(AX), Z5, K1, K1
	// x0, y0 truncated; fx, fy; 1-fx, 1-fy
	VCVTTPD2DQ Z4, Y7
	VCVTTPD2DQ Z5, Y8
	VCVTDQ2PD Y7, Z9
	VSUBPD Z9, Z4, Z9          // fx
	VCVTDQ2PD Y8, Z10
	VSUBPD Z10, Z5, Z10        // fy
	VSUBPD Z9, Z31, Z11        // 1-fx
	VSUBPD Z10, Z31, Z12       // 1-fy
	// x1 = min(x0+1, w-1), y1 = min(y0+1, h-1); byte offsets of the quad
	VPADDD.BCST 248(AX), Y7, Y13
	VPMINSD.BCST 236(AX), Y13, Y13 // x1
	VPADDD.BCST 248(AX), Y8, Y14
	VPMINSD.BCST 240(AX), Y14, Y14 // y1
	VPMULLD.BCST 232(AX), Y8, Y8   // y0*w
	VPMULLD.BCST 232(AX), Y14, Y14 // y1*w
	VPADDD Y7, Y8, Y15         // i00/3
	VPADDD Y13, Y8, Y16        // i10/3
	VPADDD Y7, Y14, Y17        // i01/3
	VPADDD Y13, Y14, Y18       // i11/3
	VPADDD Y15, Y15, Y19
	VPADDD Y19, Y15, Y15
	VPADDD Y16, Y16, Y19
	VPADDD Y19, Y16, Y16
	VPADDD Y17, Y17, Y19
	VPADDD Y19, Y17, Y17
	VPADDD Y18, Y18, Y19
	VPADDD Y19, Y18, Y18

	// the four pixels' B, G, R (Y20..Y23)
	PIXEL(K1, Y15, Y20, Y24, Y25)
	PIXEL(K1, Y16, Y21, Y24, Y25)
	PIXEL(K1, Y17, Y22, Y24, Y25)
	PIXEL(K1, Y18, Y23, Y24, Y25)

	// per channel: ((1-fy)*((1-fx)*c00 + fx*c10) + fy*((1-fx)*c01 + fx*c11)) * scale
#define CHANNEL(sh, scaleoff, out) \
	VPSRLD $sh, Y20, Y24 \
	VPANDD Y29, Y24, Y24 \
	VCVTDQ2PD Y24, Z24 \
	VPSRLD $sh, Y21, Y25 \
	VPANDD Y29, Y25, Y25 \
	VCVTDQ2PD Y25, Z25 \
	VPSRLD $sh, Y22, Y26 \
	VPANDD Y29, Y26, Y26 \
	VCVTDQ2PD Y26, Z26 \
	VPSRLD $sh, Y23, Y27 \
	VPANDD Y29, Y27, Y27 \
	VCVTDQ2PD Y27, Z27 \
	VMULPD Z11, Z24, Z24 \
	VMULPD Z9, Z25, Z25 \
	VADDPD Z25, Z24, Z24 \
	VMULPD Z11, Z26, Z26 \
	VMULPD Z9, Z27, Z27 \
	VADDPD Z27, Z26, Z26 \
	VMULPD Z12, Z24, Z24 \
	VMULPD Z10, Z26, Z26 \
	VADDPD Z26, Z24, Z24 \
	VMULPD.BCST scaleoff(AX), Z24, Z24 \
	VCVTPD2PS.Z Z24, K1, Y24 \
	VMOVUPS Y24, (out)

	CHANNEL(0, 176, R10)
	CHANNEL(8, 184, R11)
	CHANNEL(16, 192, R12)

	ADDQ $64, R8
	ADDQ $64, R9
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	SUBQ $8, CX
	JMP  loop

done:
	VZEROUPPER
	RET
