// PROJECT takes card points u (Z0) and v (Z1) through the Sampler at AX,
// as Sampler.project does, every operation the same and in the same
// order (double precision, no fused multiply-adds): the world point X =
// (ox + ux*u) + vx*v, Y likewise; the camera coordinates ((R0*X + R1*Y) +
// R2*Z) + T; the pixel fx*x/z + cx (Z4), fy*y/z + cy (Z5). K1 is set for
// the points in front of the camera (!(z <= eps)). It uses Z2, Z3, Z6, Z7.
#define PROJECT \
	VMULPD.BCST 16(AX), Z0, Z2 \
	VADDPD.BCST 0(AX), Z2, Z2 \
	VMULPD.BCST 32(AX), Z1, Z3 \
	VADDPD Z3, Z2, Z2 \
	VMULPD.BCST 24(AX), Z0, Z3 \
	VADDPD.BCST 8(AX), Z3, Z3 \
	VMULPD.BCST 40(AX), Z1, Z4 \
	VADDPD Z4, Z3, Z3 \
	VMULPD.BCST 48(AX), Z2, Z4 \
	VMULPD.BCST 56(AX), Z3, Z5 \
	VADDPD Z5, Z4, Z4 \
	VADDPD.BCST 64(AX), Z4, Z4 \
	VADDPD.BCST 72(AX), Z4, Z4 \
	VMULPD.BCST 80(AX), Z2, Z5 \
	VMULPD.BCST 88(AX), Z3, Z6 \
	VADDPD Z6, Z5, Z5 \
	VADDPD.BCST 96(AX), Z5, Z5 \
	VADDPD.BCST 104(AX), Z5, Z5 \
	VMULPD.BCST 112(AX), Z2, Z6 \
	VMULPD.BCST 120(AX), Z3, Z7 \
	VADDPD Z7, Z6, Z6 \
	VADDPD.BCST 128(AX), Z6, Z6 \
	VADDPD.BCST 136(AX), Z6, Z6 \
	VCMPPD.BCST $6, 224(AX), Z6, K1 \
	VMULPD.BCST 144(AX), Z4, Z4 \
	VDIVPD Z6, Z4, Z4 \
	VADDPD.BCST 160(AX), Z4, Z4 \
	VMULPD.BCST 152(AX), Z5, Z5 \
	VDIVPD Z6, Z5, Z5 \
	VADDPD.BCST 168(AX), Z5, Z5
