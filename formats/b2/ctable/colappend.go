package ctable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// colAppender writes the new version of one column for a Change: the old
// physical rows [0, nold) followed by appended rows, in the column's own
// flavour, dtype and null representation (mask, sentinel or null code).
type colAppender struct {
	c    *Change
	s    *colSource
	data *arrayAppender // values, utf8 offsets or dictionary codes
	blob *arrayAppender // utf8 bytes
	mask *arrayAppender // not-null mask (nil until needed when absent)
	off  int64          // utf8: bytes in blob

	// dictionary: value → code, and the values new to the dictionary
	codes   map[string]int32
	newVals [][]byte
	// varlen: new items, stored on close as new batches
	items [][]byte

	buf   []byte
	valid []byte
}

func newColAppender(c *Change, s *colSource) (*colAppender, error) {
	ca := &colAppender{c: c, s: s}
	cs := &s.spec
	var err error
	switch cs.Flavour {
	case flFixed, flDict:
		if ca.data, err = resumeArray(s.data, c.nold, c.member(s.base+".b2nd")); err != nil {
			return nil, err
		}
		if cs.Flavour == flDict {
			ca.codes = make(map[string]int32, len(s.dict))
			for i, v := range s.dict {
				ca.codes[string(v)] = int32(i)
			}
		}
	case flUTF8:
		end := make([]byte, 8)
		if err := s.data.ReadItems1D(nil, end, c.nold, 1); err != nil {
			return nil, err
		}
		ca.off = int64(binary.LittleEndian.Uint64(end))
		if ca.off < 0 || ca.off > s.blob.Len() {
			return nil, corruptf("utf8 offset %d outside the %d-byte blob", ca.off, s.blob.Len())
		}
		if ca.data, err = resumeArray(s.data, c.nold+1, c.member(s.base+".b2nd")); err != nil {
			return nil, err
		}
		if ca.blob, err = resumeArray(s.blob, ca.off, c.member(s.base+".utf8.b2nd")); err != nil {
			ca.data.abort()
			return nil, err
		}
	case flVarlen, flNested:
		// python-blosc2 does not trim varlen columns on close: items past
		// _valid_rows are dead and get overwritten (extendBatchArray).
	default:
		return nil, unsupportedf("column kind %q", cs.Kind)
	}
	if s.mask != nil {
		if ca.mask, err = resumeArray(s.mask, c.nold, c.member(s.base+".notnull.b2nd")); err != nil {
			ca.abort()
			return nil, err
		}
	}
	return ca, nil
}

// add appends rows of v (already of the column's SQL type).
func (ca *colAppender) add(v *columnar.Vector, rows []int) error {
	cs := &ca.s.spec
	ca.valid = grow(ca.valid, len(rows))
	anyNull := false
	for k, r := range rows {
		ca.valid[k] = 1
		if v.IsNull(r) {
			ca.valid[k] = 0
			anyNull = true
		}
	}
	if anyNull && !cs.Nullable {
		return fmt.Errorf("NULL in a column without nulls")
	}
	// Mask storage: python-blosc2 creates the sidecar on the first NULL.
	useMask := anyNull && ca.s.sent == nil && !ca.s.sentNaN && cs.Flavour != flDict && cs.Flavour != flVarlen && cs.Flavour != flNested
	if useMask && ca.mask == nil {
		if err := ca.startMask(); err != nil {
			return err
		}
	}
	var err error
	switch cs.Flavour {
	case flFixed:
		err = ca.addFixed(v, rows)
	case flUTF8:
		err = ca.addUTF8(v, rows)
	case flDict:
		err = ca.addDict(v, rows)
	case flVarlen:
		for k, r := range rows {
			if ca.valid[k] == 0 {
				ca.items = append(ca.items, nil)
			} else {
				ca.items = append(ca.items, append([]byte{}, v.Bytes[r]...))
			}
		}
	case flNested:
		for _, r := range rows {
			it, err := cs.Nest.encode(nil, v, r) // NULL is msgpack nil
			if err != nil {
				return err
			}
			ca.items = append(ca.items, it)
		}
	}
	if err != nil {
		return err
	}
	if ca.mask != nil {
		return ca.mask.append(ca.valid[:len(rows)])
	}
	return nil
}

// addComplex appends a complex column from its real and imaginary
// halves; a row is NULL when either half is (mask storage).
func (ca *colAppender) addComplex(re *columnar.Vector, reRows []int, im *columnar.Vector, imRows []int) error {
	n := len(imRows)
	ca.valid = grow(ca.valid, n)
	anyNull := false
	for k := range imRows {
		ca.valid[k] = 1
		if re.IsNull(reRows[k]) || im.IsNull(imRows[k]) {
			ca.valid[k] = 0
			anyNull = true
		}
	}
	if anyNull && !ca.s.spec.Nullable {
		return fmt.Errorf("NULL in a column without nulls")
	}
	if anyNull && ca.mask == nil {
		if err := ca.startMask(); err != nil {
			return err
		}
	}
	isz := ca.s.data.DType.ItemSize
	half := isz / 2
	ca.buf = grow(ca.buf, n*isz)
	out := ca.buf[:n*isz]
	clear(out)
	for k := range imRows {
		if ca.valid[k] == 0 {
			continue
		}
		putFloat(out[k*isz:k*isz+half], re.Floats[reRows[k]])
		putFloat(out[k*isz+half:(k+1)*isz], im.Floats[imRows[k]])
	}
	if err := ca.data.append(out); err != nil {
		return err
	}
	if ca.mask != nil {
		return ca.mask.append(ca.valid[:n])
	}
	return nil
}

// startMask creates the not-null sidecar: every old row present.
func (ca *colAppender) startMask() error {
	g := ca.s.data.Meta
	m, err := createArray(ca.c.member(ca.s.base+".notnull.b2nd"), "|b1", g.ChunkShape[0], g.BlockShape[0])
	if err != nil {
		return err
	}
	ones := bytes.Repeat([]byte{1}, 1<<16)
	for left := ca.c.nold + ca.c.added; left > 0; {
		k := min(left, int64(len(ones)))
		if err := m.append(ones[:k]); err != nil {
			m.abort()
			return err
		}
		left -= k
	}
	ca.mask = m
	return nil
}

// addFixed encodes values into the column's dtype.
func (ca *colAppender) addFixed(v *columnar.Vector, rows []int) error {
	s := ca.s
	dt := s.data.DType
	isz := dt.ItemSize
	ca.buf = grow(ca.buf, len(rows)*isz)
	out := ca.buf[:len(rows)*isz]
	clear(out)
	mul, div := int64(1), int64(1)
	if s.spec.Kind == "timestamp" {
		u := s.spec.timeScale()
		mul, div = u[0], u[1]
	}
	for k, r := range rows {
		item := out[k*isz : (k+1)*isz]
		if ca.valid[k] == 0 {
			if s.sentNaN {
				putFloat(item, math.NaN())
			} else if s.sent != nil {
				copy(item, s.sent)
			}
			continue
		}
		switch dt.Kind {
		case 'i', 'M', 'u', 'b':
			var x int64
			switch v.Type.Phys() {
			case columnar.PhysBool:
				if v.Bools[r] {
					x = 1
				}
			case columnar.PhysUint:
				x = int64(v.Uints[r])
			case columnar.PhysInt:
				x = v.Ints[r]
			case columnar.PhysBytes:
				if v.Type.ID != columnar.Interval {
					return unsupportedf("storing %s as %s", v.Type, dt.Str)
				}
				x = v.IntervalAt(r).FoldedMicros() // µs, a month as 30 days
			default:
				return unsupportedf("storing %s as %s", v.Type, dt.Str)
			}
			if mul != 1 || div != 1 {
				// SQL µs → stored unit: µs = stored·mul/div.
				x = floorDiv(x*div, mul)
			}
			putUint(item, uint64(x))
		case 'f':
			putFloat(item, v.Floats[r])
		case 'U':
			b := v.Bytes[r]
			if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
				return fmt.Errorf("row %d: a string(max_length) column stores valid UTF-8 without NUL characters", ca.c.added+int64(k)+1)
			}
			i := 0
			for _, c := range string(b) {
				if i+4 > isz {
					return fmt.Errorf("row %d: %q is longer than max_length=%d", ca.c.added+int64(k)+1, b, isz/4)
				}
				binary.LittleEndian.PutUint32(item[i:], uint32(c))
				i += 4
			}
		case 'S':
			b := v.Bytes[r]
			if len(b) > isz {
				return fmt.Errorf("row %d: value of %d bytes is longer than max_length=%d", ca.c.added+int64(k)+1, len(b), isz)
			}
			copy(item, b)
		default:
			return unsupportedf("appending to dtype %s", dt.Str)
		}
		if s.sent != nil && bytes.Equal(item, s.sent) || s.sentNaN && dt.Kind == 'f' && isNaNItem(item) {
			return fmt.Errorf("row %d: value equals the column's NULL sentinel", ca.c.added+int64(k)+1)
		}
	}
	return ca.data.append(out)
}

// addUTF8 appends bytes to the blob and their end offsets.
func (ca *colAppender) addUTF8(v *columnar.Vector, rows []int) error {
	ca.buf = grow(ca.buf, len(rows)*8)
	offs := ca.buf[:len(rows)*8]
	for k, r := range rows {
		var b []byte
		switch {
		case ca.valid[k] == 0:
			b = ca.s.sent // sentinel, or "" under a mask
		default:
			b = v.Bytes[r]
			if ca.s.sent != nil && bytes.Equal(b, ca.s.sent) {
				return fmt.Errorf("row %d: value equals the column's NULL sentinel", ca.c.added+int64(k)+1)
			}
		}
		if err := ca.blob.append(b); err != nil {
			return err
		}
		ca.off += int64(len(b))
		binary.LittleEndian.PutUint64(offs[k*8:], uint64(ca.off))
	}
	return ca.data.append(offs)
}

// addDict appends codes, growing the dictionary with new values.
func (ca *colAppender) addDict(v *columnar.Vector, rows []int) error {
	ca.buf = grow(ca.buf, len(rows)*4)
	out := ca.buf[:len(rows)*4]
	for k, r := range rows {
		code := int32(ca.s.spec.NullCode)
		if ca.valid[k] != 0 {
			b := v.Bytes[r]
			c, ok := ca.codes[string(b)]
			if !ok {
				n := len(ca.s.dict) + len(ca.newVals)
				if n >= math.MaxInt32 {
					return fmt.Errorf("dictionary full")
				}
				c = int32(n)
				ca.codes[string(b)] = c
				ca.newVals = append(ca.newVals, append([]byte{}, b...))
			}
			code = c
		}
		binary.LittleEndian.PutUint32(out[k*4:], uint32(code))
	}
	return ca.data.append(out)
}

// close finishes the column's new members and records their names.
func (ca *colAppender) close(written map[string]bool) error {
	s := ca.s
	finish := func(a *arrayAppender, name string) error {
		if a == nil {
			return nil
		}
		written[name] = true
		return a.close()
	}
	if err := finish(ca.data, s.base+".b2nd"); err != nil {
		return err
	}
	ca.data = nil
	if err := finish(ca.blob, s.base+".utf8.b2nd"); err != nil {
		return err
	}
	ca.blob = nil
	if err := finish(ca.mask, s.base+".notnull.b2nd"); err != nil {
		return err
	}
	ca.mask = nil
	switch s.spec.Flavour {
	case flDict:
		if len(ca.newVals) > 0 {
			// open keeps only the decoded values: reopen the BatchArray
			// to copy its stored batches.
			f, err := ca.c.t.st.frame(s.base + "_dict.b2b")
			if err != nil {
				return err
			}
			ba, err := openBatchArray(f)
			if err != nil {
				return err
			}
			written[s.base+"_dict.b2b"] = true
			return extendBatchArray(ba, ca.c.member(s.base+"_dict.b2b"), ba.rows(), ca.newVals)
		}
	case flVarlen, flNested:
		written[s.base+".b2b"] = true
		return extendBatchArray(s.ba, ca.c.member(s.base+".b2b"), ca.c.nold, ca.items)
	}
	return nil
}

func (ca *colAppender) abort() {
	for _, a := range []*arrayAppender{ca.data, ca.blob, ca.mask} {
		if a != nil {
			a.abort()
		}
	}
}

// extendBatchArray writes the first keep items of the BatchArray old
// (whole stored batches copied as they are; a batch straddling keep is
// decoded and its first items stored again) followed by items as new
// batches of vlBatchRows, to path.
func extendBatchArray(old *batchArray, path string, keep int64, items [][]byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	p := b2.DefaultCParams(1)
	p.CLevel = 5
	fw, err := b2.CreateFrame(path, &b2.FrameOptions{CParams: &p, Typesize: 1, Meta: old.f.Meta})
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			fw.Abort()
		}
	}()
	pyType := "str"
	if raw, has := old.f.MetaContent("ctable_varlen_scalar"); has {
		if m, err := mpDecode(raw); err == nil {
			if mm, isMap := m.(mpMap); isMap {
				switch t, _ := mm.get("py_type"); t {
				case "bytes":
					pyType = "bytes"
				case "struct", "object":
					pyType = "msgpack" // items already encoded (nested.go, object.go)
				}
			}
		}
	}
	if _, has := old.f.MetaContent("listarray"); has {
		pyType = "msgpack"
	}
	var lengths []any
	sizes := map[int]bool{}
	var buf []byte // one old chunk at a time (b2.Frame.ReadChunkData says why)
	for k := 0; k+1 < len(old.starts) && old.starts[k] < keep; k++ {
		if old.starts[k+1] > keep {
			decode := old.decode
			if pyType == "msgpack" {
				decode = old.decodeRaw
			}
			head, err := decode(nil, k, old.starts[k+1]-old.starts[k])
			if err != nil {
				return err
			}
			raw := head[:keep-old.starts[k]]
			blk := mpArrayHeader(nil, len(raw))
			for _, it := range raw {
				blk = appendItem(blk, it, pyType)
			}
			ch, err := vlChunk([][]byte{blk})
			if err != nil {
				return err
			}
			if err := fw.AppendChunk(ch); err != nil {
				return err
			}
			sizes[len(blk)] = true
			lengths = append(lengths, int64(len(raw)))
			break
		}
		ch, err := old.f.ReadChunkData(k, buf)
		if err != nil {
			return err
		}
		buf = ch
		if err := fw.AppendChunk(ch); err != nil {
			return err
		}
		nb, _ := old.f.ChunkNbytes(k)
		sizes[nb] = true
		lengths = append(lengths, old.starts[k+1]-old.starts[k])
	}
	for len(items) > 0 {
		n := min(len(items), vlBatchRows)
		var blk []byte
		blk = mpArrayHeader(blk, n)
		for _, it := range items[:n] {
			blk = appendItem(blk, it, pyType)
		}
		ch, err := vlChunk([][]byte{blk})
		if err != nil {
			return err
		}
		if err := fw.AppendChunk(ch); err != nil {
			return err
		}
		sizes[len(blk)] = true
		lengths = append(lengths, int64(n))
		items = items[n:]
	}
	if lengths == nil {
		lengths = []any{}
	}
	vl, err := frameMetaRaw(old.f)
	if err != nil {
		return err
	}
	for _, m := range vl {
		if m.Name != "_batch_array_metadata" {
			if err := fw.SetVLMeta(m.Name, m.Content); err != nil {
				return err
			}
		}
	}
	if err := fw.SetVLMeta("_batch_array_metadata", mpAppend(nil, mpMap{{"batch_lengths", lengths}})); err != nil {
		return err
	}
	ok = true
	if err := fw.Close(); err != nil {
		return err
	}
	return markVLBlocks(path, len(sizes) > 1)
}

// appendItem appends one varlen item: nil (NULL), str or bin, or for
// pyType "msgpack" an item already encoded.
func appendItem(blk, it []byte, pyType string) []byte {
	switch {
	case pyType == "msgpack":
		return append(blk, it...)
	case it == nil:
		return append(blk, 0xc0)
	case pyType == "str":
		return mpStr(blk, string(it))
	}
	return mpBin(blk, it)
}

func putUint(b []byte, u uint64) {
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
}

func putFloat(b []byte, f float64) {
	if len(b) == 4 {
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
		return
	}
	binary.LittleEndian.PutUint64(b, math.Float64bits(f))
}

func isNaNItem(b []byte) bool {
	if len(b) == 4 {
		f := math.Float32frombits(binary.LittleEndian.Uint32(b))
		return f != f
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(b))
	return f != f
}
