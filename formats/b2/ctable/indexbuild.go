package ctable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/formats/b2"
)

// indexBuild builds the sidecars of one index of one fixed-width column,
// streaming the column once: python-blosc2's layout (spec §7.2) with its
// geometry — segment summaries at the column's chunk, block and block/8
// (FULL) or block (SUMMARY) length, over every stored row including
// capacity padding and deleted rows, NULLs excluded (null_aware); for
// FULL, the values sorted with their positions in chunks of
// opsiChunkLen(chunk, block, 2) and blocks of the column's block, and the
// l1/l2 navigation records of those chunks and blocks.
type indexBuild struct {
	e    *indexEdit
	s    *colSource
	col  string
	kind string
	dir  string // "_indexes/<col>"
}

// level is one summary granularity.
type level struct {
	name string
	seg  int
	sb   *summaryBuilder
}

func (b *indexBuild) run() (mpMap, error) {
	s, e := b.s, b.e
	a := s.data
	dt := a.DType
	isz := dt.ItemSize
	n := a.Len()
	chunk, block := a.Meta.ChunkShape[0], a.Meta.BlockShape[0]
	var levels []*level
	if b.kind == IndexFull {
		levels = []*level{{name: "chunk", seg: chunk}, {name: "block", seg: block}, {name: "subblock", seg: max(1, block/8)}}
	} else {
		levels = []*level{{name: "block", seg: block}}
	}
	for _, l := range levels {
		l.sb = newSummaryBuilder(b.col, dt.Str, int64(l.seg))
	}
	nullable := s.spec.Nullable || s.spec.HasSent || s.mask != nil
	var sorter *runSorter
	if b.kind == IndexFull {
		tmp, err := os.MkdirTemp(filepath.Dir(e.c.path), "."+filepath.Base(e.c.path)+".idx-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		sorter = &runSorter{tmpDir: tmp}
		defer sorter.cleanup()
	}
	var mask []byte
	it := a.Chunks()
	defer it.Close()
	for it.Next() {
		items := it.Bytes()
		start, cnt := it.Start(), it.Len()
		mask = mask[:0]
		if s.mask != nil && start < s.mask.Len() {
			m := int(min(int64(cnt), s.mask.Len()-start))
			mask = grow(mask, m)
			if err := s.mask.ReadItems1D(nil, mask, start, m); err != nil {
				return nil, fmt.Errorf("%s.notnull.b2nd: %w", s.base, err)
			}
		}
		for k := 0; k < cnt; k++ {
			item := items[k*isz : (k+1)*isz]
			var raw uint64
			for i := isz - 1; i >= 0; i-- {
				raw = raw<<8 | uint64(item[i])
			}
			null := k < len(mask) && mask[k] == 0 ||
				s.sent != nil && bytes.Equal(item, s.sent) ||
				s.sentNaN && isNaNRaw(raw, isz)
			for _, l := range levels {
				feedRaw(l.sb, raw, null)
			}
			if sorter != nil {
				if err := sorter.add(sortRec{key: sortKey(raw, dt.Kind, isz), raw: raw, pos: start + int64(k)}); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.member(), err)
	}
	sb0 := levels[0].sb
	elem := dt.Str
	if isz == 1 {
		elem = "|" + sb0.typestr
		if dt.Kind == 'b' {
			elem = "|b1"
		}
	}
	field := func(name, ts string) []any { return []any{"__tuple__", name, ts} }
	tuple := func(v int64) []any { return []any{"__tuple__", v} }
	var lv mpMap
	for _, l := range levels {
		member := b.dir + "/summary." + l.name + ".b2nd"
		if b.kind == IndexFull {
			member = b.dir + "/full.summary." + l.name + ".b2nd"
		}
		l.sb.finish()
		nseg := int64(len(l.sb.recs) / (2*isz + 1))
		dtype := fmt.Sprintf("[('min', '%s'), ('max', '%s'), ('flags', 'u1')]", l.sb.typestr, l.sb.typestr)
		if err := b.write(member, dtype, nseg, l.sb.recs, nil); err != nil {
			return nil, err
		}
		lv = append(lv, mpEntry{l.name, mpMap{
			{"segment_len", int64(l.seg)}, {"nsegments", nseg}, {"path", member},
			{"dtype", []any{field("min", elem), field("max", elem), field("flags", "|u1")}},
		}})
	}
	var full any
	if sorter != nil {
		fm, err := b.writeFull(sorter, chunk, block, elem)
		if err != nil {
			return nil, err
		}
		full = fm
	}
	return mpMap{
		{"name", "__self__"}, {"token", b.col},
		{"target", mpMap{{"source", "field"}, {"field", nil}}}, {"field", nil},
		{"kind", b.kind}, {"version", int64(1)}, {"optlevel", int64(5)},
		{"persistent", true}, {"ooc", false}, {"stale", false}, {"dtype", dt.Str},
		{"shape", tuple(n)}, {"chunks", tuple(int64(chunk))}, {"blocks", tuple(int64(block))},
		{"levels", lv},
		{"bucket", nil}, {"partial", nil}, {"full", full}, {"opsi", nil}, {"cparams", nil},
		{"null_aware", nullable}, {"built_value_epoch", e.valueEpoch()},
	}, nil
}

// feedRaw adds one stored item to a summary.
func feedRaw(sb *summaryBuilder, raw uint64, null bool) {
	if null {
		sb.addNull()
		return
	}
	switch sb.kind {
	case 'i':
		shift := uint(64 - 8*sb.itemsize)
		sb.addInt(int64(raw<<shift) >> shift)
	case 'b':
		sb.addInt(int64(raw & 1))
	case 'u':
		sb.addUint(raw)
	case 'f':
		if sb.itemsize == 4 {
			sb.addFloat(float64(math.Float32frombits(uint32(raw))))
		} else {
			sb.addFloat(math.Float64frombits(raw))
		}
	}
}

// write writes a whole 1-D sidecar of n items.
func (b *indexBuild) write(member, dtype string, n int64, data []byte, opts *b2.ArrayOptions) error {
	p := b.e.c.member(member)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := b2.WriteArray(p, dtype, []int64{n}, data, opts); err != nil {
		return fmt.Errorf("%s: %w", member, err)
	}
	b.e.written[member] = true
	return nil
}

// navBuilder records the first and last non-NaN value of each segment of
// the sorted values (python-blosc2's _sorted_segment_boundary; NaNs sort
// last, so they end a segment; an all-NaN segment records NaN, NaN).
type navBuilder struct {
	seg      int64
	isz      int
	isFloat  bool
	recs     []byte
	n        int64 // entries seen in the current segment
	has      bool
	first    uint64
	last     uint64
	nanValue uint64
}

func (nb *navBuilder) add(raw uint64) {
	if !(nb.isFloat && isNaNRaw(raw, nb.isz)) {
		if !nb.has {
			nb.first, nb.has = raw, true
		}
		nb.last = raw
	}
	nb.n++
	if nb.n == nb.seg {
		nb.finish()
	}
}

func (nb *navBuilder) finish() {
	if nb.n == 0 {
		return
	}
	first, last := nb.first, nb.last
	if !nb.has {
		first, last = nb.nanValue, nb.nanValue
	}
	for _, v := range []uint64{first, last} {
		for i := 0; i < nb.isz; i++ {
			nb.recs = append(nb.recs, byte(v>>(8*i)))
		}
	}
	nb.n, nb.has = 0, false
}

// writeFull writes values, positions and the l1/l2 navigation sidecars
// from the sorted entries and returns the descriptor's "full" map.
func (b *indexBuild) writeFull(sorter *runSorter, chunk, block int, elem string) (mpMap, error) {
	dt := b.s.data.DType
	isz := dt.ItemSize
	chunkLen := opsiChunkLen(chunk, block, fullChunkMultiplier)
	opts := &b2.ArrayOptions{ChunkShape: []int{chunkLen}, BlockShape: []int{block}}
	vm, pm := b.dir+"/full.values.b2nd", b.dir+"/full.positions.b2nd"
	l1m, l2m := b.dir+"/full.full_nav.l1.b2nd", b.dir+"/full.full_nav.l2.b2nd"
	if err := os.MkdirAll(filepath.Dir(b.e.c.member(vm)), 0o755); err != nil {
		return nil, err
	}
	vw, err := b2.CreateArray1D(b.e.c.member(vm), dt.Str, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", vm, err)
	}
	pw, err := b2.CreateArray1D(b.e.c.member(pm), "<i8", opts)
	if err != nil {
		vw.Abort()
		return nil, fmt.Errorf("%s: %w", pm, err)
	}
	nan := uint64(quietNaN64)
	if isz == 4 {
		nan = quietNaN32
	}
	l1 := &navBuilder{seg: int64(chunkLen), isz: isz, isFloat: dt.Kind == 'f', nanValue: nan}
	l2 := &navBuilder{seg: int64(block), isz: isz, isFloat: dt.Kind == 'f', nanValue: nan}
	const flushItems = 1 << 16
	vbuf := make([]byte, 0, flushItems*isz)
	pbuf := make([]byte, 0, flushItems*8)
	flush := func() error {
		if len(pbuf) == 0 {
			return nil
		}
		if err := vw.Append(vbuf); err != nil {
			return fmt.Errorf("%s: %w", vm, err)
		}
		if err := pw.Append(pbuf); err != nil {
			return fmt.Errorf("%s: %w", pm, err)
		}
		vbuf, pbuf = vbuf[:0], pbuf[:0]
		return nil
	}
	err = sorter.each(func(r sortRec) error {
		for i := 0; i < isz; i++ {
			vbuf = append(vbuf, byte(r.raw>>(8*i)))
		}
		pbuf = binary.LittleEndian.AppendUint64(pbuf, uint64(r.pos))
		l1.add(r.raw)
		l2.add(r.raw)
		if len(pbuf) == cap(pbuf) {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		vw.Abort()
		pw.Abort()
		return nil, err
	}
	if err := vw.Close(); err != nil {
		pw.Abort()
		return nil, fmt.Errorf("%s: %w", vm, err)
	}
	if err := pw.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", pm, err)
	}
	b.e.written[vm], b.e.written[pm] = true, true
	l1.finish()
	l2.finish()
	ts := newSummaryBuilder(b.col, dt.Str, 1).typestr
	navType := fmt.Sprintf("[('start', '%s'), ('end', '%s')]", ts, ts)
	for _, x := range []struct {
		member string
		nb     *navBuilder
	}{{l1m, l1}, {l2m, l2}} {
		if err := b.write(x.member, navType, int64(len(x.nb.recs)/(2*isz)), x.nb.recs, nil); err != nil {
			return nil, err
		}
	}
	field := func(name string) []any { return []any{"__tuple__", name, elem} }
	navDesc := []any{field("start"), field("end")}
	return mpMap{
		{"values_path", vm}, {"positions_path", pm},
		{"chunk_multiplier", int64(fullChunkMultiplier)},
		{"sidecar_chunk_len", int64(chunkLen)}, {"sidecar_block_len", int64(block)},
		{"runs", []any{}}, {"next_run_id", int64(0)},
		{"l1_path", l1m}, {"l2_path", l2m},
		{"l1_dtype", navDesc}, {"l2_dtype", navDesc},
		{"build_method", "global-sort"},
	}, nil
}
