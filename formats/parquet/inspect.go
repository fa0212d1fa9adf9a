package parquet

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// Inspection: DuckDB's table functions that show a Parquet file's footer
// rather than its rows. Inspect answers them from the footers the table
// already read, one row per column chunk (parquet_metadata), schema element
// (parquet_schema), file (parquet_file_metadata) or key/value pair
// (parquet_kv_metadata), with DuckDB 1.5's columns. Statistics are shown
// as values of the type the column reads as, as DuckDB shows them; the
// deprecated min/max fields and min_value/max_value are not told apart
// (arrow-go decodes whichever the file has), so stats_min and
// stats_min_value agree. GEOMETRY columns are no type here: geo_bbox and
// geo_types are NULL.

// InspectFuncs are the table functions Inspect answers.
var InspectFuncs = map[string]bool{
	"parquet_metadata": true, "parquet_schema": true, "parquet_file_metadata": true, "parquet_kv_metadata": true,
}

// Inspect returns the schema and rows of the inspection table function fn
// over the table's files.
func (t *Table) Inspect(fn string) (columnar.Schema, [][]columnar.Value, error) {
	var schema columnar.Schema
	var each func(pf *pqFile) ([][]columnar.Value, error)
	switch fn {
	case "parquet_metadata":
		schema, each = metadataColumns, chunkRows
	case "parquet_schema":
		schema, each = schemaColumns, schemaRows
	case "parquet_file_metadata":
		schema, each = fileColumns, fileRows
	case "parquet_kv_metadata":
		schema, each = kvColumns, kvRows
	default:
		return nil, nil, fmt.Errorf("parquet: no inspection function %q", fn)
	}
	var rows [][]columnar.Value
	for _, pf := range t.files {
		r, err := each(pf)
		if err != nil {
			return nil, nil, fmt.Errorf("parquet: %s: %w", pf.path, err)
		}
		rows = append(rows, r...)
	}
	return schema, rows, nil
}

var (
	tVarchar, tBigint, tBool, tBlob = columnar.TVarchar, columnar.TInt64, columnar.TBool, columnar.TBlob
	geoBox                          = columnar.StructOf(geoFields()...)
)

func geoFields() []columnar.Field {
	var fs []columnar.Field
	for _, n := range []string{"xmin", "xmax", "ymin", "ymax", "zmin", "zmax", "mmin", "mmax"} {
		fs = append(fs, columnar.Field{Name: n, Type: columnar.TFloat64})
	}
	return fs
}

func fields(spec ...any) columnar.Schema {
	var s columnar.Schema
	for i := 0; i < len(spec); i += 2 {
		s = append(s, columnar.Field{Name: spec[i].(string), Type: spec[i+1].(columnar.Type), Nullable: true})
	}
	return s
}

var metadataColumns = fields(
	"file_name", tVarchar, "row_group_id", tBigint, "row_group_num_rows", tBigint,
	"row_group_num_columns", tBigint, "row_group_bytes", tBigint, "column_id", tBigint,
	"file_offset", tBigint, "num_values", tBigint, "path_in_schema", tVarchar, "type", tVarchar,
	"stats_min", tVarchar, "stats_max", tVarchar, "stats_null_count", tBigint,
	"stats_distinct_count", tBigint, "stats_min_value", tVarchar, "stats_max_value", tVarchar,
	"compression", tVarchar, "encodings", tVarchar, "index_page_offset", tBigint,
	"dictionary_page_offset", tBigint, "data_page_offset", tBigint, "total_compressed_size", tBigint,
	"total_uncompressed_size", tBigint, "key_value_metadata", columnar.MapOf(tBlob, tBlob),
	"bloom_filter_offset", tBigint, "bloom_filter_length", tBigint, "min_is_exact", tBool,
	"max_is_exact", tBool, "row_group_compressed_bytes", tBigint, "geo_bbox", geoBox,
	"geo_types", columnar.ListOf(tVarchar),
)

func str(s string) columnar.Value { return columnar.StringValue(s) }
func num(v int64) columnar.Value  { return columnar.IntValue(tBigint, v) }
func null(t columnar.Type) columnar.Value {
	return columnar.NullValue(t)
}

// numIf is v, or NULL when has is false.
func numIf(v int64, has bool) columnar.Value {
	if !has {
		return null(tBigint)
	}
	return num(v)
}

func chunkRows(pf *pqFile) ([][]columnar.Value, error) {
	meta := pf.meta
	var rows [][]columnar.Value
	for rg := range meta.NumRowGroups() {
		rgm := meta.RowGroup(rg)
		for j := range rgm.NumColumns() {
			cc, err := rgm.ColumnChunk(j)
			if err != nil {
				return nil, fmt.Errorf("row group %d column %d: %w", rg, j, err)
			}
			st := chunkStatsOf(meta, rg, j)
			var encs []string
			for _, e := range cc.Encodings() {
				encs = append(encs, e.String())
			}
			bloomOff, bloomLen := cc.BloomFilterOffset(), int64(cc.BloomFilterLength())
			rows = append(rows, []columnar.Value{
				str(pf.path), num(int64(rg)), num(rgm.NumRows()), num(int64(rgm.NumColumns())),
				num(rgm.TotalByteSize()), num(int64(j)), num(cc.FileOffset()), num(cc.NumValues()),
				str(strings.Join(cc.PathInSchema(), ", ")), str(cc.Type().String()),
				st.min, st.max, st.nulls, st.distinct, st.minValue, st.maxValue,
				str(cc.Compression().String()), str(strings.Join(encs, ", ")),
				numIf(cc.IndexPageOffset(), cc.HasIndexPage()),
				numIf(cc.DictionaryPageOffset(), cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0),
				num(cc.DataPageOffset()), num(cc.TotalCompressedSize()), num(cc.TotalUncompressedSize()),
				{Type: metadataColumns[23].Type, Elems: []columnar.Value{}}, // no per-chunk key/value metadata is read: {}
				numIf(bloomOff, bloomOff > 0), numIf(bloomLen, bloomOff > 0 && bloomLen > 0),
				st.minExact, st.maxExact, numIf(rgm.TotalCompressedSize(), rgm.TotalCompressedSize() > 0),
				null(geoBox), null(columnar.ListOf(tVarchar)),
			})
		}
	}
	return rows, nil
}

// footerStats is what a chunk's statistics show: the deprecated min/max
// and min_value/max_value as text of the type leaf j reads as (NULL where
// the file has none: arrow-go writes only the new ones for strings), the
// null and distinct counts and the exactness flags, from the footer's own
// fields.
type footerStats struct {
	min, max, minValue, maxValue, nulls, distinct, minExact, maxExact columnar.Value
}

func chunkStatsOf(meta *metadata.FileMetaData, rg, j int) footerStats {
	out := footerStats{min: null(tVarchar), max: null(tVarchar), minValue: null(tVarchar), maxValue: null(tVarchar),
		nulls: null(tBigint), distinct: null(tBigint), minExact: null(tBool), maxExact: null(tBool)}
	rgs := meta.FileMetaData.RowGroups
	if rg >= len(rgs) || j >= len(rgs[rg].Columns) || rgs[rg].Columns[j].MetaData == nil {
		return out
	}
	st := rgs[rg].Columns[j].MetaData.Statistics
	if st == nil {
		return out
	}
	if st.NullCount != nil {
		out.nulls = num(*st.NullCount)
	}
	if st.DistinctCount != nil {
		out.distinct = num(*st.DistinctCount)
	}
	if st.IsMinValueExact != nil {
		out.minExact = columnar.BoolValue(*st.IsMinValueExact)
	}
	if st.IsMaxValueExact != nil {
		out.maxExact = columnar.BoolValue(*st.IsMaxValueExact)
	}
	descr := meta.Schema.Column(j)
	c, err := mapColumn(descr)
	if err != nil {
		return out
	}
	text := func(b []byte, isMin bool) columnar.Value {
		if b == nil || !boundFits(descr, b) {
			return null(tVarchar)
		}
		p := rawBound{b: b, min: isMin}
		ts := metadata.NewStatisticsFromEncoded(descr, memory.DefaultAllocator, 1, p)
		if ts == nil || !ts.HasMinMax() {
			return null(tVarchar)
		}
		lo, hi, ok := statValues(ts, &c)
		if !ok {
			if d, isDec := descr.LogicalType().(schema.DecimalLogicalType); isDec && (c.kind == kDecBytesW || c.kind == kDecBytesF) {
				return str(decimalText(b, int(d.Scale())))
			}
			return null(tVarchar)
		}
		if isMin {
			return str(lo.String())
		}
		return str(hi.String())
	}
	out.min, out.max = text(st.Min, true), text(st.Max, false)
	out.minValue, out.maxValue = text(st.MinValue, true), text(st.MaxValue, false)
	return out
}

// rawBound hands one encoded statistics bound to arrow-go's decoder, as
// both min and max (it decodes only a complete pair).
type rawBound struct {
	b   []byte
	min bool
}

func (r rawBound) GetMin() []byte           { return r.b }
func (r rawBound) GetMax() []byte           { return r.b }
func (r rawBound) GetNullCount() int64      { return 0 }
func (r rawBound) GetDistinctCount() int64  { return 0 }
func (r rawBound) IsSetMax() bool           { return true }
func (r rawBound) IsSetMin() bool           { return true }
func (r rawBound) IsSetNullCount() bool     { return false }
func (r rawBound) IsSetDistinctCount() bool { return false }

var schemaColumns = fields(
	"file_name", tVarchar, "name", tVarchar, "type", tVarchar, "type_length", tVarchar,
	"repetition_type", tVarchar, "num_children", tBigint, "converted_type", tVarchar,
	"scale", tBigint, "precision", tBigint, "field_id", tBigint, "logical_type", tVarchar,
	"duckdb_type", tVarchar, "column_id", tBigint,
)

// schemaRows lists the schema's elements as the footer stores them (depth
// first, the root first), each field as the file wrote it: a logical type
// only where the file has one (arrow-go's nodes derive it from converted
// types), beside the type the element reads as here (DuckDB's
// duckdb_type, for leaves).
func schemaRows(pf *pqFile) ([][]columnar.Value, error) {
	sc := pf.meta.Schema
	var nodes []schema.Node // the same elements, decoded
	var walk func(n schema.Node)
	walk = func(n schema.Node) {
		nodes = append(nodes, n)
		if g, ok := n.(*schema.GroupNode); ok {
			for i := range g.NumFields() {
				walk(g.Field(i))
			}
		}
	}
	walk(sc.Root())
	elems := pf.meta.FileMetaData.Schema
	if len(elems) != len(nodes) {
		return nil, fmt.Errorf("schema of %d elements decoded as %d", len(elems), len(nodes))
	}
	opt := func(p *int32) columnar.Value {
		if p == nil {
			return null(tBigint)
		}
		return num(int64(*p))
	}
	var rows [][]columnar.Value
	leaf := 0
	for i, e := range elems {
		row := []columnar.Value{str(pf.path), str(e.Name), null(tVarchar), null(tVarchar), null(tVarchar),
			opt(e.NumChildren), null(tVarchar), opt(e.Scale), opt(e.Precision), opt(e.FieldID),
			null(tVarchar), null(tVarchar), num(int64(i))}
		if e.Type != nil {
			row[2] = str(e.Type.String())
		}
		if e.TypeLength != nil {
			row[3] = str(fmt.Sprint(*e.TypeLength))
		}
		if e.RepetitionType != nil {
			row[4] = str(e.RepetitionType.String())
		}
		if e.ConvertedType != nil {
			row[6] = str(e.ConvertedType.String())
		}
		if e.LogicalType != nil {
			if s, ok := logicalText(nodes[i].LogicalType()); ok {
				row[10] = str(s)
			}
		}
		if e.NumChildren == nil {
			if leaf < sc.NumColumns() {
				if c, err := mapColumn(sc.Column(leaf)); err == nil {
					row[11] = str(c.field.Type.String())
				}
			}
			leaf++
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// logicalText spells a logical type as DuckDB prints it (the Thrift
// structure's text); false for an annotation DuckDB leaves out.
func logicalText(lt schema.LogicalType) (string, bool) {
	unit := func(u schema.TimeUnitType) string {
		m := map[schema.TimeUnitType]string{schema.TimeUnitMillis: "MILLIS", schema.TimeUnitMicros: "MICROS", schema.TimeUnitNanos: "NANOS"}
		names := map[string]string{"MILLIS": "MilliSeconds()", "MICROS": "MicroSeconds()", "NANOS": "NanoSeconds()"}
		var parts []string
		for _, k := range []string{"MILLIS", "MICROS", "NANOS"} {
			v := "<null>"
			if m[u] == k {
				v = names[k]
			}
			parts = append(parts, k+"="+v)
		}
		return "TimeUnit(" + strings.Join(parts, ", ") + ")"
	}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	switch x := lt.(type) {
	case schema.TimestampLogicalType:
		return fmt.Sprintf("TimestampType(isAdjustedToUTC=%d, unit=%s)", b(x.IsAdjustedToUTC()), unit(x.TimeUnit())), true
	case schema.TimeLogicalType:
		return fmt.Sprintf("TimeType(isAdjustedToUTC=%d, unit=%s)", b(x.IsAdjustedToUTC()), unit(x.TimeUnit())), true
	case schema.DecimalLogicalType:
		return fmt.Sprintf("DecimalType(scale=%d, precision=%d)", x.Scale(), x.Precision()), true
	case schema.IntLogicalType:
		return fmt.Sprintf("IntType(bitWidth=%d, isSigned=%d)", x.BitWidth(), b(x.IsSigned())), true
	}
	names := map[string]string{
		"String": "StringType()", "Map": "MapType()", "List": "ListType()", "Enum": "EnumType()",
		"Date": "DateType()", "Null": "NullType()", "JSON": "JsonType()", "BSON": "BsonType()",
		"UUID": "UUIDType()", "Float16": "Float16Type()",
	}
	s, ok := names[lt.String()]
	return s, ok
}

var fileColumns = fields(
	"file_name", tVarchar, "created_by", tVarchar, "num_rows", tBigint, "num_row_groups", tBigint,
	"format_version", tBigint, "encryption_algorithm", tVarchar, "footer_signing_key_metadata", tVarchar,
	"file_size_bytes", columnar.TUint64, "footer_size", columnar.TUint64, "column_orders", columnar.ListOf(tVarchar),
)

func fileRows(pf *pqFile) ([][]columnar.Value, error) {
	meta := pf.meta
	created := null(tVarchar)
	if meta.CreatedBy != nil {
		created = str(*meta.CreatedBy)
	}
	orders := null(columnar.ListOf(tVarchar))
	if len(meta.ColumnOrders) > 0 {
		orders = columnar.Value{Type: columnar.ListOf(tVarchar), Elems: []columnar.Value{}}
		for _, co := range meta.ColumnOrders {
			s := "ColumnOrder(TYPE_ORDER=<null>)"
			if co.TYPE_ORDER != nil {
				s = "ColumnOrder(TYPE_ORDER=TypeDefinedOrder())"
			}
			orders.Elems = append(orders.Elems, str(s))
		}
	}
	algo := null(tVarchar)
	if meta.IsSetEncryptionAlgorithm() {
		algo = str("encrypted")
	}
	return [][]columnar.Value{{
		str(pf.path), created, num(meta.NumRows), num(int64(meta.NumRowGroups())), num(int64(meta.FileMetaData.Version)),
		algo, null(tVarchar), columnar.UintValue(uint64(pf.size)), columnar.UintValue(uint64(meta.Size())), orders,
	}}, nil
}

var kvColumns = fields("file_name", tVarchar, "key", tBlob, "value", tBlob)

func kvRows(pf *pqFile) ([][]columnar.Value, error) {
	var rows [][]columnar.Value
	for _, kv := range pf.meta.KeyValueMetadata() {
		v := null(tBlob)
		if kv.Value != nil {
			v = columnar.Value{Type: tBlob, S: *kv.Value}
		}
		rows = append(rows, []columnar.Value{str(pf.path), {Type: tBlob, S: kv.Key}, v})
	}
	return rows, nil
}

// decimalText spells a big-endian two's complement unscaled decimal with
// scale digits after the point, as DuckDB shows a wide DECIMAL.
func decimalText(b []byte, scale int) string {
	v := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	sign := ""
	if v.Sign() < 0 {
		sign = "-"
		v.Neg(v)
	}
	digits := v.String()
	if scale <= 0 {
		return sign + digits
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}

// boundFits reports whether an encoded statistics bound has the width of
// its physical type (arrow-go's decoder reads fixed widths unchecked: a
// corrupt footer must show NULL, not panic).
func boundFits(descr *schema.Column, b []byte) bool {
	switch descr.PhysicalType() {
	case parquet.Types.Boolean:
		return len(b) == 1
	case parquet.Types.Int32, parquet.Types.Float:
		return len(b) == 4
	case parquet.Types.Int64, parquet.Types.Double:
		return len(b) == 8
	case parquet.Types.Int96:
		return len(b) == 12
	case parquet.Types.FixedLenByteArray:
		return len(b) == descr.TypeLength()
	}
	return true
}
