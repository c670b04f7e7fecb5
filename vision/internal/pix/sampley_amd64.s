//go:build amd64

#include "textflag.h"
#include "macrosy_amd64.h"

// VPSHUFB indices that take, out of each 8 bytes gathered (a pixel's B,
// G, R and its right-hand neighbour's), byte j alone into the low byte of
// the quadword (0x80: a zero byte), for pairByte0..5: the pixel's B, G,
// R, then the neighbour's.
DATA pairByte0<>+0(SB)/8, $0x8080808080808000
DATA pairByte0<>+8(SB)/8, $0x8080808080808008
DATA pairByte0<>+16(SB)/8, $0x8080808080808000
DATA pairByte0<>+24(SB)/8, $0x8080808080808008
GLOBL pairByte0<>(SB), RODATA|NOPTR, $32
DATA pairByte1<>+0(SB)/8, $0x8080808080808001
DATA pairByte1<>+8(SB)/8, $0x8080808080808009
DATA pairByte1<>+16(SB)/8, $0x8080808080808001
DATA pairByte1<>+24(SB)/8, $0x8080808080808009
GLOBL pairByte1<>(SB), RODATA|NOPTR, $32
DATA pairByte2<>+0(SB)/8, $0x8080808080808002
DATA pairByte2<>+8(SB)/8, $0x808080808080800a
DATA pairByte2<>+16(SB)/8, $0x8080808080808002
DATA pairByte2<>+24(SB)/8, $0x808080808080800a
GLOBL pairByte2<>(SB), RODATA|NOPTR, $32
DATA pairByte3<>+0(SB)/8, $0x8080808080808003
DATA pairByte3<>+8(SB)/8, $0x808080808080800b
DATA pairByte3<>+16(SB)/8, $0x8080808080808003
DATA pairByte3<>+24(SB)/8, $0x808080808080800b
GLOBL pairByte3<>(SB), RODATA|NOPTR, $32
DATA pairByte4<>+0(SB)/8, $0x8080808080808004
DATA pairByte4<>+8(SB)/8, $0x808080808080800c
DATA pairByte4<>+16(SB)/8, $0x8080808080808004
DATA pairByte4<>+24(SB)/8, $0x808080808080800c
GLOBL pairByte4<>(SB), RODATA|NOPTR, $32
DATA pairByte5<>+0(SB)/8, $0x8080808080808005
DATA pairByte5<>+8(SB)/8, $0x808080808080800d
DATA pairByte5<>+16(SB)/8, $0x8080808080808005
DATA pairByte5<>+24(SB)/8, $0x808080808080800d
GLOBL pairByte5<>(SB), RODATA|NOPTR, $32

// exp52 is 2^52 as a double: ORed into a quadword holding an integer
// below 2^52, it makes the double 2^52 plus that integer, from which
// subtracting 2^52 leaves the integer's double exactly.
DATA exp52<>+0(SB)/8, $0x4330000000000000
GLOBL exp52<>(SB), RODATA|NOPTR, $8

// PAIRY gathers, for each lane of the mask in Y7, the 8 bytes at the
// frame's byte offset idx (SI the frame, AX the Sampler) into dst: from
// at most s.last8 (the frame's last 8 bytes) and shifted down by what
// that moved them, so that the low 3 bytes are the pixel's B, G, R and
// the next 3 its right-hand neighbour's (or, where the pixel ends a row
// or the frame, the next row's first pixel's or zeros: read with weight
// 0, they give the same bits), and nothing past the frame is read. Lanes
// out of the mask are 0. It uses t1, t2 (the low half of t2y) and mask.
#define PAIRY(idx, dst, t1, t2, t2y, mask) \
	VPBROADCASTD 252(AX), t1 \
	VPMINSD t1, idx, t1 \
	VPSUBD t1, idx, t2 \
	VPSLLD $3, t2, t2 \
	VPMOVZXDQ t2, t2y \
	VMOVAPD Y7, mask \
	VPXOR dst, dst, dst \
	VPGATHERDQ mask, (SI)(t1*1), dst \
	VPSRLVQ t2y, dst, dst

// BYTEY converts byte j of each quadword of src (j picked by the table
// pick) to a double in dst, exactly (exp52 in Y14).
#define BYTEY(pick, src, dst) \
	VPSHUFB pick, src, dst \
	VPOR Y14, dst, dst \
	VSUBPD Y14, dst, dst

// CHANNELY is one channel's colour, the pixel's byte picked by p0 and
// its neighbour's by p1 out of rows y0 (Y4) and y1 (Y5): ((1-fy)*((1-fx)*
// c00 + fx*c10) + fy*((1-fx)*c01 + fx*c11)) * scale, as float32 to out,
// 0 out of the mask (Y7). It uses Y0-Y2.
#define CHANNELY(p0, p1, scaleoff, out) \
	BYTEY(p0, Y4, Y0) \
	BYTEY(p1, Y4, Y1) \
	VMULPD Y12, Y0, Y0 \
	VMULPD Y10, Y1, Y1 \
	VADDPD Y1, Y0, Y0 \
	BYTEY(p0, Y5, Y1) \
	BYTEY(p1, Y5, Y2) \
	VMULPD Y12, Y1, Y1 \
	VMULPD Y10, Y2, Y2 \
	VADDPD Y2, Y1, Y1 \
	VMULPD Y13, Y0, Y0 \
	VMULPD Y11, Y1, Y1 \
	VADDPD Y1, Y0, Y0 \
	VBROADCASTSD scaleoff(AX), Y1 \
	VMULPD Y1, Y0, Y0 \
	VANDPD Y7, Y0, Y0 \
	VCVTPD2PSY Y0, X0 \
	VMOVUPS X0, (out)

// func sampleY(s *Sampler, img *uint8, u, v *float64, ob, og, or *float32, n int)
// Sampler.colour for 4 points at a time by AVX2, every operation the
// same and in the same order (double precision, no fused multiply-adds),
// so the same bits, as sampleZ. Lanes behind the camera or outside the
// frame load nothing and give 0. Each row's two pixels (x0 and x0+1) are
// one 8-byte gather (PAIRY); each byte becomes a double by exp52.
TEXT ·sampleY(SB), NOSPLIT, $0-64
	MOVQ s+0(FP), AX
	MOVQ img+8(FP), SI
	MOVQ u+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ ob+32(FP), R10
	MOVQ og+40(FP), R11
	MOVQ or+48(FP), R12
	MOVQ n+56(FP), CX
	VBROADCASTSD 216(AX), Y15  // 1.0
	VBROADCASTSD exp52<>(SB), Y14

loop:
	CMPQ CX, $4
	JLT  done
	VMOVUPD (R8), Y0           // u
	VMOVUPD (R9), Y1           // v
	PROJECTY                   // px (Y4), py (Y5); Y7: in front
	// inside the frame: px >= 0, py >= 0, px <= w-1, py <= h-1
	VXORPD Y2, Y2, Y2
	VCMPPD $13, Y2, Y4, Y3
	VANDPD Y3, Y7, Y7
	VCMPPD $13, Y2, Y5, Y3
	VANDPD Y3, Y7, Y7
	VBROADCASTSD 200(AX), Y2
	VCMPPD $2, Y2, Y4, Y3
	VANDPD Y3, Y7, Y7
	VBROADCASTSD 208(AX), Y2
	VCMPPD $2, Y2, Y5, Y3
	VANDPD Y3, Y7, Y7
	// x0, y0 truncated; fx, fy; 1-fx, 1-fy
	VCVTTPD2DQY Y4, X8         // x0
	VCVTTPD2DQY Y5, X9         // y0
	VCVTDQ2PD X8, Y10
	VSUBPD Y10, Y4, Y10        // fx
	VCVTDQ2PD X9, Y11
	VSUBPD Y11, Y5, Y11        // fy
	VSUBPD Y10, Y15, Y12       // 1-fx
	VSUBPD Y11, Y15, Y13       // 1-fy
	// y1 = min(y0+1, h-1); the byte offsets of (x0, y0) and (x0, y1)
	VPBROADCASTD 248(AX), X0
	VPADDD X0, X9, X0
	VPBROADCASTD 240(AX), X1
	VPMINSD X1, X0, X0         // y1
	VPBROADCASTD 232(AX), X1
	VPMULLD X1, X9, X9         // y0*w
	VPMULLD X1, X0, X0         // y1*w
	VPADDD X8, X9, X9
	VPADDD X9, X9, X1
	VPADDD X1, X9, X9          // 3*(y0*w + x0)
	VPADDD X8, X0, X0
	VPADDD X0, X0, X1
	VPADDD X1, X0, X0          // 3*(y1*w + x0)
	// each row's two pixels
	PAIRY(X9, Y4, X2, X3, Y3, Y6) // row y0
	PAIRY(X0, Y5, X2, X3, Y3, Y6) // row y1

	CHANNELY(pairByte0<>(SB), pairByte3<>(SB), 176, R10)
	CHANNELY(pairByte1<>(SB), pairByte4<>(SB), 184, R11)
	CHANNELY(pairByte2<>(SB), pairByte5<>(SB), 192, R12)

	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $16, R10
	ADDQ $16, R11
	ADDQ $16, R12
	SUBQ $4, CX
	JMP  loop

done:
	VZEROUPPER
	RET
