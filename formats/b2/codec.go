package b2

import (
	"bytes"
	"io"
	"sync"

	"github.com/b2sql/b2sql/formats/b2/blosclz"
	"github.com/b2sql/b2sql/formats/b2/zstdlit"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// zstdMaxWindow bounds the history a hostile zstd frame can make the decoder
// allocate. Blosc streams are at most one block (≤ 512 MiB, usually far
// less), and c-blosc2 writes single-segment frames whose window is the
// content size, so legitimate streams never need more than a block.
const zstdMaxWindow = maxBlocksize

// zstdDecoders pools dictionary-less zstd decoders. Each is single-goroutine
// (WithDecoderConcurrency(1): DecodeAll runs inline, no background workers)
// and limited to the capacity of the destination, which is how a stream is
// kept from decoding more than its block claims (decompression bombs).
var zstdDecoders = sync.Pool{New: func() any { return newZstd() }}

// zstdRunDecoders are the same but register a one-byte raw dictionary under
// id 0, the id of every blosc zstd frame without a dictionary. Valid streams
// never reach before their own output, so the result is unchanged, but with
// a dictionary present klauspost/compress executes sequences in Go, whose
// overlapping match copy doubles the copied span, instead of in its amd64
// assembly, which copies matches with offsets below 16 one byte at a time.
// Highly compressible byte planes (runs, repeated text) are full of such
// matches and decode 4–18× faster this way; streams that compress little are
// made of short matches, where the assembly is 1.2–2× faster. decode picks
// by compression ratio (runDecoderRatio).
var zstdRunDecoders = sync.Pool{New: func() any { return newZstd(zstd.WithDecoderDictRaw(0, []byte{0})) }}

// runDecoderRatio is the uncompressed/compressed ratio from which a stream
// is sent to the run-friendly decoder.
const runDecoderRatio = 8

func newZstd(extra ...zstd.DOption) *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstdOptions(extra...)...)
	if err != nil {
		panic(err) // only on invalid options: a programming error
	}
	return d
}

func zstdOptions(extra ...zstd.DOption) []zstd.DOption {
	return append([]zstd.DOption{
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxWindow(zstdMaxWindow),
		zstd.WithDecoderMaxMemory(zstdMaxWindow),
	}, extra...)
}

// streamDecoder holds per-goroutine codec state: a zstd decoder, a decoder
// bound to the last seen dictionary, and a reusable zlib reader.
type streamDecoder struct {
	zstd     *zstd.Decoder
	zrun     *zstd.Decoder
	zdict    *zstd.Decoder
	zdictKey string
	zr       io.ReadCloser
	zsrc     bytes.Reader
	lit      zstdlit.Decoder
}

func (s *streamDecoder) release() {
	if s.zstd != nil {
		zstdDecoders.Put(s.zstd)
		s.zstd = nil
	}
	if s.zrun != nil {
		zstdRunDecoders.Put(s.zrun)
		s.zrun = nil
	}
	if s.zdict != nil {
		s.zdict.Close()
		s.zdict = nil
		s.zdictKey = ""
	}
}

// decode decompresses one stream of a chunk into dst, which must be filled
// exactly (len(dst) is the stream's uncompressed size).
func (s *streamDecoder) decode(h *ChunkHeader, dict, src, dst []byte) error {
	switch h.Flags >> 5 {
	case 0: // BloscLZ
		n, err := blosclz.Decompress(dst, src)
		if err != nil {
			return corruptf("blosclz: %v", err)
		}
		if n != len(dst) {
			return corruptf("blosclz produced %d bytes, want %d", n, len(dst))
		}
	case 1: // LZ4 and LZ4HC
		var n int
		var err error
		if dict != nil {
			n, err = lz4.UncompressBlockWithDict(src, dst, dict)
		} else {
			n, err = lz4.UncompressBlock(src, dst)
		}
		if err != nil {
			return corruptf("lz4: %v", err)
		}
		if n != len(dst) {
			return corruptf("lz4 produced %d bytes, want %d", n, len(dst))
		}
	case 3: // zlib
		s.zsrc.Reset(src)
		var err error
		if s.zr == nil {
			s.zr, err = zlib.NewReader(&s.zsrc)
		} else {
			err = s.zr.(zlib.Resetter).Reset(&s.zsrc, nil)
		}
		if err != nil {
			return corruptf("zlib: %v", err)
		}
		if _, err := io.ReadFull(s.zr, dst); err != nil {
			return corruptf("zlib: %v", err)
		}
		// The stream must end exactly here (checksum verified by EOF).
		var one [1]byte
		if n, err := s.zr.Read(one[:]); n != 0 || err != io.EOF {
			return corruptf("zlib stream longer than %d bytes", len(dst))
		}
	case 4: // zstd
		if dict == nil && len(dst) <= zstdlit.MaxSize && s.lit.Decode(dst, src) {
			return nil // small streams of literals only (zstdlit's comment)
		}
		d, err := s.zstdFor(dict, len(dst) >= runDecoderRatio*len(src))
		if err != nil {
			return err
		}
		// dst's capacity bounds the output (WithDecodeAllCapLimit), so
		// a stream can never decode more than the space it was given.
		out, err := d.DecodeAll(src, dst[:0])
		if err != nil {
			return corruptf("zstd: %v", err)
		}
		if len(out) != len(dst) {
			return corruptf("zstd produced %d bytes, want %d", len(out), len(dst))
		}
		if len(out) > 0 && &out[0] != &dst[0] {
			copy(dst, out) // defensive: the cap limit should prevent a reallocation
		}
	case 6: // plugin codecs: parseChunkBody lets only NDLZ through
		if h.UDCodec != codecNDLZ {
			return unsupportedf("codec %s", udCodecName(h.Flags>>5, h.UDCodec))
		}
		return ndlzDecode(dst, src, int(h.CompcodeMeta))
	default:
		return unsupportedf("codec %s", udCodecName(h.Flags>>5, h.UDCodec))
	}
	return nil
}

func (s *streamDecoder) zstdFor(dict []byte, runs bool) (*zstd.Decoder, error) {
	if dict == nil {
		if runs {
			if s.zrun == nil {
				s.zrun = zstdRunDecoders.Get().(*zstd.Decoder)
			}
			return s.zrun, nil
		}
		if s.zstd == nil {
			s.zstd = zstdDecoders.Get().(*zstd.Decoder)
		}
		return s.zstd, nil
	}
	if s.zdict != nil && s.zdictKey == string(dict) {
		return s.zdict, nil
	}
	if s.zdict != nil {
		s.zdict.Close()
		s.zdict = nil
	}
	opt := zstd.WithDecoderDicts(dict)
	if len(dict) < 8 || dict[0] != 0x37 || dict[1] != 0xA4 || dict[2] != 0x30 || dict[3] != 0xEC {
		// Raw content dictionary (no ZDICT magic): frames carry dictID 0.
		opt = zstd.WithDecoderDictRaw(0, dict)
	}
	d, err := zstd.NewReader(nil, zstdOptions(opt)...)
	if err != nil {
		return nil, corruptf("zstd dictionary: %v", err)
	}
	s.zdict, s.zdictKey = d, string(dict)
	return d, nil
}
