package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/pierrec/lz4/v4"
)

// Codecs. arrow-go decompresses pages through a process-wide registry of
// codecs (compress.RegisterCodec); this file adjusts it once, at init, for
// what writers in the wild produce:
//
//   - LZ4 (codec 5, deprecated by the format) is left unimplemented by
//     arrow-go because writers disagree on what it means: parquet-mr wraps
//     LZ4 blocks in Hadoop's framing (a big-endian decompressed size and
//     compressed size before each block), parquet-cpp before 2.0 wrote one
//     bare LZ4 block. lz4HadoopCodec reads both, as Arrow C++ does: Hadoop
//     framing when its sizes are consistent with the page, otherwise a raw
//     block.
//   - An empty compressed region decompresses to nothing. A DataPage V2
//     holding only levels (every value NULL) has zero value bytes, which
//     parquet-mr writes without running the codec; Snappy, for one, rejects
//     an empty input. emptySafe decodes zero bytes as zero bytes without
//     calling the codec, for every codec.
//   - A compressed block that says it decompresses to more than the page
//     header's uncompressed size is corrupt, and is refused before the
//     codec allocates what it says (Snappy's length prefix, a zstd frame's
//     content size): a 28-byte page could otherwise make Snappy allocate
//     200 MB (FuzzPageHeaders).
//
// The registry is global, so any arrow-go reader in the process sees these
// codecs; b2sql reads Parquet only through this package.
func init() {
	compress.RegisterCodec(compress.Codecs.Lz4, lz4HadoopCodec{})
	for _, c := range []compress.Compression{
		compress.Codecs.Snappy, compress.Codecs.Gzip, compress.Codecs.Brotli,
		compress.Codecs.Zstd, compress.Codecs.Lz4Raw, compress.Codecs.Lz4,
	} {
		codec, err := compress.GetCodec(c)
		if err != nil {
			continue
		}
		compress.RegisterCodec(c, wrapEmptySafe(codec, c))
	}
}

// wrapEmptySafe returns codec with empty inputs decoded as empty outputs. A
// streaming codec stays streaming: arrow-go streams large PLAIN pages
// through codecs that implement compress.StreamingCodec.
func wrapEmptySafe(codec compress.Codec, kind compress.Compression) compress.Codec {
	if s, ok := codec.(compress.StreamingCodec); ok {
		return emptySafeStreaming{emptySafe{codec, kind}, s}
	}
	return emptySafe{codec, kind}
}

type emptySafe struct {
	compress.Codec
	kind compress.Compression
}

func (c emptySafe) Decode(dst, src []byte) []byte {
	out, err := c.DecodeWithError(dst, src)
	if err != nil {
		panic(err) // compress.Codec's contract; arrow-go calls DecodeWithError
	}
	return out
}

func (c emptySafe) DecodeWithError(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return dst[:0], nil
	}
	if err := checkDecodedLen(c.kind, src, len(dst)); err != nil {
		return nil, err
	}
	return compress.Decode(c.Codec, dst, src)
}

type emptySafeStreaming struct {
	emptySafe
	s compress.StreamingCodec
}

func (c emptySafeStreaming) NewReader(r io.Reader) io.ReadCloser  { return c.s.NewReader(r) }
func (c emptySafeStreaming) NewWriter(w io.Writer) io.WriteCloser { return c.s.NewWriter(w) }
func (c emptySafeStreaming) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return c.s.NewWriterLevel(w, level)
}

// lz4HadoopCodec decodes Parquet's LZ4 codec (5) in both its
// variants; it never writes (the Writer does not offer LZ4, whose meaning
// readers disagree on: use LZ4_RAW).
type lz4HadoopCodec struct{}

var errLZ4Write = errors.New("parquet: writing the deprecated LZ4 codec is not supported; use LZ4_RAW")

func (lz4HadoopCodec) Encode(dst, src []byte) []byte                 { panic(errLZ4Write) }
func (lz4HadoopCodec) EncodeLevel(dst, src []byte, level int) []byte { panic(errLZ4Write) }
func (lz4HadoopCodec) CompressBound(n int64) int64                   { return int64(lz4.CompressBlockBound(int(n))) }

func (c lz4HadoopCodec) Decode(dst, src []byte) []byte {
	out, err := c.DecodeWithError(dst, src)
	if err != nil {
		panic(err)
	}
	return out
}

// DecodeWithError decodes src into dst, whose length is the page's
// uncompressed size (arrow-go sizes it from the page header); nothing is
// allocated beyond it.
func (lz4HadoopCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	if n, ok := lz4Hadoop(dst, src); ok {
		return dst[:n], nil
	}
	n, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		return nil, fmt.Errorf("lz4 block: %w", err)
	}
	return dst[:n], nil
}

// lz4Hadoop decodes Hadoop-framed LZ4: a sequence of (decompressed size,
// compressed size, block) with big-endian 32-bit sizes, the blocks filling
// src exactly and decompressing to exactly their stated sizes. ok is false
// when src is not such a sequence, and the caller tries the other variants.
func lz4Hadoop(dst, src []byte) (n int, ok bool) {
	if len(src) < 8 {
		return 0, false
	}
	for len(src) > 0 {
		if len(src) < 8 {
			return 0, false
		}
		raw := int64(binary.BigEndian.Uint32(src))
		comp := int64(binary.BigEndian.Uint32(src[4:]))
		src = src[8:]
		if comp > int64(len(src)) || raw > int64(len(dst)-n) {
			return 0, false
		}
		got, err := lz4.UncompressBlock(src[:comp], dst[n:n+int(raw)])
		if err != nil || int64(got) != raw {
			return 0, false
		}
		n += got
		src = src[comp:]
	}
	return n, true
}
