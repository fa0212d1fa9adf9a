//go:build !purego

#include "textflag.h"

// AVX2 variants of unshuffle8x16 and bitUntranspose8x16, 32 columns per
// step. The unpack instructions work inside 128-bit lanes, so lane 0 ends up
// holding columns 0..15 and lane 1 columns 16..31: each result register is
// stored as two 16-byte halves 128 bytes apart instead of being permuted.

DATA bitmasks<>+0(SB)/8, $0x00AA00AA00AA00AA
DATA bitmasks<>+8(SB)/8, $0x00AA00AA00AA00AA
DATA bitmasks<>+16(SB)/8, $0x00AA00AA00AA00AA
DATA bitmasks<>+24(SB)/8, $0x00AA00AA00AA00AA
DATA bitmasks<>+32(SB)/8, $0x0000CCCC0000CCCC
DATA bitmasks<>+40(SB)/8, $0x0000CCCC0000CCCC
DATA bitmasks<>+48(SB)/8, $0x0000CCCC0000CCCC
DATA bitmasks<>+56(SB)/8, $0x0000CCCC0000CCCC
DATA bitmasks<>+64(SB)/8, $0x00000000F0F0F0F0
DATA bitmasks<>+72(SB)/8, $0x00000000F0F0F0F0
DATA bitmasks<>+80(SB)/8, $0x00000000F0F0F0F0
DATA bitmasks<>+88(SB)/8, $0x00000000F0F0F0F0
GLOBL bitmasks<>(SB), RODATA|NOPTR, $96

#define SETUPY \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ stride+16(FP), DX; \
	MOVQ blocks+24(FP), CX; \
	LEAQ (DX)(DX*2), R8; \
	LEAQ (DX)(DX*4), R9; \
	LEAQ (R8)(R8*1), R10; \
	LEAQ (R9)(DX*2), R11

// LOADY8STAGE1 loads 32 bytes of each of the 8 planes and interleaves the
// pairs: Y8/Y9 = planes 0,1 (elements 0..7 / 8..15 of each lane), Y10/Y11 =
// 2,3, Y12/Y13 = 4,5, Y14/Y15 = 6,7.
#define LOADY8STAGE1 \
	VMOVDQU (SI), Y0; \
	VMOVDQU (SI)(DX*1), Y1; \
	VMOVDQU (SI)(DX*2), Y2; \
	VMOVDQU (SI)(R8*1), Y3; \
	VMOVDQU (SI)(DX*4), Y4; \
	VMOVDQU (SI)(R9*1), Y5; \
	VMOVDQU (SI)(R10*1), Y6; \
	VMOVDQU (SI)(R11*1), Y7; \
	VPUNPCKLBW Y1, Y0, Y8; \
	VPUNPCKHBW Y1, Y0, Y9; \
	VPUNPCKLBW Y3, Y2, Y10; \
	VPUNPCKHBW Y3, Y2, Y11; \
	VPUNPCKLBW Y5, Y4, Y12; \
	VPUNPCKHBW Y5, Y4, Y13; \
	VPUNPCKLBW Y7, Y6, Y14; \
	VPUNPCKHBW Y7, Y6, Y15

// GROUPY finishes 8 elements per lane from pair registers AB, CD, EF, GH,
// leaving elements (0,1) (2,3) (4,5) (6,7) of the group in Y4..Y7.
#define GROUPY(AB, CD, EF, GH) \
	VPUNPCKLWD CD, AB, Y0; \
	VPUNPCKHWD CD, AB, Y1; \
	VPUNPCKLWD GH, EF, Y2; \
	VPUNPCKHWD GH, EF, Y3; \
	VPUNPCKLDQ Y2, Y0, Y4; \
	VPUNPCKHDQ Y2, Y0, Y5; \
	VPUNPCKLDQ Y3, Y1, Y6; \
	VPUNPCKHDQ Y3, Y1, Y7

// STOREY writes Y4..Y7 at OFF(DI) (lane 0) and OFF+128(DI) (lane 1).
#define STOREY(OFF) \
	VMOVDQU X4, (OFF+0)(DI); \
	VMOVDQU X5, (OFF+16)(DI); \
	VMOVDQU X6, (OFF+32)(DI); \
	VMOVDQU X7, (OFF+48)(DI); \
	VEXTRACTI128 $1, Y4, (OFF+128)(DI); \
	VEXTRACTI128 $1, Y5, (OFF+144)(DI); \
	VEXTRACTI128 $1, Y6, (OFF+160)(DI); \
	VEXTRACTI128 $1, Y7, (OFF+176)(DI)

// TBITSY bit-transposes each 64-bit lane of R (see TBITS) with Y0 scratch.
#define TBITSY(R) \
	VPSRLQ $7, R, Y0; \
	VPXOR R, Y0, Y0; \
	VPAND bitmasks<>+0(SB), Y0, Y0; \
	VPXOR Y0, R, R; \
	VPSLLQ $7, Y0, Y0; \
	VPXOR Y0, R, R; \
	VPSRLQ $14, R, Y0; \
	VPXOR R, Y0, Y0; \
	VPAND bitmasks<>+32(SB), Y0, Y0; \
	VPXOR Y0, R, R; \
	VPSLLQ $14, Y0, Y0; \
	VPXOR Y0, R, R; \
	VPSRLQ $28, R, Y0; \
	VPXOR R, Y0, Y0; \
	VPAND bitmasks<>+64(SB), Y0, Y0; \
	VPXOR Y0, R, R; \
	VPSLLQ $28, Y0, Y0; \
	VPXOR Y0, R, R

// func unshuffle8x32(dst, src *byte, stride, blocks int)
TEXT ·unshuffle8x32(SB), NOSPLIT, $0-32
	SETUPY
	TESTQ CX, CX
	JZ   doneu

loopu:
	LOADY8STAGE1
	GROUPY(Y8, Y10, Y12, Y14)
	STOREY(0)
	GROUPY(Y9, Y11, Y13, Y15)
	STOREY(64)
	ADDQ $32, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loopu

doneu:
	VZEROUPPER
	RET

// func bitUntranspose8x32(dst, src *byte, stride, blocks int)
TEXT ·bitUntranspose8x32(SB), NOSPLIT, $0-32
	SETUPY
	TESTQ CX, CX
	JZ   doneb

loopb:
	LOADY8STAGE1
	GROUPY(Y8, Y10, Y12, Y14)
	TBITSY(Y4)
	TBITSY(Y5)
	TBITSY(Y6)
	TBITSY(Y7)
	STOREY(0)
	GROUPY(Y9, Y11, Y13, Y15)
	TBITSY(Y4)
	TBITSY(Y5)
	TBITSY(Y6)
	TBITSY(Y7)
	STOREY(64)
	ADDQ $32, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loopb

doneb:
	VZEROUPPER
	RET

// func unshuffle4x32(dst, src *byte, stride, blocks int)
TEXT ·unshuffle4x32(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	LEAQ (DX)(DX*2), R8
	TESTQ CX, CX
	JZ   done4y

loop4y:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(DX*1), Y1
	VMOVDQU (SI)(DX*2), Y2
	VMOVDQU (SI)(R8*1), Y3
	VPUNPCKLBW Y1, Y0, Y4  // bytes 0,1 of elements 0..7 | 16..23
	VPUNPCKHBW Y1, Y0, Y5  // 8..15 | 24..31
	VPUNPCKLBW Y3, Y2, Y6  // bytes 2,3
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y0  // elements 0..3 | 16..19
	VPUNPCKHWD Y6, Y4, Y1  // 4..7 | 20..23
	VPUNPCKLWD Y7, Y5, Y2  // 8..11 | 24..27
	VPUNPCKHWD Y7, Y5, Y3  // 12..15 | 28..31
	VMOVDQU X0, (DI)
	VMOVDQU X1, 16(DI)
	VMOVDQU X2, 32(DI)
	VMOVDQU X3, 48(DI)
	VEXTRACTI128 $1, Y0, 64(DI)
	VEXTRACTI128 $1, Y1, 80(DI)
	VEXTRACTI128 $1, Y2, 96(DI)
	VEXTRACTI128 $1, Y3, 112(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop4y

done4y:
	VZEROUPPER
	RET

// func unshuffle2x32(dst, src *byte, stride, blocks int)
TEXT ·unshuffle2x32(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	TESTQ CX, CX
	JZ   done2y

loop2y:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(DX*1), Y1
	VPUNPCKLBW Y1, Y0, Y2  // elements 0..7 | 16..23
	VPUNPCKHBW Y1, Y0, Y3  // 8..15 | 24..31
	VMOVDQU X2, (DI)
	VMOVDQU X3, 16(DI)
	VEXTRACTI128 $1, Y2, 32(DI)
	VEXTRACTI128 $1, Y3, 48(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop2y

done2y:
	VZEROUPPER
	RET

// Kernels over planes held apart: plane k starts offs[k] bytes after plane
// 0 (base), wherever each is (a plane stored raw is read where it lies in
// the chunk, a decompressed one in the scratch buffer), instead of k*stride
// bytes. Plane 0's offset is 0 and not read. The loop is that of the
// stride kernels above.

// func unshuffle8x32o(dst, base *byte, offs *[8]int, blocks int)
TEXT ·unshuffle8x32o(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ offs+16(FP), AX
	MOVQ blocks+24(FP), CX
	MOVQ 8(AX), DX
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	MOVQ 32(AX), R10
	MOVQ 40(AX), R11
	MOVQ 48(AX), R12
	MOVQ 56(AX), R13
	TESTQ CX, CX
	JZ   doneo8

loopo8:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(DX*1), Y1
	VMOVDQU (SI)(R8*1), Y2
	VMOVDQU (SI)(R9*1), Y3
	VMOVDQU (SI)(R10*1), Y4
	VMOVDQU (SI)(R11*1), Y5
	VMOVDQU (SI)(R12*1), Y6
	VMOVDQU (SI)(R13*1), Y7
	VPUNPCKLBW Y1, Y0, Y8
	VPUNPCKHBW Y1, Y0, Y9
	VPUNPCKLBW Y3, Y2, Y10
	VPUNPCKHBW Y3, Y2, Y11
	VPUNPCKLBW Y5, Y4, Y12
	VPUNPCKHBW Y5, Y4, Y13
	VPUNPCKLBW Y7, Y6, Y14
	VPUNPCKHBW Y7, Y6, Y15
	GROUPY(Y8, Y10, Y12, Y14)
	STOREY(0)
	GROUPY(Y9, Y11, Y13, Y15)
	STOREY(64)
	ADDQ $32, SI
	ADDQ $256, DI
	DECQ CX
	JNZ  loopo8

doneo8:
	VZEROUPPER
	RET

// func unshuffle4x32o(dst, base *byte, offs *[8]int, blocks int)
TEXT ·unshuffle4x32o(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ offs+16(FP), AX
	MOVQ blocks+24(FP), CX
	MOVQ 8(AX), DX
	MOVQ 16(AX), R8
	MOVQ 24(AX), R9
	TESTQ CX, CX
	JZ   doneo4

loopo4:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(DX*1), Y1
	VMOVDQU (SI)(R8*1), Y2
	VMOVDQU (SI)(R9*1), Y3
	VPUNPCKLBW Y1, Y0, Y4
	VPUNPCKHBW Y1, Y0, Y5
	VPUNPCKLBW Y3, Y2, Y6
	VPUNPCKHBW Y3, Y2, Y7
	VPUNPCKLWD Y6, Y4, Y0
	VPUNPCKHWD Y6, Y4, Y1
	VPUNPCKLWD Y7, Y5, Y2
	VPUNPCKHWD Y7, Y5, Y3
	VMOVDQU X0, (DI)
	VMOVDQU X1, 16(DI)
	VMOVDQU X2, 32(DI)
	VMOVDQU X3, 48(DI)
	VEXTRACTI128 $1, Y0, 64(DI)
	VEXTRACTI128 $1, Y1, 80(DI)
	VEXTRACTI128 $1, Y2, 96(DI)
	VEXTRACTI128 $1, Y3, 112(DI)
	ADDQ $32, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loopo4

doneo4:
	VZEROUPPER
	RET

// func unshuffle2x32o(dst, base *byte, offs *[8]int, blocks int)
TEXT ·unshuffle2x32o(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ base+8(FP), SI
	MOVQ offs+16(FP), AX
	MOVQ blocks+24(FP), CX
	MOVQ 8(AX), DX
	TESTQ CX, CX
	JZ   doneo2

loopo2:
	VMOVDQU (SI), Y0
	VMOVDQU (SI)(DX*1), Y1
	VPUNPCKLBW Y1, Y0, Y2
	VPUNPCKHBW Y1, Y0, Y3
	VMOVDQU X2, (DI)
	VMOVDQU X3, 16(DI)
	VEXTRACTI128 $1, Y2, 32(DI)
	VEXTRACTI128 $1, Y3, 48(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loopo2

doneo2:
	VZEROUPPER
	RET
