// Package filter owns the blosc2 filter kernels: the reversible byte
// transforms c-blosc2 applies to each block before compressing it, written as
// forward (encode) and backward (decode) functions over byte slices. It knows
// nothing about chunks or codecs; formats/b2 runs the pipeline (spec
// blosc2-format.md §2.7: slots 0→5 forward, 5→0 backward, per block).
//
//	id  filter       here
//	1   SHUFFLE      Shuffle / Unshuffle          byte planes, tail copied
//	2   BITSHUFFLE   BitShuffle / BitUnshuffle    bit planes of a multiple of 8 elements
//	3   DELTA        DeltaEncode / DeltaDecode    XOR against block 0 of the chunk
//	4   TRUNC_PREC   TruncPrec                    lossy, no inverse
//	32  NDCELL       CellsGroup / CellsUngroup    b2nd blocks stored cell by cell
//	33  NDMEAN       CellsUngroup                 the same order; cells averaged when written
//	35  BYTEDELTA    ByteDeltaEncode / ByteDeltaDecode  per-plane byte differences
//
// Decoding speed bounds how fast a whole blosc2 chunk decodes, so the
// shuffle kernels have unrolled word-at-a-time Go paths for the common
// element sizes (2, 4, 8), and bitshuffle works on 8×8 bit matrices held in
// uint64 words, tile by tile so its scratch stays in L1. On amd64 the inner
// loops are SSE2 assembly (part of the amd64 baseline: shuffle, unshuffle,
// bit transpose, bytedelta), with AVX2 variants of the decoding kernels
// (unshuffle for 2, 4, 8 planes and the bit untranspose) selected at
// start-up through golang.org/x/sys/cpu; -tags purego (or any
// other GOARCH) uses the Go paths, which the tests check against the same
// formulas. The kernels hold no state; all are safe for concurrent use.
//
// Unless a function says otherwise, dst must be at least len(src) bytes and
// must not overlap src; a shorter dst is a caller bug and panics. Parameters
// that come from a file (typesize, precision) are validated, never trusted.
package filter
