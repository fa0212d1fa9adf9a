package parquet

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/klauspost/compress/snappy"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/fsmode"
)

// DefaultRowGroupRows is the default row group size, DuckDB's: small enough
// for row-group pruning and parallel scans to pay off, large enough to keep
// per-chunk overhead negligible.
const DefaultRowGroupRows = 122_880

// Codec is a compression codec for written files.
type Codec uint8

const (
	Snappy       Codec = iota // fast, DuckDB's default
	Zstd                      // smaller files, slower to write
	Uncompressed              // for tests and already-compressed data
	Gzip                      // what every reader takes, slow to write
	Brotli                    // small files, slow to write
	Lz4Raw                    // LZ4_RAW (DuckDB's lz4 and lz4_raw), fast
)

// WriterOptions tune a Writer. The zero value means defaults: 122,880 rows
// per row group, Snappy, dictionary encoding, statistics and page index on.
type WriterOptions struct {
	RowGroupRows int64 // rows per row group; 0 = DefaultRowGroupRows
	Codec        Codec
	NoDictionary bool // plain encoding only
	// NoDictionaryFor lists columns written plain even when dictionaries
	// are on: mostly-unique columns, where a dictionary only costs space
	// and decode time (and where arrow-go's fallback to plain writes page
	// encoding statistics in map order, so files stop being byte-identical).
	NoDictionaryFor []string
	// NoBloomFilters leaves bloom filters out (see bloomPays for where
	// they are written by default).
	NoBloomFilters bool
}

// Writer writes batches to a Parquet file. It writes to a temporary file in
// the destination's directory and renames it over the destination on a
// successful Close, so a failed or abandoned write leaves any previous file
// intact. A Writer is not safe for concurrent use.
//
// SQL types map to Parquet as: BOOLEAN; TINYINT..INTEGER and UTINYINT..
// UINTEGER as INT32 with an INT(bits, signed) annotation; BIGINT and UBIGINT
// as INT64 likewise; FLOAT, DOUBLE; DECIMAL(p ≤ 9) on INT32 and DECIMAL(p ≤
// 18) on INT64; VARCHAR as STRING; BLOB as BYTE_ARRAY; DATE; TIMESTAMP as
// TIMESTAMP(MICROS, not adjusted to UTC), as DuckDB writes it; TIME as
// TIME(MICROS, not adjusted to UTC) likewise; INTERVAL as
// plain INT64 microseconds (read back as BIGINT); NULL as INT32, all NULL.
// LIST, STRUCT and MAP columns, nested to any depth, are written in the
// standard layout, as DuckDB writes them (nested_write.go).
type Writer struct {
	path    string
	tmp     *os.File
	buf     *bufio.Writer
	root    *schema.GroupNode
	opts    WriterOptions
	codec   compress.Compression
	fw      *file.Writer // created at the first flush, see start
	schema  columnar.Schema
	cols    []wcol // one per leaf column, in schema order
	tops    []wtop // one per schema column
	rgRows  int64
	pending int64 // rows buffered for the current row group
	iota    []int
	err     error // sticky: the first error ends the write
	closed  bool
}

// wtop is where a schema column goes: a flat column is the leaf
// cols[leaf]; a nested one is shredded by node into its leaves.
type wtop struct {
	leaf int
	node *wnode // nil for a flat column
}

// wcol buffers one leaf column of the current row group: definition (and,
// inside a nested column, repetition) levels and the dense non-NULL values
// in their Parquet physical type.
type wcol struct {
	path  string // the leaf's dotted Parquet path (a flat column's name)
	typ   columnar.Type
	phys  parquet.Type
	null  bool
	defs  []int16
	reps  []int16 // nil for a flat column
	bools []bool
	i32   []int32
	i64   []int64
	f32   []float32
	f64   []float64
	ba    []parquet.ByteArray
	flba  []parquet.FixedLenByteArray // DECIMAL(19..38): 16 bytes each, in arena
	arena []byte                      // owns the bytes of ba and flba: batches are only valid until their next Next
	live  []int                       // scratch: rows holding a value
	dict  bool                        // dictionary encoding chosen by start
	// nested marks a leaf of a nested column; src is the vector whose
	// rows live lists while a batch is shredded (nested_write.go).
	nested bool
	src    *columnar.Vector
}

// NewWriter creates a writer of schema to path. Nothing appears at path
// until Close succeeds.
func NewWriter(path string, sc columnar.Schema, opts WriterOptions) (*Writer, error) {
	if len(sc) == 0 {
		return nil, fmt.Errorf("parquet: %s: cannot write a table with no columns", path)
	}
	root, err := parquetSchema(sc)
	if err != nil {
		return nil, fmt.Errorf("parquet: %s: %w", path, err)
	}
	rg := opts.RowGroupRows
	if rg <= 0 {
		rg = DefaultRowGroupRows
	}
	codec := compress.Codecs.Snappy
	switch opts.Codec {
	case Zstd:
		codec = compress.Codecs.Zstd
	case Uncompressed:
		codec = compress.Codecs.Uncompressed
	case Gzip:
		codec = compress.Codecs.Gzip
	case Brotli:
		codec = compress.Codecs.Brotli
	case Lz4Raw:
		codec = compress.Codecs.Lz4Raw
	}
	for _, name := range opts.NoDictionaryFor {
		if sc.Index(name) < 0 {
			return nil, fmt.Errorf("parquet: %s: NoDictionaryFor: unknown column %q", path, name)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	// file.Writer closes a sink that is an io.Closer; the buffer hides the
	// file so that Close can sync it before closing and renaming.
	buf := bufio.NewWriterSize(tmp, 1<<20)
	w := &Writer{path: path, tmp: tmp, buf: buf, root: root, opts: opts, codec: codec,
		schema: sc, rgRows: rg, tops: make([]wtop, len(sc))}
	for i, f := range sc {
		w.tops[i].leaf = len(w.cols)
		if f.Type.IsNested() {
			w.tops[i].node = planNested(f.Type, f.Nullable, 0, &w.cols)
			continue
		}
		w.cols = append(w.cols, wcol{path: f.Name, typ: f.Type, phys: physOf(f.Type), null: f.Nullable})
	}
	if err := nameLeaves(root, w.cols); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("parquet: %s: %w", path, err)
	}
	return w, nil
}

// parquetSchema builds the Parquet schema of sc.
func parquetSchema(sc columnar.Schema) (*schema.GroupNode, error) {
	fields := make(schema.FieldList, len(sc))
	seen := map[string]bool{}
	for i, f := range sc {
		if f.Name == "" {
			return nil, fmt.Errorf("column %d has no name", i)
		}
		if k := lower(f.Name); seen[k] {
			return nil, fmt.Errorf("duplicate column %q", f.Name)
		} else {
			seen[k] = true
		}
		rep := parquet.Repetitions.Required
		if f.Nullable || f.Type.ID == columnar.Null {
			rep = parquet.Repetitions.Optional
		}
		n, err := fieldNode(f.Name, rep, f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		fields[i] = n
	}
	return schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1)
}

// fieldNode is the Parquet schema node of a column, or of a field inside
// a nested column, named name and of type t.
func fieldNode(name string, rep parquet.Repetition, t columnar.Type) (schema.Node, error) {
	if t.IsNested() {
		return nestedNode(name, rep, t)
	}
	var lt schema.LogicalType = schema.NoLogicalType{}
	switch t.ID {
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64:
		lt = schema.NewIntLogicalType(int8(t.IntBits()), true)
	case columnar.Uint8, columnar.Uint16, columnar.Uint32, columnar.Uint64:
		lt = schema.NewIntLogicalType(int8(t.IntBits()), false)
	case columnar.Decimal:
		p, s := int32(t.Precision), int32(t.Scale)
		if p == 0 {
			p = 18
		}
		if p > 18 || s > p {
			return nil, fmt.Errorf("cannot write %s", t)
		}
		lt = schema.NewDecimalLogicalType(p, s)
	case columnar.Decimal128:
		// 16-byte two's complement, as DuckDB writes DECIMAL(19..38).
		return schema.NewPrimitiveNodeLogical(name, rep, schema.NewDecimalLogicalType(int32(t.Precision), int32(t.Scale)),
			parquet.Types.FixedLenByteArray, 16, -1)
	case columnar.Uuid:
		// FIXED_LEN_BYTE_ARRAY(16), big-endian, as DuckDB writes UUID.
		return schema.NewPrimitiveNodeLogical(name, rep, schema.UUIDLogicalType{}, parquet.Types.FixedLenByteArray, columnar.UUIDSize, -1)
	case columnar.Hugeint, columnar.Uhugeint:
		// DOUBLE, as DuckDB writes them: Parquet has no 128-bit integer.
	case columnar.Varchar:
		lt = schema.StringLogicalType{}
	case columnar.Date:
		lt = schema.DateLogicalType{}
	case columnar.Timestamp:
		lt = schema.NewTimestampLogicalType(false, schema.TimeUnitMicros)
	case columnar.TimestampTZ:
		lt = schema.NewTimestampLogicalType(true, schema.TimeUnitMicros) // an instant, as DuckDB writes it
	case columnar.TimestampMS:
		lt = schema.NewTimestampLogicalType(false, schema.TimeUnitMillis)
	case columnar.TimestampNS:
		lt = schema.NewTimestampLogicalType(false, schema.TimeUnitNanos)
	case columnar.TimestampS:
		// Parquet has no seconds: MICROS, as DuckDB writes TIMESTAMP_S.
		lt = schema.NewTimestampLogicalType(false, schema.TimeUnitMicros)
	case columnar.Time:
		// Local time of day, as DuckDB writes TIME (INT64).
		lt = schema.NewTimeLogicalType(false, schema.TimeUnitMicros)
	case columnar.TimeTZ:
		// The UTC time of day, as DuckDB writes TIME WITH TIME ZONE (and
		// reads it back at +00).
		lt = schema.NewTimeLogicalType(true, schema.TimeUnitMicros)
	case columnar.Enum, columnar.Bit:
		// Its values' text, as DuckDB writes an ENUM or a BIT (and reads
		// VARCHAR).
		lt = schema.StringLogicalType{}
	case columnar.Geometry:
		lt = schema.GeometryLogicalType{Crs: crsText(t.CRS())} // its WKB, as DuckDB writes GEOMETRY
	case columnar.Bool, columnar.Float32, columnar.Float64, columnar.Blob, columnar.Interval, columnar.Null:
	default:
		return nil, fmt.Errorf("cannot write type %s", t)
	}
	return schema.NewPrimitiveNodeLogical(name, rep, lt, physOf(t), -1, -1)
}

// physOf is the Parquet physical type a SQL type is written as.
func physOf(t columnar.Type) parquet.Type {
	switch t.ID {
	case columnar.Bool:
		return parquet.Types.Boolean
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Uint8, columnar.Uint16, columnar.Uint32,
		columnar.Date, columnar.Null:
		return parquet.Types.Int32
	case columnar.Decimal:
		if t.Precision != 0 && t.Precision <= 9 {
			return parquet.Types.Int32
		}
		return parquet.Types.Int64
	case columnar.Float32:
		return parquet.Types.Float
	case columnar.Float64, columnar.Hugeint, columnar.Uhugeint:
		return parquet.Types.Double
	case columnar.Decimal128, columnar.Uuid:
		return parquet.Types.FixedLenByteArray
	case columnar.Varchar, columnar.Blob, columnar.Enum, columnar.Geometry, columnar.Bit:
		return parquet.Types.ByteArray
	}
	return parquet.Types.Int64
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Write appends the live rows of b (honouring b.Sel and Const vectors).
// Its columns must match the writer's schema in order and physical type.
// The batch is not retained.
func (w *Writer) Write(b *columnar.Batch) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return fmt.Errorf("parquet: %s: write after close", w.path)
	}
	if len(b.Cols) != len(w.tops) {
		return w.fail(fmt.Errorf("batch has %d columns, schema has %d", len(b.Cols), len(w.tops)))
	}
	for i, v := range b.Cols {
		want := w.schema[i].Type
		if v.Type.ID == columnar.Null {
			continue
		}
		if v.Type.Phys() != want.Phys() || want.IsNested() && v.Type != want {
			return w.fail(fmt.Errorf("column %q: batch has %s, schema has %s", w.schema[i].Name, v.Type, want))
		}
	}
	rows := b.Sel
	if rows == nil {
		if len(w.iota) < b.Len {
			w.iota = make([]int, max(b.Len, columnar.MaxBatch))
			for i := range w.iota {
				w.iota[i] = i
			}
		}
		rows = w.iota[:b.Len]
	}
	for len(rows) > 0 {
		k := int(min(int64(len(rows)), w.rgRows-w.pending))
		for i, v := range b.Cols {
			var err error
			if t := w.tops[i]; t.node != nil {
				err = t.node.shred(w.cols, v, rows[:k])
			} else {
				err = w.cols[t.leaf].append(v, rows[:k])
			}
			if err != nil {
				return w.fail(fmt.Errorf("column %q: %w", w.schema[i].Name, err))
			}
		}
		w.pending += int64(k)
		rows = rows[k:]
		if w.pending == w.rgRows {
			if err := w.flush(); err != nil {
				return w.fail(err)
			}
		}
	}
	return nil
}

// append buffers rows of v.
func (c *wcol) append(v *columnar.Vector, rows []int) error {
	nulls := v.Type.ID == columnar.Null || v.Valid != nil
	if nulls {
		if !c.null {
			for _, r := range rows {
				if v.IsNull(r) {
					return errors.New("NULL in a NOT NULL column")
				}
			}
		}
	}
	if c.null {
		for _, r := range rows {
			if nulls && v.IsNull(r) {
				c.defs = append(c.defs, 0)
			} else {
				c.defs = append(c.defs, 1)
			}
		}
	}
	if v.Type.ID == columnar.Null {
		return nil
	}
	// live yields the rows holding a value; Const vectors read row 0.
	live := rows
	if v.Const || nulls {
		live = c.live[:0]
		for _, r := range rows {
			if v.Const {
				r = 0
			}
			if !nulls || !v.IsNull(r) {
				live = append(live, r)
			}
		}
		c.live = live
	}
	c.appendValues(v, live)
	return nil
}

// appendValues buffers the values of rows live of v, none of them NULL.
func (c *wcol) appendValues(v *columnar.Vector, live []int) {
	switch c.phys {
	case parquet.Types.Boolean:
		for _, r := range live {
			c.bools = append(c.bools, v.Bools[r])
		}
	case parquet.Types.Int32:
		for _, r := range live {
			c.i32 = append(c.i32, int32(v.Ints[r]))
		}
	case parquet.Types.Int64:
		if c.typ.ID == columnar.Uint64 {
			for _, r := range live {
				c.i64 = append(c.i64, int64(v.Uints[r]))
			}
		} else if c.typ.ID == columnar.Interval {
			// INT64 microseconds, a month as 30 days, as before INTERVAL had
			// months (FLBA(12) INTERVAL is for a later change).
			for _, r := range live {
				c.i64 = append(c.i64, v.IntervalAt(r).FoldedMicros())
			}
		} else if c.typ.ID == columnar.TimeTZ {
			for _, r := range live {
				c.i64 = append(c.i64, columnar.TimeTZUTC(v.Ints[r]))
			}
		} else if c.typ.ID == columnar.TimestampS {
			for _, r := range live { // written as MICROS (parquetNode)
				us, _ := columnar.UnitToMicros(c.typ, v.Ints[r])
				c.i64 = append(c.i64, us)
			}
		} else {
			for _, r := range live {
				c.i64 = append(c.i64, v.Ints[r])
			}
		}
	case parquet.Types.Float:
		for _, r := range live {
			c.f32 = append(c.f32, float32(v.Floats[r]))
		}
	case parquet.Types.Double:
		switch c.typ.ID {
		case columnar.Hugeint:
			for _, r := range live {
				c.f64 = append(c.f64, columnar.Int128FromKey(v.Bytes[r]).Float())
			}
		case columnar.Uhugeint:
			for _, r := range live {
				c.f64 = append(c.f64, columnar.WideFloat(v.Value(r)))
			}
		default:
			for _, r := range live {
				c.f64 = append(c.f64, v.Floats[r])
			}
		}
	case parquet.Types.FixedLenByteArray:
		// The vector's key has the sign bit flipped (columnar/int128.go);
		// Parquet's DECIMAL is plain big-endian two's complement.
		for _, r := range live {
			start := len(c.arena)
			c.arena = append(c.arena, v.Bytes[r][:16]...)
			if c.typ.ID != columnar.Uuid { // a UUID's bytes are Parquet's already
				c.arena[start] ^= 0x80
			}
			c.flba = append(c.flba, parquet.FixedLenByteArray(c.arena[start:len(c.arena):len(c.arena)]))
		}
	case parquet.Types.ByteArray:
		if c.typ.ID == columnar.Enum {
			for _, r := range live {
				start := len(c.arena)
				c.arena = append(c.arena, c.typ.EnumText(v.Ints[r])...)
				c.ba = append(c.ba, parquet.ByteArray(c.arena[start:len(c.arena):len(c.arena)]))
			}
			return
		}
		if c.typ.ID == columnar.Bit {
			for _, r := range live {
				start := len(c.arena)
				c.arena = columnar.AppendBit(c.arena, v.Bytes[r])
				c.ba = append(c.ba, parquet.ByteArray(c.arena[start:len(c.arena):len(c.arena)]))
			}
			return
		}
		for _, r := range live {
			start := len(c.arena)
			c.arena = append(c.arena, v.Bytes[r]...)
			// When the arena grows, earlier values keep the old buffer alive.
			c.ba = append(c.ba, parquet.ByteArray(c.arena[start:len(c.arena):len(c.arena)]))
		}
	}
}

// flush writes the buffered rows as one row group.
func (w *Writer) flush() (err error) {
	if w.pending == 0 {
		return nil
	}
	defer recoverCorrupt(&err)
	if w.fw == nil {
		if err := w.start(); err != nil {
			return err
		}
	}
	rgw, err := w.fw.AppendRowGroupChecked()
	if err != nil {
		return err
	}
	for i := range w.cols {
		c := &w.cols[i]
		cw, err := rgw.NextColumn()
		if err != nil {
			return err
		}
		var defs []int16
		if c.null {
			defs = c.defs
		}
		switch cw := cw.(type) {
		case *file.BooleanColumnChunkWriter:
			_, err = cw.WriteBatch(c.bools, defs, c.reps)
		case *file.Int32ColumnChunkWriter:
			_, err = cw.WriteBatch(c.i32, defs, c.reps)
		case *file.Int64ColumnChunkWriter:
			_, err = cw.WriteBatch(c.i64, defs, c.reps)
		case *file.Float32ColumnChunkWriter:
			_, err = cw.WriteBatch(c.f32, defs, c.reps)
		case *file.Float64ColumnChunkWriter:
			_, err = cw.WriteBatch(c.f64, defs, c.reps)
		case *file.ByteArrayColumnChunkWriter:
			_, err = cw.WriteBatch(c.ba, defs, c.reps)
		case *file.FixedLenByteArrayColumnChunkWriter:
			_, err = cw.WriteBatch(c.flba, defs, c.reps)
		default:
			err = fmt.Errorf("unexpected column writer %T", cw)
		}
		if err == nil {
			err = cw.Close()
		}
		if err != nil {
			return fmt.Errorf("column %q: %w", c.path, err)
		}
		if c.reps != nil {
			c.reps = c.reps[:0]
		}
		c.defs, c.bools, c.i32, c.i64 = c.defs[:0], c.bools[:0], c.i32[:0], c.i64[:0]
		c.f32, c.f64, c.ba, c.flba, c.arena = c.f32[:0], c.f64[:0], c.ba[:0], c.flba[:0], c.arena[:0]
	}
	w.pending = 0
	return rgw.Close()
}

// start creates the Parquet writer once the first row group is buffered,
// so that per-column encodings can be chosen from real data: a dictionary
// only for columns with few distinct values (a mostly-unique dictionary
// costs space and decode time, and arrow-go keeps dictionaries until they
// reach 1 MiB), and no Snappy for columns it cannot shrink (decompression
// is most of the decode time of plain numbers).
func (w *Writer) start() error {
	pp := []parquet.WriterProperty{
		parquet.WithCompression(w.codec),
		parquet.WithDictionaryDefault(!w.opts.NoDictionary),
		parquet.WithStats(true),
		parquet.WithPageIndexEnabled(true),
		parquet.WithMaxRowGroupLength(w.rgRows),
		parquet.WithCreatedBy("b2sql"),
		parquet.WithDataPageSize(dataPageBytes),
		parquet.WithMaxBloomFilterBytes(bloomMaxBytes),
	}
	for i := range w.cols {
		c := &w.cols[i]
		name := c.path
		dict := !w.opts.NoDictionary && c.fewDistinct()
		for _, n := range w.opts.NoDictionaryFor {
			if lower(n) == lower(name) {
				dict = false
			}
		}
		pp = append(pp, parquet.WithDictionaryFor(name, dict))
		delta := !dict && c.deltaPays()
		if !w.opts.NoBloomFilters && c.bloomPays(delta) {
			pp = append(pp, parquet.WithBloomFilterEnabledFor(name, true),
				parquet.WithBloomFilterNDVFor(name, c.bloomNDV(dict, w.rgRows)),
				parquet.WithBloomFilterFPPFor(name, bloomFPP))
		}
		if delta {
			pp = append(pp, parquet.WithEncodingFor(name, parquet.Encodings.DeltaBinaryPacked),
				parquet.WithCompressionFor(name, compress.Codecs.Uncompressed))
		} else if w.codec == compress.Codecs.Snappy && !dict && !c.compressible() {
			pp = append(pp, parquet.WithCompressionFor(name, compress.Codecs.Uncompressed))
		}
		c.dict = dict
	}
	fw, err := file.NewParquetWriterWithError(w.buf, w.root, file.WithWriterProps(parquet.NewWriterProperties(pp...)))
	if err != nil {
		return err
	}
	w.fw = fw
	return nil
}

// Pages and bloom filters. Data pages of 64 KiB (arrow-go's default is 1
// MiB) give the page index a grain of about 8,000 plain 8-byte values, so
// that `WHERE id = x` decodes one page per column, not the row group; the
// per-page cost (a header, a page index entry) stays under 0.1%.
//
// Bloom filters are sized for bloomFPP at the distinct values a chunk can
// hold (bloomNDV), at most bloomMaxBytes: a row group of 122,880 distinct
// values gets 128 KiB, about 2% false positives. They cost about 20% more
// CPU and 9% more bytes when writing (BenchmarkWriterBloom).
const (
	dataPageBytes = 64 << 10
	bloomFPP      = 0.01
	bloomMaxBytes = 128 << 10
)

// bloomPays reports whether a bloom filter helps equality lookups on the
// column: integers and strings (what `=` and IN look up), except sorted or
// smooth integers written with DELTA encoding, whose min/max and page index
// already locate any value. Floats (equality on them is rare), booleans
// (two values) and the leaves of nested columns (the reader probes bloom
// filters of flat columns only) get none.
func (c *wcol) bloomPays(delta bool) bool {
	if delta || c.nested || c.typ.ID == columnar.Null {
		return false
	}
	switch c.phys {
	case parquet.Types.Int32, parquet.Types.Int64, parquet.Types.ByteArray:
		return true
	}
	return false
}

// Dictionary thresholds: at most one distinct value in dictDivisor, and
// at most dictMaxBytes of distinct values.
const (
	dictDivisor  = 8
	dictMaxBytes = 256 << 10
	sampleBytes  = 256 << 10
)

// fewDistinct reports whether the buffered values are worth a dictionary.
// Counting stops as soon as the answer is no, so unique columns cost
// little.
func (c *wcol) fewDistinct() bool {
	switch c.phys {
	case parquet.Types.Int32:
		return fewDistinct(c.i32, 4)
	case parquet.Types.Int64:
		return fewDistinct(c.i64, 8)
	case parquet.Types.Float:
		return fewDistinct(c.f32, 4)
	case parquet.Types.Double:
		return fewDistinct(c.f64, 8)
	case parquet.Types.ByteArray:
		limit := max(64, len(c.ba)/dictDivisor)
		seen := make(map[string]struct{}, min(limit, len(c.ba)))
		size := 0
		for _, v := range c.ba {
			if _, ok := seen[string(v)]; ok {
				continue
			}
			seen[string(v)] = struct{}{}
			size += len(v) + 4
			if len(seen) > limit || size > dictMaxBytes {
				return false
			}
		}
		return true
	}
	return false // BOOLEAN has no dictionary encoding
}

func fewDistinct[T comparable](vals []T, width int) bool {
	limit := min(max(64, len(vals)/dictDivisor), dictMaxBytes/width)
	seen := make(map[T]struct{}, min(limit, len(vals)))
	for _, v := range vals {
		seen[v] = struct{}{}
		if len(seen) > limit {
			return false
		}
	}
	return true
}

// deltaPays reports whether DELTA_BINARY_PACKED would take at most half
// the plain size of an integer column: true for sorted or smooth columns
// (ids, timestamps), whose deltas need few bits. Such columns are then
// written uncompressed, since delta decoding is several times faster than
// Snappy plus plain and the result is already small.
func (c *wcol) deltaPays() bool {
	switch c.phys {
	case parquet.Types.Int32:
		return deltaBits(c.i32)*2 <= 32*len(c.i32) && len(c.i32) >= 64
	case parquet.Types.Int64:
		return deltaBits(c.i64)*2 <= 64*len(c.i64) && len(c.i64) >= 64
	}
	return false
}

// deltaBits estimates the bits DELTA_BINARY_PACKED spends on vals: each
// miniblock of 32 deltas is packed at the width of its delta range.
func deltaBits[T int32 | int64](vals []T) int {
	total := 0
	for start := 1; start < len(vals); start += 32 {
		end := min(start+32, len(vals))
		lo, hi := int64(vals[start])-int64(vals[start-1]), int64(vals[start])-int64(vals[start-1])
		for k := start + 1; k < end; k++ {
			d := int64(vals[k]) - int64(vals[k-1])
			lo, hi = min(lo, d), max(hi, d)
		}
		total += 32 * bits.Len64(uint64(hi-lo))
	}
	return total
}

// compressible reports whether Snappy shrinks a sample of the column's
// plain encoding by at least 15%.
func (c *wcol) compressible() bool {
	var sample []byte
	switch c.phys {
	case parquet.Types.Boolean:
		return true // bit-packed already; tiny either way
	case parquet.Types.Int32:
		sample = rawBytes(c.i32)
	case parquet.Types.Int64:
		sample = rawBytes(c.i64)
	case parquet.Types.Float:
		sample = rawBytes(c.f32)
	case parquet.Types.Double:
		sample = rawBytes(c.f64)
	case parquet.Types.ByteArray:
		for _, v := range c.ba {
			if len(sample) >= sampleBytes {
				break
			}
			sample = binary.LittleEndian.AppendUint32(sample, uint32(len(v)))
			sample = append(sample, v...)
		}
	}
	if len(sample) > sampleBytes {
		sample = sample[:sampleBytes]
	}
	if len(sample) < 1024 {
		return true
	}
	return len(snappy.Encode(nil, sample)) < len(sample)*85/100
}

// rawBytes views fixed-width values as bytes: their plain encoding on
// little-endian machines, a good enough sample elsewhere.
func rawBytes[T int32 | int64 | float32 | float64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// fail records the first error; Close then removes the temporary file.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = fmt.Errorf("parquet: %s: %w", w.path, err)
	}
	return w.err
}

// Close flushes the last row group, writes the footer and renames the
// temporary file over the destination. After an earlier error it removes
// the temporary file and returns that error. It is safe to call twice.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err == nil {
		if err := w.flush(); err != nil {
			w.fail(err)
		}
	}
	if w.err == nil && w.fw == nil {
		// No rows at all: still a valid file with the schema.
		if err := w.start(); err != nil {
			w.fail(err)
		}
	}
	if w.err == nil {
		if err := w.fw.Close(); err != nil {
			w.fail(err)
		}
	}
	if w.err == nil {
		if err := w.buf.Flush(); err != nil {
			w.fail(err)
		}
	}
	if w.err == nil {
		if err := w.tmp.Sync(); err != nil {
			w.fail(err)
		}
	}
	if err := w.tmp.Close(); err != nil && w.err == nil {
		w.fail(err)
	}
	if w.err == nil {
		if err := fsmode.Publish(w.tmp.Name(), w.path); err != nil {
			w.fail(err)
		}
	}
	if w.err == nil {
		if err := os.Rename(w.tmp.Name(), w.path); err != nil {
			w.fail(err)
		}
	}
	if w.err != nil {
		os.Remove(w.tmp.Name())
	}
	return w.err
}

// Abort discards the write: the temporary file is removed and the
// destination is left untouched.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.fail(errors.New("write aborted"))
	w.Close()
}

// bloomNDV is the number of distinct values a column chunk's bloom filter
// is sized for: the rows of a row group, or for a dictionary column (which
// has at most one distinct value in dictDivisor rows) that share of them.
func (c *wcol) bloomNDV(dict bool, rgRows int64) int64 {
	if dict {
		return max(64, rgRows/dictDivisor)
	}
	return rgRows
}
