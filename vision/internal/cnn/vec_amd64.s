//go:build amd64 && !goexperiment.simd

#include "textflag.h"

// func conv9AVX2(dst *float32, n int, r0, r1, r2 *float32, w *[9]float32)
// dst[i] += sum over rows r (r0, r1, r2) and taps j (0..2) of
// w[3r+j]*row_r[i+j], for i < n, n a multiple of 8.
TEXT ·conv9AVX2(SB), NOSPLIT, $0-48
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
