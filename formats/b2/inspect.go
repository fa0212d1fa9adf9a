package b2

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
)

// Inspect writes an annotated layout dump of the frame, b2nd array, sparse
// frame directory or raw chunk file at path: header fields, metalayers,
// vlmeta keys and values, and for every chunk its offset, sizes, codec,
// filters, block count and ratio. It backs `b2sql inspect FILE`.
func Inspect(w io.Writer, path string) error {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	f, err := Open(path)
	if err != nil {
		// Not a frame: maybe a bare chunk (.cdata).
		b, rerr := os.ReadFile(path)
		if rerr != nil || len(b) < minHeaderLen {
			return err
		}
		h, herr := ParseChunkHeader(b)
		if herr != nil {
			return err
		}
		fmt.Fprintf(bw, "%s: raw chunk, %d bytes\n", path, len(b))
		inspectChunk(bw, "chunk", 0, b, h)
		return nil
	}
	defer f.Close()
	h := &f.Header
	kind := "contiguous frame"
	if h.FrameType == 1 {
		kind = "sparse frame"
	}
	fmt.Fprintf(bw, "%s: %s, %d bytes\n", path, kind, h.FrameLen)
	fmt.Fprintf(bw, "header: header_len=%d frame_len=%d general_flags=%#02x (version %d", h.HeaderLen, h.FrameLen, h.GeneralFlags, h.GeneralFlags&0x0f)
	if h.GeneralFlags&0x40 != 0 {
		bw.WriteString(", variable chunks")
	}
	if h.GeneralFlags&0x80 != 0 {
		bw.WriteString(", VL blocks")
	}
	bw.WriteString(")\n")
	ratio := 0.0
	if h.Cbytes > 0 {
		ratio = float64(h.Nbytes) / float64(h.Cbytes)
	}
	fmt.Fprintf(bw, "  codec=%v clevel=%d splitmode=%d typesize=%d blocksize=%d chunksize=%d\n",
		h.Codec, h.CLevel, h.SplitMode(), h.Typesize, h.Blocksize, h.Chunksize)
	fmt.Fprintf(bw, "  nbytes=%d cbytes=%d ratio=%.2fx nchunks=%d use_dict=%v\n", h.Nbytes, h.Cbytes, ratio, f.NChunks(), h.OtherFlags2&1 != 0)
	fmt.Fprintf(bw, "  filters=%s\n", filterList(h.Filters, h.FiltersMeta))
	fmt.Fprintf(bw, "metalayers: %d\n", len(f.Meta))
	for _, m := range f.Meta {
		fmt.Fprintf(bw, "  %s (%d bytes): ", m.Name, len(m.Content))
		if m.Name == "b2nd" {
			if bm, err := ParseB2ndMeta(m.Content); err == nil {
				fmt.Fprintf(bw, "b2nd v%d shape=%v chunkshape=%v blockshape=%v dtype=%q\n", bm.Version, bm.Shape, bm.ChunkShape, bm.BlockShape, bm.DType)
				continue
			}
		}
		bw.WriteString(msgpackString(m.Content) + "\n")
	}
	if _, ok := f.MetaContent("b2nd"); ok {
		// The Array shares f; it is not closed here (Inspect closes f).
		if a, err := NewArray(f); err == nil {
			fmt.Fprintf(bw, "b2nd: dtype %s itemsize=%d chunk grid=%v extchunk=%v blocks/chunk=%v items/block=%d\n",
				a.DType.Str, a.itemsize, a.chunkGrid, a.extChunk, a.blockGrid, a.blockItems)
		} else {
			fmt.Fprintf(bw, "b2nd: error: %v\n", err)
		}
	}
	names := f.VLMetaNames()
	fmt.Fprintf(bw, "vlmeta: %d\n", len(names))
	for _, n := range names {
		b, _, err := f.VLMeta(n)
		if err != nil {
			fmt.Fprintf(bw, "  %s: error: %v\n", n, err)
			continue
		}
		fmt.Fprintf(bw, "  %s (%d bytes): %s\n", n, len(b), msgpackString(b))
	}
	fmt.Fprintf(bw, "chunks: %d\n", f.NChunks())
	for i := 0; i < f.NChunks(); i++ {
		if sp := f.ChunkSpecial(i); sp != SpecialNone {
			nb, _ := f.ChunkNbytes(i)
			fmt.Fprintf(bw, "  chunk %d: special %v offset=%#016x nbytes=%d (not stored)\n", i, sp, uint64(f.ChunkOffset(i)), nb)
			continue
		}
		src, err := f.ChunkData(i)
		if err != nil {
			fmt.Fprintf(bw, "  chunk %d: error: %v\n", i, err)
			continue
		}
		ch, _ := ParseChunkHeader(src)
		where := fmt.Sprintf("offset=%d", f.chunkPos(i))
		if f.dir != "" {
			where = fmt.Sprintf("file=%08X.chunk", f.ChunkOffset(i))
		}
		inspectChunk(bw, fmt.Sprintf("chunk %d", i), 0, src, ch, where)
	}
	opos := int64(h.HeaderLen)
	if h.FrameType == 0 {
		opos += h.Cbytes
	}
	if len(f.data) < frameTrailerMin {
		return nil // a frame read through ranges keeps no bytes to show
	}
	tlen := int64(f.data[len(f.data)-22])<<24 | int64(f.data[len(f.data)-21])<<16 | int64(f.data[len(f.data)-20])<<8 | int64(f.data[len(f.data)-19])
	if f.NChunks() > 0 {
		if oh, err := ParseChunkHeader(f.data[opos:]); err == nil {
			inspectChunk(bw, "offsets chunk", 0, f.data[opos:], oh, fmt.Sprintf("offset=%d", opos))
		}
	}
	fmt.Fprintf(bw, "trailer: offset=%d length=%d\n", h.FrameLen-tlen, tlen)
	return nil
}

func inspectChunk(w *bufio.Writer, label string, _ int, src []byte, h ChunkHeader, extra ...string) {
	fmt.Fprintf(w, "  %s:", label)
	for _, e := range extra {
		fmt.Fprintf(w, " %s", e)
	}
	ratio := 0.0
	if h.Cbytes > 0 {
		ratio = float64(h.Nbytes) / float64(h.Cbytes)
	}
	fmt.Fprintf(w, " v%d flags=%#02x typesize=%d nbytes=%d cbytes=%d ratio=%.2fx", h.Version, h.Flags, h.Typesize, h.Nbytes, h.Cbytes, ratio)
	switch {
	case h.Special() != SpecialNone:
		fmt.Fprintf(w, " special=%v\n", h.Special())
		return
	case h.Memcpyed():
		fmt.Fprintf(w, " memcpyed\n")
		return
	}
	split := "nosplit"
	if h.Split() {
		split = "split"
	}
	fmt.Fprintf(w, " codec=%v %s blocks=%d blocksize=%d filters=%s", h.Codec(), split, h.NBlocks(), h.Blocksize, filterList(h.Filters, h.FiltersMeta))
	if h.VLBlocks() {
		w.WriteString(" vlblocks")
	}
	if h.HasDict() {
		if c, err := parseChunk(src); err == nil {
			fmt.Fprintf(w, " dict=%d", len(c.dict))
		}
	}
	w.WriteString("\n")
}

func filterList(f, m [6]uint8) string {
	var parts []string
	for i := range f {
		if f[i] == FilterNone {
			continue
		}
		s := fmt.Sprintf("%d:%s", i, filterName(f[i]))
		if m[i] != 0 {
			s += fmt.Sprintf("(%d)", int8(m[i]))
		}
		parts = append(parts, s)
	}
	if parts == nil {
		return "[]"
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// msgpackString renders msgpack bytes for humans, or their size if they
// are not msgpack.
func msgpackString(b []byte) string {
	var v any
	if err := msgpack.Unmarshal(b, &v); err != nil {
		return fmt.Sprintf("<%d raw bytes>", len(b))
	}
	s := fmt.Sprintf("%v", v)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
