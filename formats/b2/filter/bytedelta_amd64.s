//go:build !purego

#include "textflag.h"

// func byteDeltaDecode16(dst, src *byte, blocks int)
//
// Running byte sum over 16*blocks bytes starting from 0: a log-step prefix
// sum inside each 16-byte vector plus the previous vector's last byte.
// dst may equal src.
TEXT ·byteDeltaDecode16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ blocks+16(FP), CX
	PXOR X7, X7              // carry: previous last byte in every lane
	TESTQ CX, CX
	JZ   done

loop:
	MOVOU (SI), X0
	MOVO  X0, X1
	PSLLO $1, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $2, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $4, X1
	PADDB X1, X0
	MOVO  X0, X1
	PSLLO $8, X1
	PADDB X1, X0
	PADDB X7, X0
	MOVOU X0, (DI)
	// Broadcast byte 15 for the next vector.
	MOVO  X0, X7
	PUNPCKHBW X7, X7
	PSHUFHW $0xFF, X7, X7
	PUNPCKHQDQ X7, X7
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loop

done:
	RET

// func byteDeltaEncode16(dst, src *byte, blocks int)
//
// dst[i] = src[i] - src[i-1] over 16*blocks bytes, src[-1] = 0.
TEXT ·byteDeltaEncode16(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ blocks+16(FP), CX
	PXOR X7, X7              // previous vector, for its last byte
	TESTQ CX, CX
	JZ   doneenc

loopenc:
	MOVOU (SI), X0
	MOVO  X0, X1
	PSLLO $1, X1
	PSRLO $15, X7
	POR   X7, X1
	MOVO  X0, X7
	PSUBB X1, X0
	MOVOU X0, (DI)
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  loopenc

doneenc:
	RET
