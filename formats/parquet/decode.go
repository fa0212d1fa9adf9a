package parquet

import (
	"encoding/binary"
	"math"
	"math/big"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// decoder reads one column chunk into vectors, batch after batch. It owns
// scratch buffers reused across batches and row groups, so that steady
// state decoding allocates nothing per value (byte payloads are copied into
// the batch's arena, one growth at most per page run).
type decoder struct {
	c    *column
	rdr  file.ColumnChunkReader
	defs []int16
	i32  []int32
	f32  []float32
	i96  []parquet.Int96
	ba   []parquet.ByteArray
	fl   []parquet.FixedLenByteArray

	// codes: the consumer accepts dictionary codes for this column
	// (ScanSpec.WantsCodes); dictOK: the DictCodes rule is on, so
	// dictionary-encoded numeric chunks may be gathered by codeReader
	// (dictfixed.go); coded: the current chunk is read by cr, not rdr.
	codes  bool
	dictOK bool
	coded  bool
	cr     codeReader
	// nr reads a nested column (c.nested != nil) instead of rdr or cr,
	// of row group rg (set by the caller before open).
	nr nestedReader
	rg int
}

// want records what the scan spec allows for output column i.
func (d *decoder) want(spec index.ScanSpec, i int) {
	d.codes = spec.WantsCodes(i)
	d.dictOK = spec.On(index.DictCodes)
}

// open starts reading the column chunk cc (leaf column leaf of rgr): as
// codes when the consumer accepts them and the chunk has a dictionary page
// (reported by coded), a dictionary-encoded numeric chunk by gathering
// from its converted dictionary, integers without a dictionary but with
// DELTA_BINARY_PACKED pages by codeReader's delta decoder (delta.go),
// anything else through arrow-go's typed reader.
func (d *decoder) open(pf *pqFile, rgr *file.RowGroupReader, cc *metadata.ColumnChunkMetaData, leaf int) (coded bool, err error) {
	if d.c.nested != nil {
		return false, d.nr.open(pf, d.rg, d.c)
	}
	if d.useCodeReader(cc) {
		pages, err := openPages(pf, rgr, leaf)
		if err != nil {
			return false, err
		}
		d.cr.reset(pages, d.c, cc.NumValues(), cc.HasDictionaryPage(), rgr.MetaData().Schema.Column(leaf).MaxDefinitionLevel())
		d.coded = true
		return d.wantsStrCodes() && cc.HasDictionaryPage(), nil
	}
	d.coded = false
	d.rdr, _, err = openColumn(pf, rgr, leaf)
	return false, err
}

// wantsStrCodes reports whether the column is read as dictionary codes of
// strings when its chunk has a dictionary.
func (d *decoder) wantsStrCodes() bool {
	return d.codes && d.c.kind == kBytes && d.c.phys == parquet.Types.ByteArray
}

// useCodeReader reports whether chunk cc goes through codeReader: string
// codes or numbers gathered from a dictionary where the dictionary exists
// and codes are allowed; where none exists, numbers and booleans whose
// every page encoding codeReader decodes (PLAIN, DELTA_BINARY_PACKED
// integers, RLE booleans; ownPages).
func (d *decoder) useCodeReader(cc *metadata.ColumnChunkMetaData) bool {
	if cc.HasDictionaryPage() {
		return d.wantsStrCodes() || (d.dictOK && fixedWidth(d.c) > 0)
	}
	return ownPages(d.c, cc.Encodings())
}

// ownPages reports whether codeReader decodes every data page of a chunk
// of column c without a dictionary whose metadata lists encs: c is a
// number (fixedWidth) or a BOOLEAN, and encs holds no encoding but PLAIN,
// the level encodings, DELTA_BINARY_PACKED for integers and RLE for
// booleans; or c is a BYTE_ARRAY read as bytes with PLAIN pages only
// (plainBytes). A page of another encoding in such a chunk (a lying list)
// is reported as corrupt.
func ownPages(c *column, encs []parquet.Encoding) bool {
	if ownDecoder && plainBytes(c, encs) {
		return true
	}
	isBool := boolPages(c)
	if !ownDecoder || (fixedWidth(c) == 0 && !isBool) {
		return false
	}
	delta := false
	for _, e := range encs {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.RLE, parquet.Encodings.BitPacked:
		case parquet.Encodings.DeltaBinaryPacked:
			if !deltaInts(c) {
				return false
			}
			delta = true
		default:
			return false
		}
	}
	return !delta || deltaDecoder
}

// ownDecoder routes dictionary-less number and boolean chunks to
// codeReader, and deltaDecoder those with DELTA_BINARY_PACKED pages.
// Variables only so that BenchmarkScanDelta and BenchmarkScanPlain can
// compare with arrow-go's decoders.
var ownDecoder, deltaDecoder = true, true

// close ends the current chunk (safe when none is open).
func (d *decoder) close() {
	d.nr.close()
	if d.rdr != nil {
		d.rdr.Close()
		d.rdr = nil
	}
	if d.coded {
		d.cr.close()
		d.coded = false
	}
}

// julianUnixEpoch is the Julian day number of 1970-01-01, the origin of the
// day field of INT96 timestamps.
const julianUnixEpoch = 2_440_588

// read decodes the next n rows of the chunk into v, whose payload has room
// for n rows (v.Reset(n) done by the caller). validBuf is reusable bitmap
// storage and arena the batch's byte arena; both are returned grown. It
// returns the number of rows decoded, which is less than n only at the end
// of the chunk.
func (d *decoder) read(v *columnar.Vector, n int, validBuf columnar.Bitmap, arena []byte) (rows int, _ columnar.Bitmap, _ []byte, err error) {
	rows, validBuf, arena, err = d.readRaw(v, n, validBuf, arena)
	if d.c.tz && err == nil {
		// UTC-adjusted TIME: microseconds to TIMETZ keys at +00 (under a
		// NULL the payload is garbage, converted harmlessly).
		for i, us := range v.Ints[:rows] {
			v.Ints[i] = columnar.TimeTZKey(us, 0)
		}
	}
	return rows, validBuf, arena, err
}

// readRaw is read without the TIMETZ conversion.
func (d *decoder) readRaw(v *columnar.Vector, n int, validBuf columnar.Bitmap, arena []byte) (rows int, _ columnar.Bitmap, _ []byte, err error) {
	if d.c.nested != nil {
		rows, err = d.nr.read(v, n)
		return rows, validBuf, arena, err
	}
	if d.coded {
		switch {
		case fixedPages(d.c):
			rows, validBuf, err = d.cr.readFixed(v, n, validBuf, nil)
		case d.cr.copiesBytes():
			rows, validBuf, arena, err = d.cr.readCopied(v, n, validBuf, arena)
		default:
			rows, validBuf, err = d.cr.read(v, n, validBuf)
		}
		if err != nil {
			return 0, validBuf, arena, asCorrupt(err)
		}
		return rows, validBuf, arena, nil
	}
	var defs []int16
	if d.c.maxDef > 0 {
		d.defs = grow(d.defs, n)
		defs = d.defs[:n]
	}
	var total int64
	var nv int
	ok := true
	switch d.c.kind {
	case kBool:
		total, nv, err = d.rdr.(*file.BooleanColumnChunkReader).ReadBatch(int64(n), v.Bools[:n], defs, nil)
		if err == nil {
			validBuf, ok = scatter(v, v.Bools[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kInt64:
		total, nv, err = d.rdr.(*file.Int64ColumnChunkReader).ReadBatch(int64(n), v.Ints[:n], defs, nil)
		if err == nil {
			convertUnits(v.Ints[:nv], d.c.mul, d.c.div)
			validBuf, ok = scatter(v, v.Ints[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kUint64:
		// UINT64 is stored as INT64 bits: decode straight into the uint64
		// payload viewed as int64, which is the same memory layout.
		u := v.Uints[:n]
		asInt := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(u))), len(u))
		total, nv, err = d.rdr.(*file.Int64ColumnChunkReader).ReadBatch(int64(n), asInt, defs, nil)
		if err == nil {
			validBuf, ok = scatter(v, u, defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kInt32, kUint32:
		d.i32 = grow(d.i32, n)
		total, nv, err = d.rdr.(*file.Int32ColumnChunkReader).ReadBatch(int64(n), d.i32[:n], defs, nil)
		if err == nil {
			out := v.Ints[:nv]
			src := d.i32[:nv]
			switch {
			case d.c.kind == kUint32:
				for i, x := range src {
					out[i] = int64(uint32(x))
				}
			case d.c.mul != 1:
				for i, x := range src {
					out[i] = int64(x) * d.c.mul
				}
			default:
				for i, x := range src {
					out[i] = int64(x)
				}
			}
			validBuf, ok = scatter(v, v.Ints[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kFloat64:
		total, nv, err = d.rdr.(*file.Float64ColumnChunkReader).ReadBatch(int64(n), v.Floats[:n], defs, nil)
		if err == nil {
			validBuf, ok = scatter(v, v.Floats[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kFloat32:
		d.f32 = grow(d.f32, n)
		total, nv, err = d.rdr.(*file.Float32ColumnChunkReader).ReadBatch(int64(n), d.f32[:n], defs, nil)
		if err == nil {
			out := v.Floats[:nv]
			for i, x := range d.f32[:nv] {
				out[i] = float64(x)
			}
			validBuf, ok = scatter(v, v.Floats[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kInt96:
		d.i96 = grow(d.i96, n)
		total, nv, err = d.rdr.(*file.Int96ColumnChunkReader).ReadBatch(int64(n), d.i96[:n], defs, nil)
		if err == nil {
			out := v.Ints[:nv]
			for i := range d.i96[:nv] {
				out[i] = int96Micros(&d.i96[i])
			}
			validBuf, ok = scatter(v, v.Ints[:n], defs, d.c.maxDef, int(total), nv, validBuf)
		}
	case kBytes, kFixed, kDecBytes, kDecBytesF, kDecBytesW, kHalf:
		total, nv, arena, err = d.readBytes(v, n, defs, arena)
		if err == nil {
			switch d.c.kind {
			case kDecBytes:
				validBuf, ok = scatter(v, v.Ints[:n], defs, d.c.maxDef, int(total), nv, validBuf)
			case kDecBytesF, kHalf:
				validBuf, ok = scatter(v, v.Floats[:n], defs, d.c.maxDef, int(total), nv, validBuf)
			default:
				validBuf, ok = scatter(v, v.Bytes[:n], defs, d.c.maxDef, int(total), nv, validBuf)
			}
		}
	}
	if err != nil {
		return 0, validBuf, arena, asCorrupt(err)
	}
	if !ok || nv > int(total) || (defs == nil && nv != int(total)) {
		return 0, validBuf, arena, corruptf("%d values for %d rows whose definition levels say otherwise", nv, total)
	}
	return int(total), validBuf, arena, nil
}

// readBytes decodes variable-width values page by page. Values returned by
// ReadBatchInPage alias the page (or dictionary) buffer, which arrow-go
// reuses for the next page, so each page's run is consumed (copied into the
// arena, or converted) before the next page is read. This avoids
// ReadBatch's clone, which allocates a fresh buffer on every call.
func (d *decoder) readBytes(v *columnar.Vector, n int, defs []int16, arena []byte) (total int64, nv int, _ []byte, err error) {
	for int(total) < n {
		var dl []int16
		if defs != nil {
			dl = defs[total:n]
		}
		var lv int64
		var got int
		if d.c.phys == parquet.Types.FixedLenByteArray {
			d.fl = grow(d.fl, n)
			lv, got, err = d.rdr.(*file.FixedLenByteArrayColumnChunkReader).ReadBatchInPage(int64(n)-total, d.fl[:n-int(total)], dl, nil)
			if err == nil {
				arena, err = d.consume(v, nv, asBytes(d.fl[:got]), arena)
			}
		} else {
			d.ba = grow(d.ba, n)
			lv, got, err = d.rdr.(*file.ByteArrayColumnChunkReader).ReadBatchInPage(int64(n)-total, d.ba[:n-int(total)], dl, nil)
			if err == nil {
				arena, err = d.consume(v, nv, asBytes(d.ba[:got]), arena)
			}
		}
		if err != nil {
			return 0, 0, arena, err
		}
		if lv == 0 {
			break
		}
		total += lv
		nv += got
	}
	return total, nv, arena, nil
}

// asBytes views a slice of a named []byte type as [][]byte (same layout).
func asBytes[T ~[]byte](s []T) [][]byte {
	return unsafe.Slice((*[]byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// consume moves freshly decoded values into the vector's payload starting
// at slot off.
func (d *decoder) consume(v *columnar.Vector, off int, vals [][]byte, arena []byte) ([]byte, error) {
	got := len(vals)
	switch d.c.kind {
	case kDecBytes:
		out := v.Ints[off : off+got]
		for i := range out {
			x, ok := beInt64(vals[i])
			if !ok {
				return arena, corruptf("decimal of %d bytes overflows int64", len(vals[i]))
			}
			out[i] = x
		}
		return arena, nil
	case kDecBytesW:
		out := v.Bytes[off : off+got]
		if cap(arena)-len(arena) < 16*got {
			arena = make([]byte, 0, max(2*cap(arena), 16*got, 4096))
		}
		for i, b := range vals {
			start := len(arena)
			if len(b) == 16 {
				// DECIMAL(38)'s FLBA(16) already is the key's big-endian
				// two's complement: flip the sign bit.
				arena = append(arena, b...)
				arena[start] ^= 0x80
			} else {
				x, ok := beInt128(b)
				if !ok {
					return arena, corruptf("decimal of %d bytes overflows 128 bits", len(b))
				}
				arena = columnar.AppendInt128Key(arena, x)
			}
			out[i] = arena[start:len(arena):len(arena)]
		}
		return arena, nil
	case kHalf:
		out := v.Floats[off : off+got]
		for i, b := range vals {
			if len(b) != 2 {
				return arena, corruptf("FLOAT16 of %d bytes", len(b))
			}
			out[i] = halfFloat(uint16(b[0]) | uint16(b[1])<<8)
		}
		return arena, nil
	case kDecBytesF:
		out := v.Floats[off : off+got]
		scale := math.Pow10(d.c.scale)
		for i := range out {
			out[i] = beFloat(vals[i]) / scale
		}
		return arena, nil
	}
	size := 0
	for _, b := range vals {
		size += len(b)
	}
	if cap(arena)-len(arena) < size {
		// Earlier values keep pointing into the old buffer, which stays
		// alive through them; only new values go to the new one.
		arena = make([]byte, 0, max(2*cap(arena), size, 4096))
	}
	out := v.Bytes[off : off+got]
	for i, b := range vals {
		start := len(arena)
		arena = append(arena, b...)
		out[i] = arena[start:len(arena):len(arena)]
	}
	return arena, nil
}

// scatter spreads nv dense values over total rows according to definition
// levels (in place, back to front) and sets v.Valid. With no NULLs it only
// clears v.Valid. NULL slots are zeroed so that stale byte slices never
// outlive their batch through a NULL row. ok is false, and v untouched,
// when the levels define more or fewer rows than nv (a page whose values
// run out before its levels: arrow-go returns the values it has).
func scatter[T any](v *columnar.Vector, vals []T, defs []int16, maxDef int16, total, nv int, validBuf columnar.Bitmap) (_ columnar.Bitmap, ok bool) {
	if nv == total {
		v.Valid = nil
		return validBuf, true
	}
	defined := 0
	for _, d := range defs[:total] {
		if d == maxDef {
			defined++
		}
	}
	if defined != nv {
		return validBuf, false
	}
	validBuf = validBuf.Resize(total)
	var zero T
	j := nv - 1
	vals = vals[:total]
	defs = defs[:total]
	for i := total - 1; i >= 0; i-- {
		if defs[i] == maxDef {
			vals[i] = vals[j]
			j--
		} else {
			vals[i] = zero
			validBuf[i>>6] &^= 1 << (uint(i) & 63)
		}
	}
	v.Valid = validBuf
	return validBuf, true
}

// int96Micros converts a legacy INT96 timestamp (nanoseconds of the day,
// then a Julian day, little endian) to microseconds since the Unix epoch.
func int96Micros(x *parquet.Int96) int64 {
	nanos := int64(binary.LittleEndian.Uint64(x[:8]))
	days := int64(binary.LittleEndian.Uint32(x[8:])) - julianUnixEpoch
	return days*columnar.MicrosPerDay + convInt(nanos, 1, 1000)
}

// beFloat converts a big-endian two's complement integer of any width to
// the nearest float64 (for DECIMALs wider than 18 digits).
func beFloat(b []byte) float64 {
	if x, ok := beInt64(b); ok {
		return float64(x)
	}
	var z big.Int
	z.SetBytes(b)
	if b[0]&0x80 != 0 {
		// Subtract 2^(8·len) to undo two's complement.
		var m big.Int
		m.Lsh(big.NewInt(1), uint(8*len(b)))
		z.Sub(&z, &m)
	}
	f, _ := new(big.Float).SetInt(&z).Float64()
	return f
}

// shortChunk is the error of a column chunk whose pages end before row
// want: arrow-go's readers report a page they could not read (a bad page
// header, a failed decompression) as the end of the chunk, and keep why
// in Err, which the error quotes.
func (d *decoder) shortChunk(got, want int64) error {
	var why error
	switch {
	case d.coded && d.cr.pages != nil:
		why = d.cr.pages.Err()
	case !d.coded && d.rdr != nil:
		why = d.rdr.Err()
	}
	if why != nil {
		return corruptf("column chunk ends after %d of %d rows: %v", got, want, why)
	}
	return corruptf("column chunk ends after %d of %d rows", got, want)
}

// beInt128 reads a big-endian two's complement integer of any length that
// fits 128 bits (longer inputs only by sign extension).
func beInt128(b []byte) (columnar.Int128, bool) {
	if len(b) == 0 {
		return columnar.Int128{}, true
	}
	neg := b[0]&0x80 != 0
	for len(b) > 16 {
		if (neg && b[0] != 0xff) || (!neg && b[0] != 0) {
			return columnar.Int128{}, false
		}
		b = b[1:]
	}
	var hi, lo uint64
	if neg {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, c := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	x := columnar.Int128{Hi: int64(hi), Lo: lo}
	return x, (x.Hi < 0) == neg
}

// halfFloat is the value of an IEEE 754 half-precision number (Parquet's
// FLOAT16: sign bit, 5 exponent bits biased by 15, 10 fraction bits).
func halfFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0: // zero and subnormals: frac · 2^-24
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}
