package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/b2sql/b2sql/columnar"
)

// nestedCol is what a nested column (a top-level LIST, MAP or STRUCT, or a
// repeated field) adds to its column: which top-level field of the file it
// is, and its Arrow type as arrow-go's schema resolution gives it. That
// resolution (pqarrow.SchemaManifest) applies the format's backward
// compatibility rules, so every list and map layout found in the wild maps
// to one LIST, MAP or STRUCT type: the standard 3-level LIST, legacy 2-level
// lists, bare repeated fields, MAP_KEY_VALUE and the shapes of Spark,
// Impala, parquet-mr and Presto.
type nestedCol struct {
	field  int   // index of the top-level field in the file's schema
	leaves []int // its leaf columns
	typ    arrow.DataType
	list   *listShape // a list of numbers read by listReader, or nil
	mp     *mapShape  // a map with an optional key read by mapReader, or nil
	// path is, for a field of a STRUCT read on its own (fields.go), the
	// names of the fields from the top-level STRUCT down to it.
	path []string
}

// bytes is the compressed size of the column's chunks in a row group.
func (nc *nestedCol) bytes(rgm *metadata.RowGroupMetaData) (n int64) {
	for _, l := range nc.leaves {
		if cc, err := rgm.ColumnChunk(l); err == nil {
			n += cc.TotalCompressedSize()
		}
	}
	return n
}

// nestedColumn maps the top-level field root (index field of the root
// group) to a nested column, or reports why it cannot be read.
func nestedColumn(sc *schema.Schema, manifest *pqarrow.SchemaManifest, field int) (column, error) {
	if manifest == nil || field < 0 || field >= len(manifest.Fields) {
		return column{}, fmt.Errorf("%w: no Arrow mapping", ErrUnsupported)
	}
	f := manifest.Fields[field].Field
	t, err := nestedType(sc, &manifest.Fields[field], f.Type)
	if err != nil {
		return column{}, err
	}
	root := sc.Root().Field(field)
	t = legacyListOfLists(root, t)
	var leaves []int
	for i := 0; i < sc.NumColumns(); i++ {
		if sc.ColumnRoot(i) == root {
			leaves = append(leaves, i)
		}
	}
	return column{
		field:  columnar.Field{Name: root.Name(), Type: t, Nullable: true},
		leaf:   -1,
		nested: &nestedCol{field: field, leaves: leaves, typ: f.Type, list: listShapeOf(sc, root, leaves, t)},
	}, nil
}

// optionalKeyMap maps the top-level field root, a map arrow-go refuses
// because its key is OPTIONAL, to a column read by mapReader.
func optionalKeyMap(sc *schema.Schema, root schema.Node, field int) (column, bool) {
	sh := mapShapeOf(sc, root)
	if sh == nil {
		return column{}, false
	}
	return column{
		field:  columnar.Field{Name: root.Name(), Type: columnar.MapOf(sh.keyT, sh.valT), Nullable: true},
		leaf:   -1,
		nested: &nestedCol{field: field, leaves: []int{sh.key, sh.val}, mp: sh},
	}, true
}

// nestedType maps the Arrow type t of a nested column's part sf (nil when
// unknown) to its SQL type. The shape (LIST, MAP, STRUCT) is arrow-go's,
// which applies the format's backward-compatibility rules; a leaf is typed
// as a flat column of it is (leafType), since arrow-go's type loses what
// the leaf's Parquet type says.
func nestedType(sc *schema.Schema, sf *pqarrow.SchemaField, t arrow.DataType) (columnar.Type, error) {
	if _, ok := t.(*extensions.VariantType); ok {
		return columnar.TVarchar, nil // JSON text (variant.go)
	}
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	kid := func(i int) *pqarrow.SchemaField {
		if sf == nil || i >= len(sf.Children) {
			return nil
		}
		return &sf.Children[i]
	}
	switch t := t.(type) {
	case arrow.ListLikeType:
		if m, ok := t.(*arrow.MapType); ok {
			var kf, vf *pqarrow.SchemaField
			if kv := kid(0); kv != nil && len(kv.Children) == 2 {
				kf, vf = &kv.Children[0], &kv.Children[1]
			}
			k, err := nestedType(sc, kf, m.KeyType())
			if err != nil {
				return columnar.Type{}, err
			}
			v, err := nestedType(sc, vf, m.ItemType())
			return columnar.MapOf(k, v), err
		}
		e, err := nestedType(sc, kid(0), t.Elem())
		return columnar.ListOf(e), err
	case *arrow.StructType:
		if sf != nil && len(sf.Children) != t.NumFields() {
			sf = nil
		}
		fs := make([]columnar.Field, t.NumFields())
		for i, f := range t.Fields() {
			ft, err := nestedType(sc, kid(i), f.Type)
			if err != nil {
				return columnar.Type{}, err
			}
			fs[i] = columnar.Field{Name: f.Name, Type: ft}
		}
		return columnar.StructOf(fs...), nil
	}
	lt, err := arrowType(t)
	if err == nil && sf != nil && sf.IsLeaf() && sf.ColIndex < sc.NumColumns() {
		lt = leafType(sc.Column(sf.ColIndex), lt)
	}
	return lt, err
}

// leafType is the SQL type of leaf col inside a nested column whose Arrow
// type maps to t: the type a flat column of col has where that differs in
// more than the Arrow mapping can say (putArrowValues converts to it).
// arrow-go gives a legacy TIMESTAMP_MICROS a zone as it gives one to a
// TIMESTAMP with isAdjustedToUTC, so only the Parquet type tells
// TIMESTAMPTZ from TIMESTAMP; likewise TIMESTAMP_NS, TIMETZ, UUID,
// GEOMETRY and DECIMAL(19..38), which Arrow's mapping makes TIMESTAMP,
// TIME, BLOB and DOUBLE.
func leafType(col *schema.Column, t columnar.Type) columnar.Type {
	c, err := mapColumn(col)
	if err != nil {
		return t
	}
	switch c.field.Type.ID {
	case columnar.TimestampTZ, columnar.TimestampNS, columnar.TimeTZ, columnar.Uuid, columnar.Geometry, columnar.Decimal128:
		return c.field.Type
	}
	return t
}

// arrowType maps an Arrow type of a leaf inside a nested column to its SQL
// type, as a flat column of the same Parquet type maps but for what
// leafType corrects.
func arrowType(t arrow.DataType) (columnar.Type, error) {
	switch t := t.(type) {
	case *arrow.Decimal128Type:
		if t.Precision <= 18 {
			return columnar.DecimalType(int(t.Precision), int(t.Scale)), nil
		}
		return columnar.TFloat64, nil
	case *arrow.Decimal256Type:
		return columnar.TFloat64, nil
	}
	switch t.ID() {
	case arrow.NULL:
		return columnar.TInt32, nil // an all-NULL leaf, as DuckDB types it
	case arrow.BOOL:
		return columnar.TBool, nil
	case arrow.INT8:
		return columnar.TInt8, nil
	case arrow.INT16:
		return columnar.TInt16, nil
	case arrow.INT32:
		return columnar.TInt32, nil
	case arrow.INT64:
		return columnar.TInt64, nil
	case arrow.UINT8:
		return columnar.TUint8, nil
	case arrow.UINT16:
		return columnar.TUint16, nil
	case arrow.UINT32:
		return columnar.TUint32, nil
	case arrow.UINT64:
		return columnar.TUint64, nil
	case arrow.FLOAT32:
		return columnar.TFloat32, nil
	case arrow.FLOAT64:
		return columnar.TFloat64, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return columnar.TVarchar, nil
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
		return columnar.TBlob, nil
	case arrow.DATE32, arrow.DATE64:
		return columnar.TDate, nil
	case arrow.TIMESTAMP:
		return columnar.TTimestamp, nil // leafType tells TIMESTAMPTZ
	case arrow.TIME32, arrow.TIME64:
		return columnar.TTime, nil
	}
	return columnar.Type{}, fmt.Errorf("%w: %s inside a nested column", ErrUnsupported, t)
}

// legacyListOfLists corrects arrow-go's reading of a legacy 2-level list
// whose repeated group is itself LIST-annotated (parquet-format's
// backward-compatibility rules, as DuckDB and parquet-mr apply them): the
// repeated group is a list, not a struct holding one, so
// STRUCT("array" X[])[] becomes X[][]. putArrowValues reads the struct's
// one field in its place.
func legacyListOfLists(n schema.Node, t columnar.Type) columnar.Type {
	g, ok := n.(*schema.GroupNode)
	if !ok || t.ID != columnar.List || g.NumFields() != 1 {
		return t
	}
	rep, ok := g.Field(0).(*schema.GroupNode)
	if !ok || rep.RepetitionType() != parquet.Repetitions.Repeated || rep.NumFields() != 1 {
		return t
	}
	if _, isList := rep.LogicalType().(schema.ListLogicalType); !isList {
		return t
	}
	if e := t.Elem(); e.ID == columnar.Struct && len(e.Fields()) == 1 && e.Fields()[0].Type.ID == columnar.List {
		return columnar.ListOf(e.Fields()[0].Type)
	}
	return t
}
