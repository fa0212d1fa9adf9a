package ctable

import (
	"encoding/binary"
	"fmt"
	"os"

	"github.com/b2sql/b2sql/formats/b2"
)

// Package b2 writes version-5 chunks and frames but has no writer for
// VL-blocks chunks (version 6) nor a way to set the frame's VL-blocks
// flag, both of which a BatchArray (.b2b) needs; these two helpers fill
// that gap locally (spec §2.5 kind 5, §5.2).

// vlChunk builds a VL-blocks chunk whose blocks are stored raw (a block
// whose payload length equals its uncompressed size is raw by definition,
// so no codec is involved; the values are small dictionaries and byte
// columns, where compression matters little).
func vlChunk(blocks [][]byte) ([]byte, error) {
	const hdr = 32
	n := len(blocks)
	total := 0
	for _, b := range blocks {
		total += len(b)
	}
	cbytes := hdr + 4*n + 4*n + total
	if n == 0 || cbytes > 1<<31-1 {
		return nil, fmt.Errorf("ctable: VL-blocks chunk of %d blocks and %d bytes", n, total)
	}
	out := make([]byte, hdr+4*n, cbytes)
	out[0], out[1] = 6, 1
	// Extended header marker (shuffle|bitshuffle bits), dont_split, zstd
	// format code: what python-blosc2 writes for its zstd .b2b chunks.
	out[2] = 0x05 | 0x10 | 4<<5
	out[3] = 1 // typesize
	binary.LittleEndian.PutUint32(out[4:], uint32(total))
	binary.LittleEndian.PutUint32(out[8:], uint32(n)) // VL chunks: blocksize = block count
	binary.LittleEndian.PutUint32(out[12:], uint32(cbytes))
	out[22] = byte(b2.Zstd)
	out[30] = 1 // blosc2_flags2: VL blocks
	for i, b := range blocks {
		binary.LittleEndian.PutUint32(out[hdr+4*i:], uint32(len(out)))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(b)))
		out = append(out, b...)
	}
	return out, nil
}

// markVLBlocks rewrites a closed frame's general_flags (header byte 25) to
// what c-blosc2 writes for VL-blocks frames (spec §5.2): 0x93 (version 3,
// 64-bit offsets, VL blocks), or 0xD3 with chunksize 0 (bytes 58..61) when
// the batches differ in size.
func markVLBlocks(path string, variable bool) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	flags := []byte{0x93}
	if variable {
		flags[0] = 0xd3
		if _, err := f.WriteAt([]byte{0, 0, 0, 0}, 58); err != nil {
			f.Close()
			return err
		}
	}
	if _, err := f.WriteAt(flags, 25); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// batchArrayWriter writes a BatchArray .b2b of msgpack str/bin/nil items,
// one chunk per batch of batchRows items, one block per chunk.
type batchArrayWriter struct {
	path     string
	pyType   string // "str" or "bytes"
	nullable bool
	fw       *b2.FrameWriter
	block    []byte // msgpack array under construction
	items    int
	lengths  []any
	sizes    map[int]bool // distinct uncompressed batch sizes
}

const vlBatchRows = 2048

func newBatchArrayWriter(path, pyType string, nullable bool) (*batchArrayWriter, error) {
	varlen := mpMap{{"version", int64(1)}, {"py_type", pyType}, {"nullable", nullable}, {"batch_rows", int64(vlBatchRows)}}
	return newTaggedBatchArrayWriter(path, pyType, nullable, b2.Metalayer{Name: "ctable_varlen_scalar", Content: mpAppend(nil, varlen)})
}

// newTaggedBatchArrayWriter is newBatchArrayWriter with the metalayer that
// tags the column's kind (ctable_varlen_scalar, or listarray for a list
// column) given; pyType "msgpack" takes items already encoded (addRaw).
func newTaggedBatchArrayWriter(path, pyType string, nullable bool, tag b2.Metalayer) (*batchArrayWriter, error) {
	ba := mpMap{{"version", int64(1)}, {"serializer", "msgpack"}, {"items_per_block", int64(vlBatchRows)}, {"arrow_schema", nil}}
	p := b2.DefaultCParams(1)
	p.CLevel = 5
	fw, err := b2.CreateFrame(path, &b2.FrameOptions{CParams: &p, Typesize: 1,
		Meta: []b2.Metalayer{tag, {Name: "batcharray", Content: mpAppend(nil, ba)}}})
	if err != nil {
		return nil, err
	}
	return &batchArrayWriter{path: path, pyType: pyType, nullable: nullable, fw: fw, sizes: map[int]bool{}}, nil
}

// add appends one item: nil is NULL.
func (w *batchArrayWriter) add(v []byte) error {
	switch {
	case v == nil:
		w.block = append(w.block, 0xc0)
	case w.pyType == "str":
		w.block = mpStr(w.block, string(v))
	default:
		w.block = mpBin(w.block, v)
	}
	return w.added()
}

// addRaw appends one item given as its msgpack encoding.
func (w *batchArrayWriter) addRaw(item []byte) error {
	w.block = append(w.block, item...)
	return w.added()
}

func (w *batchArrayWriter) added() error {
	w.items++
	if w.items == vlBatchRows {
		return w.flush()
	}
	return nil
}

func (w *batchArrayWriter) flush() error {
	if w.items == 0 {
		return nil
	}
	blk := mpArrayHeader(make([]byte, 0, len(w.block)+5), w.items)
	blk = append(blk, w.block...)
	ch, err := vlChunk([][]byte{blk})
	if err != nil {
		return err
	}
	if err := w.fw.AppendChunk(ch); err != nil {
		return err
	}
	w.lengths = append(w.lengths, int64(w.items))
	w.sizes[len(blk)] = true
	w.block, w.items = w.block[:0], 0
	return nil
}

func (w *batchArrayWriter) close() error {
	if err := w.flush(); err != nil {
		w.fw.Abort()
		return err
	}
	if w.lengths == nil {
		w.lengths = []any{}
	}
	meta := mpMap{{"batch_lengths", w.lengths}}
	if err := w.fw.SetVLMeta("_batch_array_metadata", mpAppend(nil, meta)); err != nil {
		w.fw.Abort()
		return err
	}
	if err := w.fw.Close(); err != nil {
		return err
	}
	return markVLBlocks(w.path, len(w.sizes) > 1)
}

func (w *batchArrayWriter) abort() { w.fw.Abort() }
