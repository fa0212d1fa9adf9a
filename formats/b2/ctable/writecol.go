package ctable

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// colWriter writes one column of a table being created. write receives
// the live rows of a batch (indices into v, with Const already resolved by
// the caller into repeated indices 0).
type colWriter interface {
	write(v *columnar.Vector, rows []int) error
	// finish closes the files and returns the schema entry (JSON object
	// fields after name) and the SUMMARY catalog entry (nil if none).
	finish(nrows int64) (jsonObj, mpMap, error)
	abort()
}

// jsonObj is an ordered JSON object (python's json.dumps keeps insertion
// order; so do we, so that files diff cleanly against python's).
type jsonObj []jsonKV

type jsonKV struct {
	K string
	V any
}

// arrayOpts are the b2nd options of a column array with rows per chunk and
// block; cp (may be nil) supplies codec, level and filters.
func arrayOpts(chunkRows, blockRows int, cp *b2.CParams, itemsize int) *b2.ArrayOptions {
	o := &b2.ArrayOptions{ChunkShape: []int{chunkRows}, BlockShape: []int{blockRows}}
	if cp != nil {
		p := *cp
		p.Typesize = itemsize
		o.CParams = &p
	}
	return o
}

// maskWriter writes _cols/<name>.notnull.b2nd, created on the first NULL
// (absence means no NULLs, as python-blosc2 does).
type maskWriter struct {
	path      string
	chunkRows int
	blockRows int
	cp        *b2.CParams
	aw        *b2.ArrayWriter
	rows      int64 // rows seen before the mask existed
	buf       []byte
}

// add records the validity of the next rows.
func (m *maskWriter) add(valid []byte) error {
	if m.aw == nil {
		null := false
		for _, b := range valid {
			if b == 0 {
				null = true
				break
			}
		}
		if !null {
			m.rows += int64(len(valid))
			return nil
		}
		aw, err := b2.CreateArray1D(m.path, "|b1", arrayOpts(m.chunkRows, m.blockRows, m.cp, 1))
		if err != nil {
			return err
		}
		m.aw = aw
		ones := make([]byte, min(m.rows, 1<<16))
		for i := range ones {
			ones[i] = 1
		}
		for left := m.rows; left > 0; {
			k := min(left, int64(len(ones)))
			if err := aw.Append(ones[:k]); err != nil {
				return err
			}
			left -= k
		}
	}
	return m.aw.Append(valid)
}

func (m *maskWriter) close() error {
	if m.aw == nil {
		return nil
	}
	return m.aw.Close()
}

func (m *maskWriter) abort() {
	if m.aw != nil {
		m.aw.Abort()
	}
}

// fixedWriter writes numbers, bools and temporal values.
type fixedWriter struct {
	root     string // table directory being built
	idx      string // SUMMARY sidecar member
	name     string
	kind     string // ctable kind
	dtype    string
	size     int
	scale    float64 // decimal → float64 divisor (1 for 128-bit values, stored as float64)
	dateMul  int64   // date days → µs
	tsKeys   jsonObj // timestamp: the unit (and zone) the schema states
	aw       *b2.ArrayWriter
	mask     *maskWriter
	sum      *summaryBuilder
	buf      []byte
	valid    []byte
	anyNull  bool
	nullable bool
}

func (w *fixedWriter) write(v *columnar.Vector, rows []int) error {
	n := len(rows)
	w.buf = grow(w.buf, n*w.size)
	w.valid = grow(w.valid, n)
	for k, r := range rows {
		w.valid[k] = 1
		if v.IsNull(r) {
			w.valid[k] = 0
		}
		b := w.buf[k*w.size : (k+1)*w.size]
		var u uint64
		switch v.Type.Phys() {
		case columnar.PhysBool:
			if v.Bools[r] {
				u = 1
			}
		case columnar.PhysInt:
			x := v.Ints[r]
			switch {
			case w.scale != 0:
				u = math.Float64bits(float64(x) / w.scale)
			case w.dateMul != 0:
				u = uint64(columnar.DateToTimestamp(x)) // ±infinity stays infinite
			default:
				u = uint64(x)
			}
		case columnar.PhysUint:
			u = v.Uints[r]
		case columnar.PhysBytes:
			if v.Type.Wide() { // HUGEINT, UHUGEINT, DECIMAL(19..38): the nearest float64
				if w.valid[k] != 0 {
					u = math.Float64bits(columnar.WideFloat(v.Value(r)))
				}
				break
			}
			// INTERVAL: int64 µs, a month as 30 days
			u = uint64(v.IntervalAt(r).FoldedMicros())
		case columnar.PhysFloat:
			if w.size == 4 {
				u = uint64(math.Float32bits(float32(v.Floats[r])))
			} else {
				u = math.Float64bits(v.Floats[r])
			}
		}
		if w.valid[k] == 0 {
			u = 0 // NULL fill, as python-blosc2's mask storage leaves it
		}
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
	}
	if err := w.aw.Append(w.buf[:n*w.size]); err != nil {
		return err
	}
	if w.sum != nil {
		if w.scale != 0 || w.dateMul != 0 {
			w.feedConverted(rows)
		} else {
			w.sum.feed(v, rows)
		}
	}
	return w.mask.add(w.valid[:n])
}

// feedConverted feeds the stored (converted) values to the summary.
func (w *fixedWriter) feedConverted(rows []int) {
	for k := range rows {
		if w.valid[k] == 0 {
			w.sum.addNull()
			continue
		}
		u := binary.LittleEndian.Uint64(w.buf[k*8:])
		if w.scale != 0 {
			w.sum.addFloat(math.Float64frombits(u))
		} else {
			w.sum.addInt(int64(u))
		}
	}
}

func (w *fixedWriter) finish(nrows int64) (jsonObj, mpMap, error) {
	if err := w.aw.Close(); err != nil {
		return nil, nil, err
	}
	if err := w.mask.close(); err != nil {
		return nil, nil, err
	}
	obj := jsonObj{{"kind", w.kind}}
	obj = append(obj, w.tsKeys...)
	// A NULL in a column declared NOT NULL still gets its mask (and the
	// schema says so), rather than being silently lost.
	if w.nullable || w.mask.aw != nil {
		obj = append(obj, jsonKV{"nullable", true}, jsonKV{"null_storage", "mask"})
	}
	var idx mpMap
	if w.sum != nil && nrows > 0 {
		var err error
		if err = os.MkdirAll(filepath.Dir(filepath.Join(w.root, w.idx)), 0o755); err != nil {
			return nil, nil, err
		}
		idx, err = w.sum.write(w.root, w.idx, nrows, w.dtype)
		if err != nil {
			return nil, nil, err
		}
	}
	return obj, idx, nil
}

func (w *fixedWriter) abort() {
	w.aw.Abort()
	w.mask.abort()
}

// varlenWriter writes a BLOB column as vlbytes (a BatchArray).
type varlenWriter struct {
	ba       *batchArrayWriter
	nullable bool
}

func (w *varlenWriter) write(v *columnar.Vector, rows []int) error {
	for _, r := range rows {
		b := v.Bytes[r]
		if v.IsNull(r) {
			b = nil
		} else if b == nil {
			b = []byte{}
		}
		if err := w.ba.add(b); err != nil {
			return err
		}
	}
	return nil
}

func (w *varlenWriter) finish(int64) (jsonObj, mpMap, error) {
	if err := w.ba.close(); err != nil {
		return nil, nil, err
	}
	return jsonObj{{"kind", "vlbytes"}, {"nullable", w.nullable}, {"serializer", "msgpack"}, {"batch_rows", vlBatchRows}}, nil, nil
}

func (w *varlenWriter) abort() { w.ba.abort() }

// removeQuiet removes a staging file, ignoring errors (the whole temporary
// tree is removed on failure anyway).
func removeQuiet(p string) { os.Remove(p) }
