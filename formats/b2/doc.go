// Package b2 reads and writes Blosc2 chunks, frames and b2nd arrays in pure
// Go, bit-compatible with c-blosc2 (formats described in c-blosc2's
// README_CHUNK_FORMAT.rst, README_CFRAME_FORMAT.rst,
// README_SFRAME_FORMAT.rst and README_B2ND_METALAYER.rst; the project spec
// is shared/specs/blosc2-format.md §2–§4).
//
// # Chunk
//
// A chunk is one independently decodable buffer of up to 2 GiB:
//
//	 0      1         2      3        4        8          12       16
//	┌──────┬─────────┬──────┬────────┬────────┬──────────┬────────┐
//	│ ver  │ versionlz│ flags│typesize│ nbytes │ blocksize│ cbytes │  base header (Blosc1)
//	└──────┴─────────┴──────┴────────┴────────┴──────────┴────────┘
//	16          22      23      24              30      31     32
//	┌───────────┬───────┬───────┬───────────────┬───────┬───────┐
//	│filters[6] │udcodec│cc meta│ filters_meta[6]│flags2 │b2flags│  extension (flags bits 0 and 2 both set)
//	└───────────┴───────┴───────┴───────────────┴───────┴───────┘
//	┌────────────────────┬──────────────────┬──────────────────────────────┐
//	│ bstarts i32 × nblk │ [dict: i32 + data]│ block streams (any order)    │
//	└────────────────────┴──────────────────┴──────────────────────────────┘
//	stream = i32 csize │ csize bytes (codec output, or raw when csize == size)
//	         csize 0 = zeros, csize < 0 + token byte = run of one byte value
//
// nbytes and blocksize let a reader size buffers and find any block
// without decoding the others (random access, like blosc2_getitem).
// cbytes lets chunks be concatenated. Each block is filtered (shuffle,
// bitshuffle, delta, bytedelta, trunc_prec: six slots applied in order)
// and then, unless flags bit 4 (dont_split) is set, split into typesize
// streams so that each byte plane compresses on its own. Special chunks
// (zeros, NaN, a repeated value, uninitialized) carry no streams at all;
// memcpyed chunks (flags bit 1) store the payload raw after the header.
//
// # Frame
//
// A contiguous frame (.b2frame, .b2nd, .b2f) is one file:
//
//	┌───────────────────────────┬──────────┬─────┬──────────┬───────────────┬─────────────────┐
//	│ header (msgpack, 87 bytes │ chunk 0  │ ... │ chunk n-1│ offsets chunk │ trailer         │
//	│ fixed + metalayers)       │          │     │          │ (i64 × n)     │ (vlmeta, len)   │
//	└───────────────────────────┴──────────┴─────┴──────────┴───────────────┴─────────────────┘
//
// The fixed header part has constant msgpack encodings so that fields can
// be read and patched by offset; metalayers sit in the header because
// their size must never change once chunks follow. Offsets are relative
// to the end of the header, so a frame can live at any position inside a
// larger file (a .b2z zip member): see NewFrame. A negative offset marks
// a special chunk that is not stored at all. Variable-length metadata
// (vlmeta) lives in the trailer, the only part rewritten when it changes;
// its last 23 bytes give the trailer length so it is read backwards.
// A sparse frame is a directory holding the header/offsets/trailer in
// chunks.b2frame and one %08X.chunk file per chunk.
//
// # b2nd
//
// A b2nd array is a frame whose "b2nd" metalayer gives shape, chunkshape,
// blockshape and a NumPy dtype string. Chunks tile the shape in C order;
// each chunk is padded to whole blocks and edge chunks are padded to the
// full chunk shape, so every chunk has the same size; blocks tile a chunk
// in C order and hold their items in C order.
//
// Writing follows c-blosc2's b2nd exactly: every chunk is gathered into
// that block-major order, padding zeroed, and chunks are stored in C order
// of their chunk coordinates. NDWriter never holds the array: WriteChunk
// takes one chunk's unpadded content at a time (memory: one padded and one
// compressed chunk per worker), Append takes C-order rows along the first
// dimension and emits a chunk-row (chunkshape[0] rows × all other
// dimensions) as soon as it is complete, so its bound is that chunk-row
// (or ⌈workers / chunks per chunk-row⌉ of them) plus the per-worker
// chunks. A first dimension of -1 grows as rows arrive; the metalayer is
// patched in place at Close.
//
// # API overview
//
//   - Chunks: Decompress, DecompressRange, GetItems and a reusable Decoder
//     (DecompressBlock) read any chunk version 2–6; Compress and Encoder
//     write version-5 chunks; ParseChunkHeader describes one.
//   - Frames: Open (file: header and metadata via mmap, chunk bytes via
//     pread of only the blocks a read needs, see chunkread.go; or sparse
//     directory), NewFrame (bytes), NewFileFrame (bytes inside a file, e.g.
//     a STORED .b2z member), Frame.ChunkData / DecompressChunk /
//     DecompressChunkRange, metalayers and vlmeta; CreateFrame writes.
//   - b2nd: OpenArray / NewArray, Array.ReadSlice (N-d hyper-slabs touching
//     only the needed chunks and blocks), Array.Chunks (1-D chunk
//     iterator), Items (typed view). CreateArray returns an NDWriter that
//     streams an N-d array (see below); WriteArray (whole array in memory)
//     and CreateArray1D (1-D, growing) are thin wrappers over it.
//   - Inspect dumps a file's layout for `b2sql inspect`.
//
// # What other writers write
//
// Checked value by value against files c-blosc2 3.3.2 wrote over a matrix
// of codecs, filter pipelines, typesizes, blocksizes, split modes and
// thread counts (cblosc2_test.go, testdata/cblosc2/README.md):
//
//   - With nthreads > 1 (python-blosc2's default) c-blosc2 stores a
//     chunk's blocks in the order its threads finish them. Readers seek
//     every block through bstarts, and a partial read of a DELTA chunk
//     reads block 0 (the XOR reference) wherever it is stored.
//   - BYTEDELTA (filter 35) is read and written as c-blosc2 ≥ 3.3.2 does:
//     the trailing bytes of a block that do not fill a whole item pass
//     through unchanged. Earlier writers (2.10–3.3.1) never wrote those
//     bytes, so in their files they decode to whatever their buffer held
//     (as in c-blosc2 itself); blocks of whole items are unaffected.
//     Filter 34 (the original BYTEDELTA of c-blosc2 2.8–2.9, whose output
//     depends on the writer's SIMD build) is refused as unsupported.
//   - Of c-blosc2's plugins, INT_TRUNC (filter 36) is read (like
//     TRUNC_PREC it has nothing to undo). NDCELL and NDMEAN (filters 32,
//     33) store a b2nd block cell by cell; their inverse moves the cells
//     back, using the block shape from the array's b2nd metalayer (a chunk
//     outside a b2nd array is refused as unsupported). NDMEAN's averaging
//     happened when writing, so it reads back the means, as in c-blosc2.
//     The NDLZ codec (compcode 32: 2-D blocks of one-byte items in 4×4 or
//     8×8 cells, ndlz.go) is read; the ZFP, OpenHTJ2K and Grok codecs are
//     refused as unsupported, by name.
//   - c-blosc2 3.3.2 writes two things it cannot read back correctly
//     itself. The first chunk of a frame whose blocksize is not a multiple
//     of the typesize records the blocksize asked for while its blocks use
//     the rounded-down one (Blosc only splits at whole items): this package
//     reads such a header's blocksize rounded down, so those chunks read
//     exactly. A three-filter pipeline starting with DELTA in a chunk of
//     several blocks overwrites the caller's buffer while compressing, so
//     later blocks are encoded against a clobbered reference: no reader
//     can recover the values (the bytes read back are c-blosc2's own).
//
// # Robustness
//
// Every length and offset is checked before use; malformed input yields
// an error wrapping ErrCorrupt (naming file, chunk and offset where
// known), never a panic, and no allocation larger than what a header
// claims and the input can justify: block counts are bounded by the
// bstarts that must fit in the chunk, offsets and vlmeta by a maximum
// expansion ratio of their stored bytes, and codec output by the
// destination buffer the caller sized from the (validated) header.
//
// # Files
//
// A Frame (frame.go) reads its chunks through the chunk reader
// (chunkread.go), which reads the frame's offsets and file, and through its
// read-ahead (readahead.go), which serves the chunk file the reader holds:
// one state type split by concern, the two pairs of files that need each
// other (tests/filecycles_test.go allows at most 2).
package b2
