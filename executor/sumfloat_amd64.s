//go:build !purego

#include "textflag.h"

// func twoSum4AVX(xs *float64, groups int, s, c *[4]float64)
//
// sumDense4's four TwoSum chains in the four lanes of one YMM register pair:
// lane k adds xs[k], xs[4+k], xs[8+k], … exactly as chain k of the Go loop
// does, with the same IEEE operations in the same order, so the sums are
// bit for bit the same; one vector step does the four chains' work.
TEXT ·twoSum4AVX(SB), NOSPLIT, $0-32
	MOVQ xs+0(FP), SI
	MOVQ groups+8(FP), CX
	MOVQ s+16(FP), AX
	MOVQ c+24(FP), BX
	VMOVUPD (AX), Y0 // s
	VMOVUPD (BX), Y1 // c
	TESTQ CX, CX
	JZ done

loop:
	VMOVUPD (SI), Y2     // x
	VADDPD  Y2, Y0, Y3   // t = s + x
	VSUBPD  Y0, Y3, Y4   // b = t - s
	VSUBPD  Y4, Y3, Y5   // t - b
	VSUBPD  Y5, Y0, Y5   // s - (t - b)
	VSUBPD  Y4, Y2, Y6   // x - b
	VADDPD  Y6, Y5, Y5   // (s - (t - b)) + (x - b)
	VADDPD  Y5, Y1, Y1   // c += …
	VMOVAPD Y3, Y0       // s = t
	ADDQ    $32, SI
	DECQ    CX
	JNZ     loop

done:
	VMOVUPD Y0, (AX)
	VMOVUPD Y1, (BX)
	VZEROUPPER
	RET
