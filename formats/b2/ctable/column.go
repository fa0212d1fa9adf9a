package ctable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
	"github.com/b2sql/b2sql/formats/b2"
)

// colSource is one CTable column's storage. Its frames are opened on first
// use (a scan that references the column), once, and shared by all scans.
type colSource struct {
	spec colSpec
	base string // member path without extension: "_cols/name"
	// liveEnd is one past the table's last live row: a utf8 column may
	// stop there instead of at the physical extent (rows past it are
	// capacity, read as NULL).
	liveEnd int64

	once sync.Once
	err  error
	data *b2.Array // fixed values, utf8 offsets or dictionary codes
	blob *b2.Array // utf8 bytes
	mask *b2.Array // not-null mask, nil when absent (no nulls)
	ba   *batchArray
	dict [][]byte
	// codeDict is dict as a dict.Dict, for scans whose consumer takes
	// dictionary codes (index.ScanSpec.DictCols): one dictionary for the
	// whole column, so codes need no remapping between blocks.
	codeDict *dict.Dict
	conv     fixedConv // fixed flavour; part is set per exposed column
	// parts reads a column with no storage of its own, made of other
	// columns (flLeaves: a struct of leaf columns, leaves.go).
	parts colParts

	sent    []byte // sentinel as stored item bytes (fixed, utf8)
	sentNaN bool   // float sentinel NaN: every NaN is NULL

	// ratio is compressed/uncompressed bytes over the column's frames: a
	// scan reports rows × row width × ratio as ScanStats.BytesRead, an
	// estimate (b2 does not say how many stored bytes a range touched).
	ratio    float64
	rowBytes float64 // uncompressed bytes per row (varlen: average)
}

// estimate records the compression ratio and average row width.
func (s *colSource) estimate(nphys int64) {
	var nb, cb int64
	for _, a := range []*b2.Array{s.data, s.blob, s.mask} {
		if a != nil {
			nb += a.Frame.Header.Nbytes
			cb += a.Frame.Header.Cbytes
		}
	}
	if s.ba != nil {
		nb += s.ba.f.Header.Nbytes
		cb += s.ba.f.Header.Cbytes
	}
	if nb > 0 && nphys > 0 {
		s.ratio = float64(cb) / float64(nb)
		s.rowBytes = float64(nb) / float64(max(nphys, 1))
	}
}

// member names the column's main file, for errors.
func (s *colSource) member() string {
	switch s.spec.Flavour {
	case flVarlen, flNested:
		return s.base + ".b2b"
	case flLeaves:
		return s.base + "/"
	}
	return s.base + ".b2nd"
}

// open opens the column's frames and checks them against the schema and
// the table's physical extent nphys.
func (s *colSource) open(st store, nphys int64) error {
	s.once.Do(func() {
		if s.parts != nil {
			if s.err = s.parts.open(st, nphys); s.err == nil {
				s.ratio, s.rowBytes = s.parts.estimate()
			}
			return
		}
		if zs, ok := st.(*zipStore); ok {
			// A remote .b2z: the column's members (data, string blob,
			// NULL mask) are located in one round, not one each.
			zs.prefetchPrefixed([]string{s.base + "."})
		}
		if s.err = s.doOpen(st, nphys); s.err == nil {
			s.estimate(nphys)
		}
	})
	return s.err
}

func (s *colSource) doOpen(st store, nphys int64) error {
	cs := &s.spec
	arr := func(member string) (*b2.Array, error) {
		f, err := st.frame(member)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: missing member: %w", member, b2.ErrCorrupt)
			}
			return nil, fmt.Errorf("%s: %w", member, err)
		}
		a, err := b2.NewArray(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", member, err)
		}
		if a.NDim() != 1 {
			return nil, fmt.Errorf("%s: %w", member, corruptf("%d-d array, columns are 1-d", a.NDim()))
		}
		return a, nil
	}
	short := func(member string, have, need int64) error {
		return fmt.Errorf("%s: %w", member, corruptf("column has %d rows, _valid_rows has %d", have, need))
	}
	var err error
	switch cs.Flavour {
	case flFixed:
		m := s.base + ".b2nd"
		if s.data, err = arr(m); err != nil {
			return err
		}
		if err := cs.wantDType(s.data.DType); err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		if s.data.Len() < nphys {
			return short(m, s.data.Len(), nphys)
		}
		names, types := cs.sqlTypes()
		_ = names
		s.conv = fixedConv{dt: s.data.DType, stride: s.data.ItemSize(), out: types[0], mul: 1, div: 1}
		if cs.Kind == "timestamp" {
			sc := cs.timeScale()
			s.conv.mul, s.conv.div = sc[0], sc[1]
		}
		if cs.HasSent {
			if err := s.encodeSentinel(); err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
		}
	case flUTF8:
		m := s.base + ".b2nd"
		if s.data, err = arr(m); err != nil {
			return err
		}
		if dt := s.data.DType; dt.Kind != 'i' || dt.ItemSize != 8 {
			return fmt.Errorf("%s: %w", m, corruptf("utf8 offsets stored as %s, want <i8", dt.Str))
		}
		if s.data.Len() < min(nphys, s.liveEnd)+1 {
			return short(m, s.data.Len()-1, nphys)
		}
		mb := s.base + ".utf8.b2nd"
		if s.blob, err = arr(mb); err != nil {
			return err
		}
		if s.blob.ItemSize() != 1 {
			return fmt.Errorf("%s: %w", mb, corruptf("utf8 bytes stored as %s, want |u1", s.blob.DType.Str))
		}
		if cs.HasSent {
			str, ok := cs.Sentinel.(string)
			if !ok {
				return fmt.Errorf("%s: %w", m, corruptf("utf8 sentinel %v is not a string", cs.Sentinel))
			}
			s.sent = []byte(str)
		}
	case flDict:
		m := s.base + ".b2nd"
		if s.data, err = arr(m); err != nil {
			return err
		}
		if dt := s.data.DType; dt.Kind != 'i' || dt.ItemSize != 4 {
			return fmt.Errorf("%s: %w", m, corruptf("dictionary codes stored as %s, want <i4", dt.Str))
		}
		if s.data.Len() < nphys {
			return short(m, s.data.Len(), nphys)
		}
		md := s.base + "_dict.b2b"
		f, err := st.frame(md)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: missing member: %w", md, b2.ErrCorrupt)
			}
			return fmt.Errorf("%s: %w", md, err)
		}
		ba, err := openBatchArray(f)
		if err != nil {
			return fmt.Errorf("%s: %w", md, err)
		}
		for k := 0; k+1 < len(ba.starts); k++ {
			items, err := ba.decode(nil, k, ba.starts[k+1]-ba.starts[k])
			if err != nil {
				return fmt.Errorf("%s: %w", md, err)
			}
			if int64(len(items)) != ba.starts[k+1]-ba.starts[k] {
				return fmt.Errorf("%s: %w", md, corruptf("batch %d holds %d values, batch_lengths says %d", k, len(items), ba.starts[k+1]-ba.starts[k]))
			}
			for i, it := range items {
				if it == nil {
					return fmt.Errorf("%s: %w", md, corruptf("dictionary value %d is nil", len(s.dict)+i))
				}
			}
			s.dict = append(s.dict, items...)
		}
		b := dict.NewBuilder(len(s.dict), 0)
		for _, v := range s.dict {
			b.Add(v)
		}
		s.codeDict = b.Dict()
	case flVarlen, flNested:
		m := s.base + ".b2b"
		f, err := st.frame(m)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: missing member: %w", m, b2.ErrCorrupt)
			}
			return fmt.Errorf("%s: %w", m, err)
		}
		if s.ba, err = openBatchArray(f); err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		if s.ba.rows() < nphys {
			return short(m, s.ba.rows(), nphys)
		}
	default:
		return unsupportedf("column %q of kind %q", cs.Name, cs.Kind)
	}
	if cs.Mask || cs.Nullable {
		mm := s.base + ".notnull.b2nd"
		// The mask is created on the first NULL: absence means none.
		if st.has(mm) {
			if s.mask, err = arr(mm); err != nil {
				return err
			}
			if s.mask.ItemSize() != 1 {
				return fmt.Errorf("%s: %w", mm, corruptf("mask stored as %s, want |b1", s.mask.DType.Str))
			}
			if s.mask.Len() < nphys {
				return short(mm, s.mask.Len(), nphys)
			}
		}
	}
	return nil
}

// encodeSentinel turns the schema's null_value into the bytes a NULL item
// holds, so that the scan compares raw items (before any conversion, so
// that e.g. an int64-min timestamp sentinel survives unit scaling).
func (s *colSource) encodeSentinel() error {
	dt := s.data.DType
	v := s.spec.Sentinel
	item := make([]byte, dt.ItemSize)
	switch dt.Kind {
	case 'i', 'u', 'M', 'b':
		n, ok := jsonInt(v)
		if !ok {
			return corruptf("sentinel %v does not fit %s", v, dt.Str)
		}
		for i := range item {
			item[i] = byte(uint64(n) >> (8 * i))
		}
	case 'f':
		f, ok := jsonFloat(v)
		if !ok {
			return corruptf("sentinel %v does not fit %s", v, dt.Str)
		}
		if math.IsNaN(f) {
			s.sentNaN = true
			return nil
		}
		if dt.ItemSize == 4 {
			binary.LittleEndian.PutUint32(item, math.Float32bits(float32(f)))
		} else {
			binary.LittleEndian.PutUint64(item, math.Float64bits(f))
		}
	case 'U':
		str, ok := v.(string)
		if !ok {
			return corruptf("sentinel %v is not a string", v)
		}
		i := 0
		for _, r := range str {
			if i+4 > len(item) {
				return corruptf("sentinel %q longer than %s", str, dt.Str)
			}
			binary.LittleEndian.PutUint32(item[i:], uint32(r))
			i += 4
		}
	case 'S':
		str, ok := v.(string)
		if !ok {
			// bytes defaults may be written as {"__bytes__", "base64"}.
			return unsupportedf("bytes sentinel %v", v)
		}
		if len(str) > len(item) {
			return corruptf("sentinel %q longer than %s", str, dt.Str)
		}
		copy(item, str)
	default:
		return unsupportedf("sentinel for %s", dt.Str)
	}
	s.sent = item
	return nil
}

// colParts is a column made of other columns.
type colParts interface {
	open(st store, nphys int64) error
	// estimate is the compression ratio and row width, once open.
	estimate() (ratio, rowBytes float64)
	// read fills v[0:n] with physical rows [lo, lo+n); on error it
	// returns the member that failed.
	read(d *b2.Decoder, sc *colScratch, lo int64, n int, v *columnar.Vector) (string, error)
}

// colScratch is one worker's reusable buffers for one column.
type colScratch struct {
	raw  []byte
	mask []byte
	offs []byte
	// last decoded varlen batch (items alias a buffer no one else reuses)
	batch      int
	batchItems [][]byte
	batchVals  []any // nested columns: the batch's decoded items
	// codes: the consumer of this read takes dictionary codes (set by the
	// scan per read, from ScanSpec.WantsCodes).
	codes bool
	// codesOnly: codes are taken and no predicate of the scan reads this
	// column's strings, so Bytes is left unfilled (a pointer store per row
	// that the garbage collector then has to trace).
	codesOnly bool
	// leaves: a flLeaves column's scratch per leaf
	leaves []colScratch
	// views: fixed-width items may be read as views of the decoder's
	// cached blocks (b2.Array.ViewItems1D) rather than copied, and a
	// vector whose payload has the stored layout may alias them. Only a
	// reader whose consumer is done with a batch before the worker
	// decodes again may set it (see tableWorker.views).
	views bool
}

// read fills v[0:n] with physical rows [lo, lo+n) of the column (part
// selects the real or imaginary half of a complex column). ob owns the
// payload storage of output column i.
func (s *colSource) read(d *b2.Decoder, sc *colScratch, lo int64, n int, part int, v *columnar.Vector, ob *outBatch, i int) error {
	member, err := s.readRows(d, sc, lo, n, part, v, ob, i)
	if err != nil {
		return fmt.Errorf("%s: rows [%d, %d): %w", member, lo, lo+int64(n), err)
	}
	return nil
}

// allCodes copies the little-endian int32 codes in raw to codes and reports
// whether all are below nd, the common case, in one pass without branches
// per row; on false the caller's row loop redoes them (NULLs, corruption).
func allCodes(codes []int32, raw []byte, nd uint32) bool {
	raw = raw[:4*len(codes)]
	// The largest code read as unsigned (negative ones are huge), kept in
	// two running maxima fed by one 8-byte load per pair of codes.
	var t0, t1 uint32
	r := 0
	for ; r+2 <= len(codes); r += 2 {
		w := binary.LittleEndian.Uint64(raw[4*r : 4*r+8])
		c0, c1 := uint32(w), uint32(w>>32)
		codes[r], codes[r+1] = int32(c0), int32(c1)
		t0, t1 = max(t0, c0), max(t1, c1)
	}
	if r < len(codes) {
		c := binary.LittleEndian.Uint32(raw[4*r:])
		codes[r] = int32(c)
		t0 = max(t0, c)
	}
	return len(codes) == 0 || max(t0, t1) < nd
}

// readRows is read without the error context; it returns the member that
// failed.
func (s *colSource) readRows(d *b2.Decoder, sc *colScratch, lo int64, n int, part int, v *columnar.Vector, ob *outBatch, i int) (string, error) {
	main := s.member()
	switch s.spec.Flavour {
	case flLeaves:
		return s.parts.read(d, sc, lo, n, v)
	case flFixed:
		isz := s.data.ItemSize()
		raw, err := s.items(d, sc, lo, n)
		if err != nil {
			return main, err
		}
		conv := s.conv
		conv.part = part
		if !sc.views || !ob.alias(i, &conv, raw, n) {
			conv.decode(raw, n, v, &ob.arenas[i])
		}
		if s.sentNaN {
			for r := 0; r < n; r++ {
				if v.Floats[r] != v.Floats[r] {
					v.SetNull(r, n)
				}
			}
		} else if s.sent != nil {
			for r := 0; r < n; r++ {
				if bytes.Equal(raw[r*isz:(r+1)*isz], s.sent) {
					v.SetNull(r, n)
				}
			}
		}
	case flUTF8:
		if have := s.data.Len() - 1; lo+int64(n) > have {
			// Capacity rows past the column's length (see liveEnd): not
			// live, read as NULL.
			k := int(max(0, have-lo))
			for r := k; r < n; r++ {
				v.Bytes[r] = nil
				v.SetNull(r, n)
			}
			if n = k; n == 0 {
				return main, nil
			}
		}
		sc.offs = grow(sc.offs, 8*(n+1))
		if err := s.data.ReadItems1D(d, sc.offs, lo, n+1); err != nil {
			return main, err
		}
		offs := sc.offs[:8*(n+1)]
		first := int64(binary.LittleEndian.Uint64(offs))
		last := int64(binary.LittleEndian.Uint64(offs[8*n:]))
		if first < 0 || last < first || last > s.blob.Len() || last-first > maxBatchBytes {
			return main, corruptf("rows [%d, %d) span bytes [%d, %d) of a %d-byte blob", lo, lo+int64(n), first, last, s.blob.Len())
		}
		// The bytes become the batch's own: Bytes alias them until the
		// batch is recycled.
		blob := grow(ob.aux[i], int(last-first))
		ob.aux[i] = blob
		if err := s.blob.ReadItems1D(d, blob, first, int(last-first)); err != nil {
			return s.base + ".utf8.b2nd", err
		}
		// Row r ends where row r+1 starts: ends[r] (little-endian items,
		// as b2.Items reads them in place).
		ends, out := b2.Items[int64](offs[8:])[:n], v.Bytes[:n]
		prev := first
		for r, next := range ends {
			if next < prev || next > last {
				return main, corruptf("offsets of row %d decrease", lo+int64(r))
			}
			out[r] = blob[prev-first : next-first : next-first]
			prev = next
		}
		if s.sent != nil {
			for r, b := range out {
				if bytes.Equal(b, s.sent) {
					v.SetNull(r, n)
				}
			}
		}
	case flDict:
		// Values alias the dictionary (no copy). A consumer that takes
		// codes gets them as well (Vector.Dict/Codes), so that its
		// filters and groups compare integers (STYLE §6); Bytes stays
		// filled for the scan's own predicate checks.
		raw, err := s.items(d, sc, lo, n)
		if err != nil {
			return main, err
		}
		var codes []int32
		if sc.codes {
			codes = dict.Set(v, s.codeDict, n)
		} else {
			sc.codesOnly = false
		}
		nd := int32(len(s.dict))
		if codes != nil && sc.codesOnly && allCodes(codes[:n], raw, uint32(nd)) {
			break
		}
		for r := 0; r < n; r++ {
			c := int32(binary.LittleEndian.Uint32(raw[4*r:]))
			switch {
			case c >= 0 && c < nd:
				if codes != nil {
					codes[r] = c
				}
				if !sc.codesOnly {
					v.Bytes[r] = s.dict[c]
				}
			case int64(c) == s.spec.NullCode || c < 0 && s.spec.Nullable:
				v.SetNull(r, n)
				if codes != nil {
					codes[r] = 0
				}
				if !sc.codesOnly {
					v.Bytes[r] = nil
				}
			default:
				return main, corruptf("row %d has code %d, dictionary has %d values", lo+int64(r), c, nd)
			}
		}
	case flVarlen:
		for r := 0; r < n; {
			row := lo + int64(r)
			k := s.ba.batchOf(row)
			if k >= len(s.ba.starts)-1 {
				return main, corruptf("row %d past the last batch", row)
			}
			if sc.batchItems == nil || sc.batch != k {
				want := s.ba.starts[k+1] - s.ba.starts[k]
				items, err := s.ba.decode(d, k, want)
				if err != nil {
					return main, err
				}
				if int64(len(items)) != want {
					return main, corruptf("batch %d holds %d items, batch_lengths says %d", k, len(items), want)
				}
				sc.batch, sc.batchItems = k, items
			}
			items := sc.batchItems[row-s.ba.starts[k]:]
			m := min(len(items), n-r)
			for j := 0; j < m; j++ {
				v.Bytes[r+j] = items[j]
				if items[j] == nil {
					v.SetNull(r+j, n)
				}
			}
			r += m
		}
	case flNested:
		if err := s.readNested(d, sc, lo, n, v); err != nil {
			return main, err
		}
	}
	if s.mask != nil {
		sc.mask = grow(sc.mask, n)
		if err := s.mask.ReadItems1D(d, sc.mask, lo, n); err != nil {
			return s.base + ".notnull.b2nd", err
		}
		for r, b := range sc.mask[:n] {
			if b == 0 {
				v.SetNull(r, n)
			}
		}
	}
	return "", nil
}

// items returns the stored bytes of items [lo, lo+n) of s.data: a view of
// the decoded block when sc.views allows it and they lie inside one block,
// else a copy in sc.raw.
func (s *colSource) items(d *b2.Decoder, sc *colScratch, lo int64, n int) ([]byte, error) {
	if sc.views {
		if view, ok, err := s.data.ViewItems1D(d, lo, n); ok || err != nil {
			return view, err
		}
	}
	sc.raw = grow(sc.raw, n*s.data.ItemSize())
	return sc.raw, s.data.ReadItems1D(d, sc.raw, lo, n)
}

// grow returns b resized to n bytes, reusing its storage when it can.
func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n, max(n, 2*cap(b)))
}
