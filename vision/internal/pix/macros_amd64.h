// Macros the kernels share.

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

// NEAREST finds the pixel nearest (px Z4, py Z5) as vision's frame.pixel
// does: kout = kin and px >= -0.5 and py >= -0.5 and (ix, iy) =
// (int(px+0.5), int(py+0.5)) in the frame (ix < w, iy <= h-1; a value
// past 32 bits converts to a negative one, outside too). Z30 must be 0.
#define NEAREST(mhalf, half, w, hm1, kin, kout, zx, zy, yx, yy) \
	VCMPPD.BCST $13, mhalf, Z4, kin, kout \
	VCMPPD.BCST $13, mhalf, Z5, kout, kout \
	VADDPD.BCST half, Z4, zx \
	VADDPD.BCST half, Z5, zy \
	VCVTTPD2DQ zx, yx \
	VCVTTPD2DQ zy, yy \
	VPCMPD $5, Y30, yx, kout, kout \
	VPCMPD $5, Y30, yy, kout, kout \
	VPCMPD.BCST $1, w, yx, kout, kout \
	VPCMPD.BCST $2, hm1, yy, kout, kout

// GATHER loads into dst, zeroed first, the 4 bytes at base + idx*scale
// for each lane of mask (K7 is used up).
#define GATHER(mask, base, idx, scale, dst) \
	KMOVW mask, K7 \
	VPXORD dst, dst, dst \
	VPGATHERDD (base)(idx*scale), K7, dst

// PIXEL loads into dst the 4 bytes at the frame's byte offset idx (SI the
// frame, AX the Sampler) for each lane of mask: from at most s.last (the
// frame's last 4 bytes) and shifted down by what that moved them, so
// that the pixel's B, G, R are the low 3 bytes and nothing past the
// frame is read. It uses t1, t2 and K7.
#define PIXEL(mask, idx, dst, t1, t2) \
	VPMINSD.BCST 244(AX), idx, t1 \
	VPSUBD t1, idx, t2 \
	VPSLLD $3, t2, t2 \
	GATHER(mask, SI, t1, 1, dst) \
	VPSRLVD t2, dst, dst
