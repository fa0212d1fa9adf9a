package parquet

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/b2sql/b2sql/columnar"
)

// Nested columns are read by arrow-go's record-level reader (pqarrow),
// one row group and one top-level field at a time: it decodes the
// repetition and definition levels of each leaf a batch at a time into
// Arrow offsets and validity (no row-at-a-time assembly), which putArrow
// then turns into the columnar nested layout. Only the field's own leaf
// columns are read (nested_prune.go).

// arrowFile is a file's pqarrow readers, made on the first nested read:
// one allocating from bufferPool, for columns without byte leaves, whose
// values putArrow copies out, so the batch's buffers go back to the pool
// when it is released (allocating and zeroing them anew took a third of
// a list scan's CPU); one from the Go allocator for the others, whose
// byte payloads the vectors keep pointing at.
type arrowFile struct {
	once         sync.Once
	pooled, kept *pqarrow.FileReader
	err          error
}

func (pf *pqFile) arrowReader(t columnar.Type) (*pqarrow.FileReader, error) {
	pf.arrow.once.Do(func() {
		props := pqarrow.ArrowReadProperties{BatchSize: batchRows}
		pf.arrow.kept, pf.arrow.err = newArrowReader(pf, props, memory.DefaultAllocator)
		if pf.arrow.err == nil {
			pf.arrow.pooled, pf.arrow.err = newArrowReader(pf, props, bufferPool)
		}
	})
	if hasBytes(t) {
		return pf.arrow.kept, pf.arrow.err
	}
	return pf.arrow.pooled, pf.arrow.err
}

// hasBytes reports whether a value of type t holds byte payloads.
func hasBytes(t columnar.Type) bool {
	switch {
	case t.Phys() == columnar.PhysBytes:
		return true
	case t.ID == columnar.Struct || t.ID == columnar.Map:
		for _, f := range t.Fields() {
			if hasBytes(f.Type) {
				return true
			}
		}
		return false
	case t.ID == columnar.List:
		return hasBytes(t.Elem())
	}
	return false
}

// nestedReader reads one nested column of one row group.
type nestedReader struct {
	cr      *pqarrow.ColumnReader
	scratch *columnar.Vector // skipped rows land here
	// lists of numbers go through lr instead (nested_list.go), maps with
	// an optional key through mr (nested_map.go)
	lr   listReader
	mr   mapReader
	fast bool
	isMp bool
	path []string // nestedCol.path of the column read by cr
}

// open starts reading column c of row group rg.
func (r *nestedReader) open(pf *pqFile, rg int, c *column) error {
	if sh := c.nested.list; sh != nil && listFast {
		rdr, _, err := openColumn(pf, pf.rdr.RowGroup(rg), sh.leaf)
		if err != nil {
			return err
		}
		r.lr.reset(sh, rdr)
		r.fast = true
		return nil
	}
	r.fast = false
	if sh := c.nested.mp; sh != nil {
		rgr := pf.rdr.RowGroup(rg)
		key, _, err := openColumn(pf, rgr, sh.key)
		if err != nil {
			return err
		}
		val, _, err := openColumn(pf, rgr, sh.val)
		if err != nil {
			key.Close()
			return err
		}
		r.mr.reset(sh, key, val)
		r.isMp = true
		return nil
	}
	r.isMp = false
	fr, err := pf.arrowReader(c.field.Type)
	if err != nil {
		return err
	}
	leaves := make(map[int]bool, len(c.nested.leaves))
	for _, l := range c.nested.leaves {
		leaves[l] = true
	}
	r.path = c.nested.path
	r.cr, err = onlyLeaves(fr, c.nested.field, leaves).GetFieldReader(context.Background(), c.nested.field, leaves, []int{rg})
	if err != nil {
		return err
	}
	if r.cr == nil {
		return fmt.Errorf("%w: no reader for the column", ErrUnsupported)
	}
	return nil
}

func (r *nestedReader) close() {
	r.lr.close()
	r.mr.close()
	if r.cr != nil {
		r.cr.Release()
		r.cr = nil
	}
}

// read decodes the next n rows into v (Reset to n rows by the caller) and
// returns how many it got: fewer only at the end of the row group.
func (r *nestedReader) read(v *columnar.Vector, n int) (int, error) {
	if r.fast {
		return r.lr.read(v, n)
	}
	if r.isMp {
		return r.mr.read(v, n)
	}
	ch, err := r.cr.NextBatch(int64(n))
	if err != nil {
		return 0, asCorrupt(err)
	}
	defer ch.Release()
	at := 0
	for _, a := range ch.Chunks() {
		if at+a.Len() > n {
			return 0, corruptf("%d rows where %d were asked", at+a.Len(), n)
		}
		field, nulls, err := descend(a, r.path) // a field of a STRUCT read alone (fields.go)
		if err != nil {
			return 0, err
		}
		if err := putArrow(v, at, n, field); err != nil {
			return 0, err
		}
		for _, i := range nulls {
			v.SetValue(at+i, n, columnar.NullValue(v.Type))
		}
		at += a.Len()
	}
	return at, nil
}

// skip reads and drops k rows.
func (r *nestedReader) skip(t columnar.Type, k int64) error {
	if r.scratch == nil || r.scratch.Type != t {
		r.scratch = columnar.NewVector(t, 0)
	}
	for k > 0 {
		n := int(min(k, batchRows))
		r.scratch.Reset(n)
		got, err := r.read(r.scratch, n)
		if err != nil {
			return err
		}
		if got < n {
			return corruptf("column chunk ends %d rows early", k-int64(got))
		}
		k -= int64(n)
	}
	return nil
}

// putArrow writes the rows of a to rows [at, at+a.Len()) of v, whose
// payload has room for them; size is v's row count, for its bitmap.
// Byte payloads alias a's buffers (arrow-go's Go allocator leaves them to
// the garbage collector).
func putArrow(v *columnar.Vector, at, size int, a arrow.Array) error {
	n := a.Len()
	if err := putArrowValues(v, at, size, a); err != nil {
		return err
	}
	if a.NullN() == 0 {
		return nil
	}
	null := columnar.NullValue(v.Type)
	for i := range n {
		if a.IsNull(i) {
			v.SetValue(at+i, size, null) // NULL, and an empty list or NULL fields
		}
	}
	return nil
}

// putKids appends the child rows [lo, hi) of child array a to the list
// vector v's child and returns the first child row written.
func putKids(v *columnar.Vector, a arrow.Array, lo, hi int64) (int, error) {
	k := v.Kids[0]
	base := v.KidLen
	cnt := int(hi - lo)
	k.Grow(base + cnt)
	k.ExtendValid(base + cnt)
	sl := array.NewSlice(a, lo, hi)
	defer sl.Release()
	if err := putArrow(k, base, base+cnt, sl); err != nil {
		return 0, err
	}
	v.KidLen += cnt
	return base, nil
}

func putArrowValues(v *columnar.Vector, at, size int, a arrow.Array) error {
	n := a.Len()
	switch a := a.(type) {
	case array.ListLike:
		if v.Type.ID != columnar.List && v.Type.ID != columnar.Map {
			return typeMismatch(v, a)
		}
		if n == 0 {
			return nil
		}
		lo, _ := a.ValueOffsets(0)
		_, hi := a.ValueOffsets(n - 1)
		if lo < 0 || hi < lo || hi > int64(a.ListValues().Len()) {
			return corruptf("list offsets %d..%d outside %d values", lo, hi, a.ListValues().Len())
		}
		base, err := putKids(v, a.ListValues(), lo, hi)
		if err != nil {
			return err
		}
		for i := range n {
			s, e := a.ValueOffsets(i)
			if s < lo || e < s || e > hi {
				return corruptf("list offsets %d..%d out of order", s, e)
			}
			v.Starts[at+i] = int32(base + int(s-lo))
			v.Ends[at+i] = int32(base + int(e-lo))
		}
	case *array.Struct:
		if v.Type.ID == columnar.List && a.NumField() == 1 { // legacyListOfLists
			return putArrow(v, at, size, a.Field(0))
		}
		if v.Type.ID != columnar.Struct || a.NumField() != len(v.Kids) {
			return typeMismatch(v, a)
		}
		for f, k := range v.Kids {
			k.ExtendValid(size)
			if err := putArrow(k, at, size, a.Field(f)); err != nil {
				return err
			}
		}
	case *array.Null:
		for i := range n {
			v.SetNull(at+i, size)
		}
	case *array.Boolean:
		for i := range n {
			v.Bools[at+i] = a.Value(i)
		}
	case *array.Int8:
		putInts(v.Ints[at:at+n], a.Int8Values())
	case *array.Int16:
		putInts(v.Ints[at:at+n], a.Int16Values())
	case *array.Int32:
		putInts(v.Ints[at:at+n], a.Int32Values())
	case *array.Int64:
		putInts(v.Ints[at:at+n], a.Int64Values())
	case *array.Uint8:
		putInts(v.Ints[at:at+n], a.Uint8Values())
	case *array.Uint16:
		putInts(v.Ints[at:at+n], a.Uint16Values())
	case *array.Uint32:
		putInts(v.Ints[at:at+n], a.Uint32Values())
	case *array.Uint64:
		copy(v.Uints[at:at+n], a.Uint64Values())
	case *array.Float32:
		for i, x := range a.Float32Values() {
			v.Floats[at+i] = float64(x)
		}
	case *array.Float64:
		copy(v.Floats[at:at+n], a.Float64Values())
	case *array.String:
		for i := range n {
			s := a.Value(i)
			v.Bytes[at+i] = unsafe.Slice(unsafe.StringData(s), len(s))
		}
	case *array.LargeString:
		for i := range n {
			s := a.Value(i)
			v.Bytes[at+i] = unsafe.Slice(unsafe.StringData(s), len(s))
		}
	case *array.Binary:
		for i := range n {
			v.Bytes[at+i] = a.Value(i)
		}
	case *array.LargeBinary:
		for i := range n {
			v.Bytes[at+i] = a.Value(i)
		}
	case *array.FixedSizeBinary:
		for i := range n {
			v.Bytes[at+i] = a.Value(i)
		}
	case *array.Date32:
		putInts(v.Ints[at:at+n], a.Date32Values())
	case *array.Date64:
		for i, x := range a.Date64Values() {
			v.Ints[at+i] = floorDiv(int64(x), 86_400_000)
		}
	case *array.Timestamp:
		u := a.DataType().(*arrow.TimestampType).Unit
		if v.Type.ID == columnar.TimestampNS && u == arrow.Nanosecond {
			putInts(v.Ints[at:at+n], a.TimestampValues())
			break
		}
		mul, div := arrowUnit(u)
		for i, x := range a.TimestampValues() {
			v.Ints[at+i] = floorDiv(int64(x)*mul, div)
		}
	case *array.Time32:
		mul, div := arrowUnit(a.DataType().(*arrow.Time32Type).Unit)
		for i, x := range a.Time32Values() {
			v.Ints[at+i] = timeKey(v.Type, floorDiv(int64(x)*mul, div))
		}
	case *array.Time64:
		mul, div := arrowUnit(a.DataType().(*arrow.Time64Type).Unit)
		for i, x := range a.Time64Values() {
			v.Ints[at+i] = timeKey(v.Type, floorDiv(int64(x)*mul, div))
		}
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		if p := v.Type.Phys(); !v.Type.IsDecimal() && p != columnar.PhysFloat {
			return typeMismatch(v, a)
		}
		if err := decimalValues(len(a.Values()), a); err != nil {
			return err
		}
		var keys []byte // DECIMAL(19..38)'s 16-byte keys, one allocation
		if v.Type.ID == columnar.Decimal128 {
			keys = make([]byte, 0, 16*n)
		}
		for i := range n {
			if a.IsNull(i) {
				continue
			}
			x := a.Value(i)
			switch v.Type.ID {
			case columnar.Decimal:
				v.Ints[at+i] = int64(x.LowBits())
			case columnar.Decimal128:
				k := len(keys)
				keys = columnar.AppendInt128Key(keys, columnar.Int128{Hi: x.HighBits(), Lo: x.LowBits()})
				v.Bytes[at+i] = keys[k:len(keys):len(keys)]
			default:
				v.Floats[at+i] = x.ToFloat64(dt.Scale)
			}
		}
	case *array.Decimal256:
		dt := a.DataType().(*arrow.Decimal256Type)
		if v.Type.Phys() != columnar.PhysFloat {
			return typeMismatch(v, a)
		}
		if err := decimalValues(len(a.Values()), a); err != nil {
			return err
		}
		for i := range n {
			if a.IsNull(i) {
				continue
			}
			v.Floats[at+i] = a.Value(i).ToFloat64(dt.Scale)
		}
	case *extensions.VariantArray:
		return putVariant(v, at, size, a) // variant.go
	case array.ExtensionArray:
		return putArrowValues(v, at, size, a.Storage())
	default:
		return typeMismatch(v, a)
	}
	return nil
}

// timeKey is a time of day in µs as a value of t: a TIMETZ (a UTC-adjusted
// Parquet TIME, leafType) is at +00.
func timeKey(t columnar.Type, us int64) int64 {
	if t.ID == columnar.TimeTZ {
		return columnar.TimeTZKey(us, 0)
	}
	return us
}

func typeMismatch(v *columnar.Vector, a arrow.Array) error {
	return fmt.Errorf("%w: Arrow %s read into %s", ErrUnsupported, a.DataType(), v.Type)
}

func putInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | arrow.Date32 | arrow.Timestamp](dst []int64, src []T) {
	for i, x := range src[:len(dst)] {
		dst[i] = int64(x)
	}
}

// arrowUnit returns the multiplier and floor divisor from an Arrow time
// unit to microseconds.
func arrowUnit(u arrow.TimeUnit) (mul, div int64) {
	switch u {
	case arrow.Second:
		return 1_000_000, 1
	case arrow.Millisecond:
		return 1000, 1
	case arrow.Nanosecond:
		return 1, 1000
	}
	return 1, 1
}

func floorDiv(a, b int64) int64 {
	if b == 1 {
		return a
	}
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// decimalValues checks that a decimal array's values buffer (have values)
// holds every row that is not NULL: a corrupt page can leave it short.
func decimalValues(have int, a arrow.Array) error {
	if have >= a.Len() || a.NullN() == a.Len() {
		return nil
	}
	return corruptf("%d decimal values for %d rows", have, a.Len())
}
