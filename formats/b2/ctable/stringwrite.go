package ctable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// stringWriter writes a VARCHAR column. Its flavour is chosen from the
// first SampleRows values (spec §6.3):
//
//   - dictionary() when few distinct values repeat: codes are 4 bytes a row
//     and the values are stored once;
//   - string(max_length) for short bounded identifiers (codes, ids): fixed
//     UCS-4 items, no offsets, and python reads them as a NumPy U array;
//   - utf8() for everything else (free text): offsets + bytes.
//
// If later data breaks the choice (a dictionary grows too large, a value
// is longer than max_length) the rows written so far are re-read from the
// staging file and the column continues as utf8().
type stringWriter struct {
	cfg      *Writer
	name     string
	base     string // member path without extension
	nullable bool

	sample [][]byte // nil entries are NULL; copies
	flav   flavour  // flFixed = string(max_length); flUTF8; flDict
	chosen bool

	// utf8
	offs *b2.ArrayWriter
	blob *b2.ArrayWriter
	off  int64
	obuf []byte
	bbuf []byte
	sum  *stringSummaryBuilder // nil: no summary (NoSummary, or rows came from string(max_length))
	// dictionary
	codes  *b2.ArrayWriter
	lookup map[string]int32
	values [][]byte
	// string(max_length)
	fixed  *b2.ArrayWriter
	maxLen int
	fbuf   []byte

	mask  *maskWriter
	valid []byte
	rows  int64
}

func (w *stringWriter) write(v *columnar.Vector, rows []int) error {
	if !w.chosen {
		for _, r := range rows {
			if v.IsNull(r) {
				w.sample = append(w.sample, nil)
			} else {
				w.sample = append(w.sample, append([]byte{}, v.Bytes[r]...))
			}
		}
		if len(w.sample) >= w.cfg.opts.SampleRows {
			return w.choose()
		}
		return nil
	}
	vals := make([][]byte, len(rows))
	for k, r := range rows {
		if !v.IsNull(r) {
			vals[k] = v.Bytes[r]
			if vals[k] == nil {
				vals[k] = []byte{}
			}
		}
	}
	return w.add(vals)
}

// choose picks the flavour from the sample and writes the sample.
func (w *stringWriter) choose() error {
	distinct := map[string]struct{}{}
	valid, short := true, true
	maxLen, nonNull := 0, 0
	for _, s := range w.sample {
		if s == nil {
			continue
		}
		nonNull++
		if !utf8.Valid(s) || bytes.IndexByte(s, 0) >= 0 {
			valid = false
		}
		n := utf8.RuneCount(s)
		maxLen = max(maxLen, n)
		if n > 32 || bytes.ContainsAny(s, " \t\n\r") {
			short = false
		}
		if len(distinct) <= w.cfg.opts.DictMaxValues {
			distinct[string(s)] = struct{}{}
		}
	}
	w.flav = flUTF8
	switch {
	case !valid || nonNull == 0:
	case len(distinct) <= w.cfg.opts.DictMaxValues && len(distinct)*4 <= nonNull:
		w.flav = flDict
	case short && maxLen > 0:
		w.flav = flFixed
		w.maxLen = (maxLen + 7) / 8 * 8 // slack, so that a slightly longer id does not force utf8
	}
	w.chosen = true
	if err := w.open(); err != nil {
		return err
	}
	s := w.sample
	w.sample = nil
	return w.add(s)
}

func (w *stringWriter) open() error {
	var err error
	o := &w.cfg.opts
	switch w.flav {
	case flDict:
		w.lookup = map[string]int32{}
		w.codes, err = b2.CreateArray1D(w.cfg.member(w.base+".staging.b2nd"), "<i4", arrayOpts(o.ChunkRows, o.BlockRows, o.CParams, 4))
	case flFixed:
		dt := fmt.Sprintf("<U%d", w.maxLen)
		w.fixed, err = b2.CreateArray1D(w.cfg.member(w.base+".staging.b2nd"), dt, arrayOpts(o.ChunkRows, o.BlockRows, o.CParams, 4*w.maxLen))
	default:
		return w.openUTF8()
	}
	return err
}

func (w *stringWriter) openUTF8() error {
	var err error
	if w.offs, err = b2.CreateArray1D(w.cfg.member(w.base+".b2nd"), "<i8", arrayOpts(131072, 32768, w.cfg.opts.CParams, 8)); err != nil {
		return err
	}
	if w.blob, err = b2.CreateArray1D(w.cfg.member(w.base+".utf8.b2nd"), "|u1", arrayOpts(2097152, 262144, blobCParams(w.cfg.opts.CParams), 1)); err != nil {
		return err
	}
	w.flav = flUTF8
	if !w.cfg.opts.NoSummary {
		w.sum = newStringSummaryBuilder(int64(w.cfg.opts.BlockRows))
	}
	return w.offs.Append(binary.LittleEndian.AppendUint64(nil, 0))
}

// add writes values (nil = NULL) with the chosen flavour.
func (w *stringWriter) add(vals [][]byte) error {
	n := len(vals)
	w.valid = grow(w.valid, n)
	for k, s := range vals {
		w.valid[k] = 1
		if s == nil {
			w.valid[k] = 0
		}
	}
	switch w.flav {
	case flDict:
		buf := make([]byte, 0, 4*n)
		for k, s := range vals {
			code := int32(-1)
			if s != nil {
				c, ok := w.lookup[string(s)]
				if !ok {
					if len(w.values) >= w.cfg.opts.DictMaxValues*4 || !utf8.Valid(s) {
						// Too many distinct values after all: continue as utf8.
						if err := w.codes.Append(buf); err != nil {
							return err
						}
						if err := w.toUTF8(); err != nil {
							return err
						}
						return w.add(vals[k:])
					}
					c = int32(len(w.values))
					w.values = append(w.values, append([]byte{}, s...))
					w.lookup[string(s)] = c
				}
				code = c
			}
			buf = binary.LittleEndian.AppendUint32(buf, uint32(code))
			w.rows++
		}
		// Dictionary NULLs are null_code -1, no mask.
		return w.codes.Append(buf)
	case flFixed:
		isz := 4 * w.maxLen
		w.fbuf = grow(w.fbuf, n*isz)
		clear(w.fbuf)
		for k, s := range vals {
			if s == nil {
				continue
			}
			if utf8.RuneCount(s) > w.maxLen || !utf8.Valid(s) || bytes.IndexByte(s, 0) >= 0 {
				if k > 0 {
					if err := w.fixed.Append(w.fbuf[:k*isz]); err != nil {
						return err
					}
					if err := w.mask.add(w.valid[:k]); err != nil {
						return err
					}
					w.rows += int64(k)
				}
				rest := vals[k:]
				if err := w.toUTF8(); err != nil {
					return err
				}
				return w.add(rest)
			}
			i := k * isz
			for _, r := range string(s) {
				binary.LittleEndian.PutUint32(w.fbuf[i:], uint32(r))
				i += 4
			}
		}
		w.rows += int64(n)
		if err := w.fixed.Append(w.fbuf[:n*isz]); err != nil {
			return err
		}
		return w.mask.add(w.valid[:n])
	default:
		blob := w.appendUTF8(vals)
		if w.sum != nil {
			w.sum.add(vals)
		}
		w.rows += int64(n)
		if err := w.blob.Append(blob); err != nil {
			return err
		}
		if err := w.offs.Append(w.obuf); err != nil {
			return err
		}
		return w.mask.add(w.valid[:n])
	}
}

// appendUTF8 lays out vals as utf8 bytes and end offsets (in w.obuf) and
// returns the bytes, in a buffer reused across batches and sized once.
func (w *stringWriter) appendUTF8(vals [][]byte) []byte {
	total := 0
	for _, s := range vals {
		total += len(s)
	}
	w.bbuf = grow(w.bbuf, total)[:0]
	w.obuf = grow(w.obuf, 8*len(vals))[:0]
	for _, s := range vals {
		w.bbuf = append(w.bbuf, s...)
		w.off += int64(len(s))
		w.obuf = binary.LittleEndian.AppendUint64(w.obuf, uint64(w.off))
	}
	return w.bbuf
}

// toUTF8 rewrites the rows written so far as utf8 and switches flavour.
func (w *stringWriter) toUTF8() error {
	staging := w.cfg.member(w.base + ".staging.b2nd")
	var aw *b2.ArrayWriter
	if w.flav == flDict {
		aw = w.codes
	} else {
		aw = w.fixed
	}
	if err := aw.Close(); err != nil {
		return err
	}
	old, err := b2.OpenArray(staging)
	if err != nil {
		return err
	}
	defer func() {
		old.Close()
		removeQuiet(staging)
	}()
	flav := w.flav
	// The mask so far stays valid: dictionary NULLs (code -1) become mask
	// entries below, fixed-string NULLs are already in it.
	if flav == flDict {
		w.rows = 0
	}
	prevRows := w.rows
	if err := w.openUTF8(); err != nil {
		return err
	}
	if flav == flFixed {
		// Its NULLs are in the mask, not among the values re-read below:
		// no summary rather than one that counts them as empty strings.
		w.sum = nil
	}
	it := old.Chunks()
	defer it.Close()
	var conv fixedConv
	if flav == flFixed {
		conv = fixedConv{dt: old.DType, stride: old.ItemSize(), out: columnar.TVarchar, mul: 1, div: 1}
	}
	for it.Next() {
		n := it.Len()
		vals := make([][]byte, n)
		if flav == flDict {
			for k := 0; k < n; k++ {
				c := int32(binary.LittleEndian.Uint32(it.Bytes()[4*k:]))
				if c >= 0 {
					vals[k] = w.values[c]
				}
			}
		} else {
			v := columnar.NewVector(columnar.TVarchar, n)
			var arena []byte
			conv.decode(it.Bytes(), n, v, &arena)
			copy(vals, v.Bytes[:n])
		}
		if flav == flDict {
			if err := w.add(vals); err != nil {
				return err
			}
			continue
		}
		// Fixed strings: the mask already covers these rows.
		blob := w.appendUTF8(vals)
		if err := w.blob.Append(blob); err != nil {
			return err
		}
		if err := w.offs.Append(w.obuf); err != nil {
			return err
		}
	}
	if flav == flFixed {
		w.rows = prevRows
	}
	w.codes, w.fixed, w.lookup, w.values = nil, nil, nil, nil
	return it.Err()
}

func (w *stringWriter) finish(int64) (jsonObj, mpMap, error) {
	if !w.chosen {
		if err := w.choose(); err != nil {
			return nil, nil, err
		}
	}
	nullObj := func(obj jsonObj) jsonObj {
		if w.nullable || w.mask.aw != nil {
			obj = append(obj, jsonKV{"nullable", true}, jsonKV{"null_storage", "mask"})
		}
		return obj
	}
	switch w.flav {
	case flDict:
		if err := w.codes.Close(); err != nil {
			return nil, nil, err
		}
		if err := renameMember(w.cfg, w.base+".staging.b2nd", w.base+".b2nd"); err != nil {
			return nil, nil, err
		}
		ba, err := newBatchArrayWriter(w.cfg.member(w.base+"_dict.b2b"), "str", false)
		if err != nil {
			return nil, nil, err
		}
		for _, v := range w.values {
			if err := ba.add(v); err != nil {
				ba.abort()
				return nil, nil, err
			}
		}
		if err := ba.close(); err != nil {
			return nil, nil, err
		}
		return jsonObj{{"kind", "dictionary"}, {"index_type", jsonObj{{"kind", "int32"}}},
			{"value_type", jsonObj{{"kind", "vlstring"}, {"nullable", false}, {"serializer", "msgpack"}, {"batch_rows", vlBatchRows}}},
			{"ordered", false}, {"nullable", true}, {"null_code", -1}}, nil, nil
	case flFixed:
		if err := w.fixed.Close(); err != nil {
			return nil, nil, err
		}
		if err := renameMember(w.cfg, w.base+".staging.b2nd", w.base+".b2nd"); err != nil {
			return nil, nil, err
		}
		if err := w.mask.close(); err != nil {
			return nil, nil, err
		}
		return nullObj(jsonObj{{"kind", "string"}, {"max_length", w.maxLen}}), nil, nil
	}
	if w.sum != nil {
		if err := w.offs.SetVLMeta(stringSummaryKey, w.sum.encode(writerValueEpoch)); err != nil {
			return nil, nil, err
		}
	}
	if err := w.offs.Close(); err != nil {
		return nil, nil, err
	}
	if err := w.blob.Close(); err != nil {
		return nil, nil, err
	}
	if err := w.mask.close(); err != nil {
		return nil, nil, err
	}
	return nullObj(jsonObj{{"kind", "utf8"}}), nil, nil
}

func (w *stringWriter) abort() {
	for _, aw := range []*b2.ArrayWriter{w.offs, w.blob, w.codes, w.fixed} {
		if aw != nil {
			aw.Abort()
		}
	}
	w.mask.abort()
}

// blobCParams are the parameters of a utf8() column's bytes: cp when the
// caller gave some, else b2.TextCParams (zstd clevel 3, or LZ4HC where
// that is at most twice the size). Text is made of matches, and zstd's
// next speed class finds longer ones: over the demo table's titles (527
// MB) clevel 3 was 9% smaller (149.8 → 135.8 MB) and decoded 27% faster
// (736 → 535 ms) than clevel 1, for 25% more encoding time (3.3 → 4.2 s).
func blobCParams(cp *b2.CParams) *b2.CParams {
	if cp != nil {
		return cp
	}
	p := b2.TextCParams()
	return &p
}
