// Package blosclz owns the BloscLZ codec: the FastLZ-derived LZ77 stream
// format that c-blosc2 uses for its default codec (compcode 0, chunk format
// code 0). It knows nothing about chunks, blocks or filters: it turns one
// compressed stream into bytes and back.
//
// Stream format (spec blosc2-format.md §2.9.1, c-blosc2 blosc/blosclz.c):
//
//	first byte      000LLLLL or 001LLLLL: literal run; top 3 bits ignored
//	literal run     ctrl < 32: ctrl+1 literal bytes follow (1..32)
//	near match      ctrl = LLL OOOOO (LLL = 1..6), then one byte D:
//	                length LLL+2, distance (OOOOO<<8 | D) + 1  (1..8191)
//	long match      LLL = 7: extra length bytes follow (255 continues), then D
//	far match       OOOOO = 31 and D = 255: two big-endian bytes F follow,
//	                distance F + 8192 (up to 73727)
//
// A match may overlap its own output (distance < length): that is how runs
// are encoded, so the decoder copies forward. A stream ends with a literal
// run: c-blosc2 3.x drops a final match, so Decompress rejects one.
//
// Decompress is hardened for hostile input: every read and write is bounds
// checked and a malformed stream returns an error wrapping ErrCorrupt. Compress
// is a from-scratch greedy single-probe hash compressor; its output is a valid
// BloscLZ stream for c-blosc2's decoder but not byte-identical to c-blosc2's.
package blosclz
