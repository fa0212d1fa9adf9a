//go:build !amd64 || purego

package filter

// Portable builds have no vector kernels: the word-at-a-time Go loops do all
// the work.

func unshuffleAsm(dst, src []byte, w int) int { return 0 }

func bitUntransposeAsm(out, rows []byte, rowLen, col int) int { return 0 }

func unshuffleGroupAsm(dst, src []byte, w, j, g int) int { return 0 }

func byteDeltaDecodeAsm(dst, src []byte) int { return 0 }

func byteDeltaEncodeAsm(dst, src []byte) int { return 0 }

func shuffleAsm(dst, src []byte, w int) int { return 0 }

func bitTransposeAsm(rows []byte, rowLen, col int, in []byte) int { return 0 }

func shuffleGroupAsm(dst, src []byte, w, j, g int) int { return 0 }

func planesKernel(w, m int) bool { return false }

func unshufflePlanesAsm(dst []byte, planes [][]byte) int { return 0 }
