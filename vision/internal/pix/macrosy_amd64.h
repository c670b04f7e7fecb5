// Macros the AVX2 kernels share (4 doubles a register).

// PROJECTY takes card points u (Y0) and v (Y1) through the Sampler at AX,
// as Sampler.project does and PROJECT does 8 at a time, every operation
// the same and in the same order (double precision, no fused
// multiply-adds): the world point X = (ox + ux*u) + vx*v (Y2), Y likewise
// (Y3); the camera coordinates ((R0*X + R1*Y) + R2*Z) + T (Y4, Y5, Y6);
// the pixel fx*x/z + cx (Y4), fy*y/z + cy (Y5). Y7 is all ones in the
// lanes of the points in front of the camera (!(z <= eps)), else 0. The
// coefficients are broadcast from the Sampler as needed; it uses Y2, Y3
// and Y6.
#define PROJECTY \
	VBROADCASTSD 16(AX), Y2 \
	VMULPD Y2, Y0, Y2 \
	VBROADCASTSD 0(AX), Y3 \
	VADDPD Y3, Y2, Y2 \
	VBROADCASTSD 32(AX), Y3 \
	VMULPD Y3, Y1, Y3 \
	VADDPD Y3, Y2, Y2 \
	VBROADCASTSD 24(AX), Y3 \
	VMULPD Y3, Y0, Y3 \
	VBROADCASTSD 8(AX), Y4 \
	VADDPD Y4, Y3, Y3 \
	VBROADCASTSD 40(AX), Y4 \
	VMULPD Y4, Y1, Y4 \
	VADDPD Y4, Y3, Y3 \
	VBROADCASTSD 48(AX), Y4 \
	VMULPD Y4, Y2, Y4 \
	VBROADCASTSD 56(AX), Y7 \
	VMULPD Y7, Y3, Y7 \
	VADDPD Y7, Y4, Y4 \
	VBROADCASTSD 64(AX), Y7 \
	VADDPD Y7, Y4, Y4 \
	VBROADCASTSD 72(AX), Y7 \
	VADDPD Y7, Y4, Y4 \
	VBROADCASTSD 80(AX), Y5 \
	VMULPD Y5, Y2, Y5 \
	VBROADCASTSD 88(AX), Y7 \
	VMULPD Y7, Y3, Y7 \
	VADDPD Y7, Y5, Y5 \
	VBROADCASTSD 96(AX), Y7 \
	VADDPD Y7, Y5, Y5 \
	VBROADCASTSD 104(AX), Y7 \
	VADDPD Y7, Y5, Y5 \
	VBROADCASTSD 112(AX), Y6 \
	VMULPD Y6, Y2, Y6 \
	VBROADCASTSD 120(AX), Y7 \
	VMULPD Y7, Y3, Y7 \
	VADDPD Y7, Y6, Y6 \
	VBROADCASTSD 128(AX), Y7 \
	VADDPD Y7, Y6, Y6 \
	VBROADCASTSD 136(AX), Y7 \
	VADDPD Y7, Y6, Y6 \
	VBROADCASTSD 224(AX), Y7 \
	VCMPPD $6, Y7, Y6, Y7 \
	VBROADCASTSD 144(AX), Y2 \
	VMULPD Y2, Y4, Y4 \
	VDIVPD Y6, Y4, Y4 \
	VBROADCASTSD 160(AX), Y2 \
	VADDPD Y2, Y4, Y4 \
	VBROADCASTSD 152(AX), Y3 \
	VMULPD Y3, Y5, Y5 \
	VDIVPD Y6, Y5, Y5 \
	VBROADCASTSD 168(AX), Y3 \
	VADDPD Y3, Y5, Y5

// NEARESTY finds the pixel nearest (px Y4, py Y5) as vision's frame.pixel
// does and NEAREST 8 at a time, for the lanes of the quadword mask Y7
// (used up): kout is the dword mask of those with px >= -0.5 and py >=
// -0.5 whose (ix, iy) = (int(px+0.5), int(py+0.5)) (X4, X5) lie in the
// frame: ix >= 0, iy >= 0, ix < w, iy <= h-1 (a value past 32 bits
// converts to a negative one, outside too). mhalf (-0.5), half (0.5), w
// and hm1 (h-1) are memory operands. It uses Y0-Y3; X2 holds w after.
#define NEARESTY(mhalf, half, w, hm1, kout) \
	VBROADCASTSD mhalf, Y0 \
	VCMPPD $13, Y0, Y4, Y1 \
	VANDPD Y1, Y7, Y7 \
	VCMPPD $13, Y0, Y5, Y1 \
	VANDPD Y1, Y7, Y7 \
	VBROADCASTSD half, Y0 \
	VADDPD Y0, Y4, Y4 \
	VCVTTPD2DQY Y4, X4 \
	VADDPD Y0, Y5, Y5 \
	VCVTTPD2DQY Y5, X5 \
	QTODY(Y7, X7, X1, kout) \
	VPXOR X0, X0, X0 \
	VPCMPGTD X4, X0, X1 \
	VPANDN kout, X1, kout \
	VPCMPGTD X5, X0, X1 \
	VPANDN kout, X1, kout \
	VPBROADCASTD w, X2 \
	VPCMPGTD X4, X2, X1 \
	VPAND X1, kout, kout \
	VPBROADCASTD hm1, X3 \
	VPCMPGTD X3, X5, X1 \
	VPANDN kout, X1, kout

// QTODY narrows the quadword mask q (its low half qx) to the dword mask
// dst (lane i of one to lane i of the other). It uses t.
#define QTODY(q, qx, t, dst) \
	VEXTRACTF128 $1, q, t \
	VSHUFPS $0x88, t, qx, dst

// GATHERY loads into dst, zeroed first, the 4 bytes at base + idx*scale
// for each lane of the dword mask (its copy m is used up).
#define GATHERY(mask, base, idx, scale, dst, m) \
	VMOVDQA mask, m \
	VPXOR dst, dst, dst \
	VPGATHERDD m, (base)(idx*scale), dst
