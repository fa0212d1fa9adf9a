//go:build !purego

#include "textflag.h"

// SSE2 kernels (baseline on every amd64 CPU, so no feature detection).
// Each processes `blocks` groups of 16 elements. Planes (or bit rows) are
// `stride` bytes apart starting at src; dst receives the interleaved
// elements contiguously. The Go wrappers check every bound.

// func unshuffle2x16(dst, src *byte, stride, blocks int)
TEXT ·unshuffle2x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	TESTQ CX, CX
	JZ   done2

loop2:
	MOVOU (SI), X0
	MOVOU (SI)(DX*1), X1
	MOVO  X0, X2
	PUNPCKLBW X1, X0       // elements 0..7
	PUNPCKHBW X1, X2       // elements 8..15
	MOVOU X0, (DI)
	MOVOU X2, 16(DI)
	ADDQ $16, SI
	ADDQ $32, DI
	DECQ CX
	JNZ  loop2

done2:
	RET

// func unshuffle4x16(dst, src *byte, stride, blocks int)
TEXT ·unshuffle4x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	LEAQ (DX)(DX*2), R8
	TESTQ CX, CX
	JZ   done4

loop4:
	MOVOU (SI), X0
	MOVOU (SI)(DX*1), X1
	MOVOU (SI)(DX*2), X2
	MOVOU (SI)(R8*1), X3
	MOVO  X0, X4
	PUNPCKLBW X1, X0       // bytes 0,1 of elements 0..7
	PUNPCKHBW X1, X4       // bytes 0,1 of elements 8..15
	MOVO  X2, X5
	PUNPCKLBW X3, X2       // bytes 2,3 of elements 0..7
	PUNPCKHBW X3, X5       // bytes 2,3 of elements 8..15
	MOVO  X0, X6
	PUNPCKLWL X2, X0       // elements 0..3
	PUNPCKHWL X2, X6       // elements 4..7
	MOVO  X4, X7
	PUNPCKLWL X5, X4       // elements 8..11
	PUNPCKHWL X5, X7       // elements 12..15
	MOVOU X0, (DI)
	MOVOU X6, 16(DI)
	MOVOU X4, 32(DI)
	MOVOU X7, 48(DI)
	ADDQ $16, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop4

done4:
	RET

// LOAD8 loads 16 bytes from each of the 8 planes into X0..X7.
#define LOAD8 \
	MOVOU (SI), X0; \
	MOVOU (SI)(DX*1), X1; \
	MOVOU (SI)(DX*2), X2; \
	MOVOU (SI)(R8*1), X3; \
	MOVOU (SI)(DX*4), X4; \
	MOVOU (SI)(R9*1), X5; \
	MOVOU (SI)(R10*1), X6; \
	MOVOU (SI)(R11*1), X7

// STAGE1 interleaves plane pairs: X0,X2,X4,X6 get elements 0..7 and
// X8..X11 elements 8..15 of the pairs (0,1) (2,3) (4,5) (6,7).
#define STAGE1 \
	MOVO X0, X8; \
	PUNPCKLBW X1, X0; \
	PUNPCKHBW X1, X8; \
	MOVO X2, X9; \
	PUNPCKLBW X3, X2; \
	PUNPCKHBW X3, X9; \
	MOVO X4, X10; \
	PUNPCKLBW X5, X4; \
	PUNPCKHBW X5, X10; \
	MOVO X6, X11; \
	PUNPCKLBW X7, X6; \
	PUNPCKHBW X7, X11

// LO leaves elements 0,1 / 2,3 / 4,5 / 6,7 (8 bytes each) in X0, X5, X1, X7.
#define LO \
	MOVO X0, X1; \
	PUNPCKLWL X2, X0; \
	PUNPCKHWL X2, X1; \
	MOVO X4, X3; \
	PUNPCKLWL X6, X4; \
	PUNPCKHWL X6, X3; \
	MOVO X0, X5; \
	PUNPCKLLQ X4, X0; \
	PUNPCKHLQ X4, X5; \
	MOVO X1, X7; \
	PUNPCKLLQ X3, X1; \
	PUNPCKHLQ X3, X7

// HI leaves elements 8,9 / 10,11 / 12,13 / 14,15 in X8, X2, X0, X3
// (X0..X7 are free once LO's results are stored).
#define HI \
	MOVO X8, X0; \
	PUNPCKLWL X9, X8; \
	PUNPCKHWL X9, X0; \
	MOVO X10, X1; \
	PUNPCKLWL X11, X10; \
	PUNPCKHWL X11, X1; \
	MOVO X8, X2; \
	PUNPCKLLQ X10, X8; \
	PUNPCKHLQ X10, X2; \
	MOVO X0, X3; \
	PUNPCKLLQ X1, X0; \
	PUNPCKHLQ X1, X3

#define SETUP8 \
	MOVQ dst+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ stride+16(FP), DX; \
	MOVQ blocks+24(FP), CX; \
	LEAQ (DX)(DX*2), R8; \
	LEAQ (DX)(DX*4), R9; \
	LEAQ (R8)(R8*1), R10; \
	LEAQ (R9)(DX*2), R11

// func unshuffle8x16(dst, src *byte, stride, blocks int)
TEXT ·unshuffle8x16(SB), NOSPLIT, $0-32
	SETUP8
	TESTQ CX, CX
	JZ   done8

loop8:
	LOAD8
	STAGE1
	LO
	MOVOU X0, (DI)
	MOVOU X5, 16(DI)
	MOVOU X1, 32(DI)
	MOVOU X7, 48(DI)
	HI
	MOVOU X8, 64(DI)
	MOVOU X2, 80(DI)
	MOVOU X0, 96(DI)
	MOVOU X3, 112(DI)
	ADDQ $16, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loop8

done8:
	RET

// TBITS transposes the 8x8 bit matrix in each 64-bit lane of R (byte r =
// row r, bit c = column c), using T as scratch and the masks in X12..X14:
// three rounds of x ^= t ^ t<<s with t = (x ^ x>>s) & mask.
#define TBITS(R, T) \
	MOVO R, T; \
	PSRLQ $7, T; \
	PXOR R, T; \
	PAND X12, T; \
	PXOR T, R; \
	PSLLQ $7, T; \
	PXOR T, R; \
	MOVO R, T; \
	PSRLQ $14, T; \
	PXOR R, T; \
	PAND X13, T; \
	PXOR T, R; \
	PSLLQ $14, T; \
	PXOR T, R; \
	MOVO R, T; \
	PSRLQ $28, T; \
	PXOR R, T; \
	PAND X14, T; \
	PXOR T, R; \
	PSLLQ $28, T; \
	PXOR T, R

// func bitUntranspose8x16(dst, src *byte, stride, blocks int)
//
// Reads 16 bytes (128 elements' worth of bits) from each of 8 bit rows and
// writes the 128 bytes of the byte plane they encode: the byte transpose is
// unshuffle8x16's, then each 8-byte group is bit-transposed.
TEXT ·bitUntranspose8x16(SB), NOSPLIT, $0-32
	SETUP8
	MOVQ $0x00AA00AA00AA00AA, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12
	MOVQ $0x0000CCCC0000CCCC, AX
	MOVQ AX, X13
	PUNPCKLQDQ X13, X13
	MOVQ $0x00000000F0F0F0F0, AX
	MOVQ AX, X14
	PUNPCKLQDQ X14, X14
	TESTQ CX, CX
	JZ   donebits

loopbits:
	LOAD8
	STAGE1
	LO
	TBITS(X0, X15)
	TBITS(X5, X15)
	TBITS(X1, X15)
	TBITS(X7, X15)
	MOVOU X0, (DI)
	MOVOU X5, 16(DI)
	MOVOU X1, 32(DI)
	MOVOU X7, 48(DI)
	HI
	TBITS(X8, X15)
	TBITS(X2, X15)
	TBITS(X0, X15)
	TBITS(X3, X15)
	MOVOU X8, 64(DI)
	MOVOU X2, 80(DI)
	MOVOU X0, 96(DI)
	MOVOU X3, 112(DI)
	ADDQ $16, SI
	ADDQ $128, DI
	DECQ CX
	JNZ  loopbits

donebits:
	RET

// The ...w variants serve typesizes other than 2, 4 and 8: they interleave a
// group of 8, 4 or 2 planes into bytes [j, j+g) of each element, writing the
// g-byte pieces dstStride (= typesize) bytes apart.

// func unshuffle8x16w(dst, src *byte, stride, blocks, dstStride int)
TEXT ·unshuffle8x16w(SB), NOSPLIT, $0-40
	SETUP8
	MOVQ dstStride+32(FP), BX
	TESTQ CX, CX
	JZ   done8w

loop8w:
	LOAD8
	STAGE1
	LO
	MOVQ   X0, (DI)
	ADDQ   BX, DI
	MOVHPS X0, (DI)
	ADDQ   BX, DI
	MOVQ   X5, (DI)
	ADDQ   BX, DI
	MOVHPS X5, (DI)
	ADDQ   BX, DI
	MOVQ   X1, (DI)
	ADDQ   BX, DI
	MOVHPS X1, (DI)
	ADDQ   BX, DI
	MOVQ   X7, (DI)
	ADDQ   BX, DI
	MOVHPS X7, (DI)
	ADDQ   BX, DI
	HI
	MOVQ   X8, (DI)
	ADDQ   BX, DI
	MOVHPS X8, (DI)
	ADDQ   BX, DI
	MOVQ   X2, (DI)
	ADDQ   BX, DI
	MOVHPS X2, (DI)
	ADDQ   BX, DI
	MOVQ   X0, (DI)
	ADDQ   BX, DI
	MOVHPS X0, (DI)
	ADDQ   BX, DI
	MOVQ   X3, (DI)
	ADDQ   BX, DI
	MOVHPS X3, (DI)
	ADDQ   BX, DI
	ADDQ $16, SI
	DECQ CX
	JNZ  loop8w

done8w:
	RET

// STORE4 writes the four 4-byte elements of register R, BX bytes apart.
#define STORE4(R) \
	MOVQ R, AX; \
	MOVL AX, (DI); \
	ADDQ BX, DI; \
	SHRQ $32, AX; \
	MOVL AX, (DI); \
	ADDQ BX, DI; \
	MOVHLPS R, R; \
	MOVQ R, AX; \
	MOVL AX, (DI); \
	ADDQ BX, DI; \
	SHRQ $32, AX; \
	MOVL AX, (DI); \
	ADDQ BX, DI

// func unshuffle4x16w(dst, src *byte, stride, blocks, dstStride int)
TEXT ·unshuffle4x16w(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	MOVQ dstStride+32(FP), BX
	LEAQ (DX)(DX*2), R8
	TESTQ CX, CX
	JZ   done4w

loop4w:
	MOVOU (SI), X0
	MOVOU (SI)(DX*1), X1
	MOVOU (SI)(DX*2), X2
	MOVOU (SI)(R8*1), X3
	MOVO  X0, X4
	PUNPCKLBW X1, X0
	PUNPCKHBW X1, X4
	MOVO  X2, X5
	PUNPCKLBW X3, X2
	PUNPCKHBW X3, X5
	MOVO  X0, X6
	PUNPCKLWL X2, X0
	PUNPCKHWL X2, X6
	MOVO  X4, X7
	PUNPCKLWL X5, X4
	PUNPCKHWL X5, X7
	STORE4(X0)
	STORE4(X6)
	STORE4(X4)
	STORE4(X7)
	ADDQ $16, SI
	DECQ CX
	JNZ  loop4w

done4w:
	RET

// STORE2x4 writes the four 2-byte elements in AX, BX bytes apart.
#define STORE2x4 \
	MOVW AX, (DI); \
	ADDQ BX, DI; \
	SHRQ $16, AX; \
	MOVW AX, (DI); \
	ADDQ BX, DI; \
	SHRQ $16, AX; \
	MOVW AX, (DI); \
	ADDQ BX, DI; \
	SHRQ $16, AX; \
	MOVW AX, (DI); \
	ADDQ BX, DI

// func unshuffle2x16w(dst, src *byte, stride, blocks, dstStride int)
TEXT ·unshuffle2x16w(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	MOVQ dstStride+32(FP), BX
	TESTQ CX, CX
	JZ   done2w

loop2w:
	MOVOU (SI), X0
	MOVOU (SI)(DX*1), X1
	MOVO  X0, X2
	PUNPCKLBW X1, X0
	PUNPCKHBW X1, X2
	MOVQ X0, AX
	STORE2x4
	MOVHLPS X0, X0
	MOVQ X0, AX
	STORE2x4
	MOVQ X2, AX
	STORE2x4
	MOVHLPS X2, X2
	MOVQ X2, AX
	STORE2x4
	ADDQ $16, SI
	DECQ CX
	JNZ  loop2w

done2w:
	RET

// Forward shuffle. One unpack round over N registers, pairing register r
// with r+N/2, rotates the 7-, 6- or 5-bit byte index (register, lane) left
// by one bit; four rounds turn element-major order (element<<k | byte) into
// plane-major order (byte<<4 | element) for 16 elements of 2^k bytes.

#define ROUND8(A0, A1, A2, A3, A4, A5, A6, A7, B0, B1, B2, B3, B4, B5, B6, B7) \
	MOVO A0, B0; \
	PUNPCKLBW A4, B0; \
	MOVO A0, B1; \
	PUNPCKHBW A4, B1; \
	MOVO A1, B2; \
	PUNPCKLBW A5, B2; \
	MOVO A1, B3; \
	PUNPCKHBW A5, B3; \
	MOVO A2, B4; \
	PUNPCKLBW A6, B4; \
	MOVO A2, B5; \
	PUNPCKHBW A6, B5; \
	MOVO A3, B6; \
	PUNPCKLBW A7, B6; \
	MOVO A3, B7; \
	PUNPCKHBW A7, B7

// func shuffle8x16(dst, src *byte, stride, blocks int)
TEXT ·shuffle8x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	LEAQ (DX)(DX*2), R8
	LEAQ (DX)(DX*4), R9
	LEAQ (R8)(R8*1), R10
	LEAQ (R9)(DX*2), R11
	TESTQ CX, CX
	JZ   dones8

loops8:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU 64(SI), X4
	MOVOU 80(SI), X5
	MOVOU 96(SI), X6
	MOVOU 112(SI), X7
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(DX*1)
	MOVOU X2, (DI)(DX*2)
	MOVOU X3, (DI)(R8*1)
	MOVOU X4, (DI)(DX*4)
	MOVOU X5, (DI)(R9*1)
	MOVOU X6, (DI)(R10*1)
	MOVOU X7, (DI)(R11*1)
	ADDQ $128, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loops8

dones8:
	RET

#define ROUND4(A0, A1, A2, A3, B0, B1, B2, B3) \
	MOVO A0, B0; \
	PUNPCKLBW A2, B0; \
	MOVO A0, B1; \
	PUNPCKHBW A2, B1; \
	MOVO A1, B2; \
	PUNPCKLBW A3, B2; \
	MOVO A1, B3; \
	PUNPCKHBW A3, B3

// func shuffle4x16(dst, src *byte, stride, blocks int)
TEXT ·shuffle4x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	LEAQ (DX)(DX*2), R8
	TESTQ CX, CX
	JZ   dones4

loops4:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	ROUND4(X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND4(X4, X5, X6, X7, X0, X1, X2, X3)
	ROUND4(X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND4(X4, X5, X6, X7, X0, X1, X2, X3)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(DX*1)
	MOVOU X2, (DI)(DX*2)
	MOVOU X3, (DI)(R8*1)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loops4

dones4:
	RET

// func shuffle2x16(dst, src *byte, stride, blocks int)
TEXT ·shuffle2x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	TESTQ CX, CX
	JZ   dones2

loops2:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVO X0, X2
	PUNPCKLBW X1, X2
	MOVO X0, X3
	PUNPCKHBW X1, X3
	MOVO X2, X0
	PUNPCKLBW X3, X0
	MOVO X2, X1
	PUNPCKHBW X3, X1
	MOVO X0, X2
	PUNPCKLBW X1, X2
	MOVO X0, X3
	PUNPCKHBW X1, X3
	MOVO X2, X0
	PUNPCKLBW X3, X0
	MOVO X2, X1
	PUNPCKHBW X3, X1
	MOVOU X0, (DI)
	MOVOU X1, (DI)(DX*1)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loops2

dones2:
	RET

// func bitTranspose8x16(dst, src *byte, stride, blocks int)
//
// The inverse of bitUntranspose8x16: reads 128 bytes of a byte plane at src
// and writes 16 bytes to each of the 8 bit rows at dst, stride bytes apart.
// Each 8-byte group is bit-transposed first (TBITS), then the forward
// byte shuffle of 16 8-byte "elements" sends byte k of every group to row k.
TEXT ·bitTranspose8x16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	LEAQ (DX)(DX*2), R8
	LEAQ (DX)(DX*4), R9
	LEAQ (R8)(R8*1), R10
	LEAQ (R9)(DX*2), R11
	MOVQ $0x00AA00AA00AA00AA, AX
	MOVQ $0x0000CCCC0000CCCC, BX
	MOVQ $0x00000000F0F0F0F0, R12
	TESTQ CX, CX
	JZ   donebt

loopbt:
	// ROUND8 clobbers X8..X15, so the masks are rebuilt every step.
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12
	MOVQ BX, X13
	PUNPCKLQDQ X13, X13
	MOVQ R12, X14
	PUNPCKLQDQ X14, X14
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU 64(SI), X4
	MOVOU 80(SI), X5
	MOVOU 96(SI), X6
	MOVOU 112(SI), X7
	TBITS(X0, X15)
	TBITS(X1, X15)
	TBITS(X2, X15)
	TBITS(X3, X15)
	TBITS(X4, X15)
	TBITS(X5, X15)
	TBITS(X6, X15)
	TBITS(X7, X15)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(DX*1)
	MOVOU X2, (DI)(DX*2)
	MOVOU X3, (DI)(R8*1)
	MOVOU X4, (DI)(DX*4)
	MOVOU X5, (DI)(R9*1)
	MOVOU X6, (DI)(R10*1)
	MOVOU X7, (DI)(R11*1)
	ADDQ $128, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loopbt

donebt:
	RET

// LOADPAIR loads the 8-byte pieces of two consecutive elements, srcStride
// (BX) bytes apart, into R.
#define LOADPAIR(R) \
	MOVQ (SI), R; \
	ADDQ BX, SI; \
	MOVHPS (SI), R; \
	ADDQ BX, SI

// func shuffle8x16w(dst, src *byte, stride, blocks, srcStride int)
//
// Forward shuffle of one group of 8 planes for typesizes other than 2, 4,
// 8: gathers bytes [j, j+8) of 16 elements srcStride bytes apart and writes
// 16 bytes to each of the 8 planes.
TEXT ·shuffle8x16w(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ stride+16(FP), DX
	MOVQ blocks+24(FP), CX
	MOVQ srcStride+32(FP), BX
	LEAQ (DX)(DX*2), R8
	LEAQ (DX)(DX*4), R9
	LEAQ (R8)(R8*1), R10
	LEAQ (R9)(DX*2), R11
	TESTQ CX, CX
	JZ   dones8w

loops8w:
	LOADPAIR(X0)
	LOADPAIR(X1)
	LOADPAIR(X2)
	LOADPAIR(X3)
	LOADPAIR(X4)
	LOADPAIR(X5)
	LOADPAIR(X6)
	LOADPAIR(X7)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	ROUND8(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15)
	ROUND8(X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7)
	MOVOU X0, (DI)
	MOVOU X1, (DI)(DX*1)
	MOVOU X2, (DI)(DX*2)
	MOVOU X3, (DI)(R8*1)
	MOVOU X4, (DI)(DX*4)
	MOVOU X5, (DI)(R9*1)
	MOVOU X6, (DI)(R10*1)
	MOVOU X7, (DI)(R11*1)
	ADDQ $16, DI
	DECQ CX
	JNZ  loops8w

dones8w:
	RET
