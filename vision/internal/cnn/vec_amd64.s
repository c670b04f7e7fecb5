//go:build amd64

#include "textflag.h"
#include "flush_amd64.h"

// func conv9AVX2(dst *float32, n int, r0, r1, r2 *float32, w *[9]float32)
// dst[i] += sum over rows r (r0, r1, r2) and taps j (0..2) of
// w[3r+j]*row_r[i+j], for i < n, n a multiple of 8.
TEXT ·conv9AVX2(SB), NOSPLIT, $8-48
	FLUSH_ON
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ r0+16(FP), SI
	MOVQ r1+24(FP), AX
	MOVQ r2+32(FP), BX
	MOVQ w+40(FP), DX
	VBROADCASTSS 0(DX), Y0
	VBROADCASTSS 4(DX), Y1
	VBROADCASTSS 8(DX), Y2
	VBROADCASTSS 12(DX), Y3
	VBROADCASTSS 16(DX), Y4
	VBROADCASTSS 20(DX), Y5
	VBROADCASTSS 24(DX), Y6
	VBROADCASTSS 28(DX), Y7
	VBROADCASTSS 32(DX), Y8
	XORQ DX, DX
	SHRQ $3, CX

loop:
	TESTQ CX, CX
	JZ    done
	VMOVUPS     (DI)(DX*4), Y9
	VFMADD231PS (SI)(DX*4), Y0, Y9
	VFMADD231PS 4(SI)(DX*4), Y1, Y9
	VFMADD231PS 8(SI)(DX*4), Y2, Y9
	VFMADD231PS (AX)(DX*4), Y3, Y9
	VFMADD231PS 4(AX)(DX*4), Y4, Y9
	VFMADD231PS 8(AX)(DX*4), Y5, Y9
	VFMADD231PS (BX)(DX*4), Y6, Y9
	VFMADD231PS 4(BX)(DX*4), Y7, Y9
	VFMADD231PS 8(BX)(DX*4), Y8, Y9
	VMOVUPS     Y9, (DI)(DX*4)
	ADDQ        $8, DX
	DECQ        CX
	JMP         loop

done:
	FLUSH_OFF
	VZEROUPPER
	RET

// func dotRows8SSE(acc *[32]float32, x, w *float32, stride, n int)
// The four lanes of vec.Dot for eight rows of w at once: acc[4r+k] = sum
// over i < n, i = k (mod 4), of x[i]*w[r*stride+i], for rows r < 8, n a
// multiple of 4. Each lane is a separate multiply and add in order (no
// fused multiply-add), as vec.Dot's four sums are, so the bits are the
// same; eight rows keep eight additions in flight.
TEXT ·dotRows8SSE(SB), NOSPLIT, $8-40
	FLUSH_ON
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), DX
	MOVQ stride+24(FP), R8
	MOVQ n+32(FP), CX
	SHLQ $2, R8
	LEAQ (DX)(R8*2), BX
	LEAQ (BX)(R8*1), R9
	LEAQ (BX)(R8*2), R10
	LEAQ (R10)(R8*1), R11
	LEAQ (R10)(R8*2), R12
	LEAQ (R12)(R8*1), R13
	LEAQ (DX)(R8*1), AX
	VXORPS X0, X0, X0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	VXORPS X3, X3, X3
	VXORPS X4, X4, X4
	VXORPS X5, X5, X5
	VXORPS X6, X6, X6
	VXORPS X7, X7, X7
	SHRQ $2, CX
	XORQ R8, R8
dloop:
	TESTQ CX, CX
	JZ    ddone
	VMOVUPS (SI)(R8*1), X8
	VMULPS (DX)(R8*1), X8, X9
	VADDPS X9, X0, X0
	VMULPS (AX)(R8*1), X8, X9
	VADDPS X9, X1, X1
	VMULPS (BX)(R8*1), X8, X9
	VADDPS X9, X2, X2
	VMULPS (R9)(R8*1), X8, X9
	VADDPS X9, X3, X3
	VMULPS (R10)(R8*1), X8, X9
	VADDPS X9, X4, X4
	VMULPS (R11)(R8*1), X8, X9
	VADDPS X9, X5, X5
	VMULPS (R12)(R8*1), X8, X9
	VADDPS X9, X6, X6
	VMULPS (R13)(R8*1), X8, X9
	VADDPS X9, X7, X7
	ADDQ $16, R8
	DECQ CX
	JMP  dloop
ddone:
	VMOVUPS X0, 0(DI)
	VMOVUPS X1, 16(DI)
	VMOVUPS X2, 32(DI)
	VMOVUPS X3, 48(DI)
	VMOVUPS X4, 64(DI)
	VMOVUPS X5, 80(DI)
	VMOVUPS X6, 96(DI)
	VMOVUPS X7, 112(DI)
	FLUSH_OFF
	RET

// func grad9AVX2(out *[72]float32, dk, p *float32, ps, n int)
// The nine 3x3 weight gradients of one (output, input) plane pair, in
// eight lanes each: out[8t+k] = sum over i < n, i = k (mod 8), of
// dk[i]*p[(t/3)*ps + t%3 + i], n a multiple of 8 (fused multiply-adds, in
// order of i).
TEXT ·grad9AVX2(SB), NOSPLIT, $8-40
	FLUSH_ON
	MOVQ out+0(FP), DI
	MOVQ dk+8(FP), SI
	MOVQ p+16(FP), DX
	MOVQ ps+24(FP), R8
	MOVQ n+32(FP), CX
	SHLQ $2, R8
	LEAQ (DX)(R8*1), BX
	LEAQ (BX)(R8*1), R9
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	SHRQ $3, CX
	XORQ AX, AX
gloop:
	TESTQ CX, CX
	JZ    gdone
	VMOVUPS (SI)(AX*1), Y9
	VFMADD231PS 0(DX)(AX*1), Y9, Y0
	VFMADD231PS 4(DX)(AX*1), Y9, Y1
	VFMADD231PS 8(DX)(AX*1), Y9, Y2
	VFMADD231PS 0(BX)(AX*1), Y9, Y3
	VFMADD231PS 4(BX)(AX*1), Y9, Y4
	VFMADD231PS 8(BX)(AX*1), Y9, Y5
	VFMADD231PS 0(R9)(AX*1), Y9, Y6
	VFMADD231PS 4(R9)(AX*1), Y9, Y7
	VFMADD231PS 8(R9)(AX*1), Y9, Y8
	ADDQ $32, AX
	DECQ CX
	JMP  gloop
gdone:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VMOVUPS Y8, 256(DI)
	FLUSH_OFF
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	BYTE $0x0f; BYTE $0x01; BYTE $0xd0 // XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func pool2SSE(dst, src *float32, h, ps, nch, wide int)
// 2x2 max pooling of nch channels, each 2h rows of ps values (channel k
// starts at src[k*wide]) into h×h values (channel k at dst[k*h*h]), with
// pool2Go's bits: v = top-left, then each of top-right, bottom-left and
// bottom-right replaces v only when greater (MAXPS a, v as a > v ? a : v,
// so ties, -0 and NaN keep v as the Go code does). Four outputs at a time;
// the rest of a row one at a time.
TEXT ·pool2SSE(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ h+16(FP), CX
	MOVQ ps+24(FP), R8
	MOVQ nch+32(FP), R9
	MOVQ wide+40(FP), R10
	SHLQ $2, R8
	SHLQ $2, R10
	MOVQ CX, R11
	ANDQ $-4, R11

pchan:
	TESTQ R9, R9
	JEQ   pdone
	MOVQ  SI, BX
	MOVQ  CX, R12

prow:
	TESTQ R12, R12
	JEQ   pnextchan
	MOVQ  BX, AX
	LEAQ  (BX)(R8*1), R13
	XORQ  DX, DX

pvec:
	CMPQ   DX, R11
	JGE    ptail
	MOVUPS 0(AX), X0
	MOVUPS 16(AX), X1
	MOVAPS X0, X2
	SHUFPS $0x88, X1, X0
	SHUFPS $0xDD, X1, X2
	MOVUPS 0(R13), X3
	MOVUPS 16(R13), X4
	MOVAPS X3, X5
	SHUFPS $0x88, X4, X3
	SHUFPS $0xDD, X4, X5
	MAXPS  X0, X2
	MAXPS  X2, X3
	MAXPS  X3, X5
	MOVUPS X5, 0(DI)
	ADDQ   $32, AX
	ADDQ   $32, R13
	ADDQ   $16, DI
	ADDQ   $4, DX
	JMP    pvec

ptail:
	CMPQ  DX, CX
	JGE   prowdone
	MOVSS 0(AX), X0
	MOVSS 4(AX), X2
	MAXSS X0, X2
	MOVSS 0(R13), X3
	MAXSS X2, X3
	MOVSS 4(R13), X5
	MAXSS X3, X5
	MOVSS X5, 0(DI)
	ADDQ  $8, AX
	ADDQ  $8, R13
	ADDQ  $4, DI
	INCQ  DX
	JMP   ptail

prowdone:
	LEAQ (BX)(R8*2), BX
	DECQ R12
	JMP  prow

pnextchan:
	ADDQ R10, SI
	DECQ R9
	JMP  pchan

pdone:
	RET
