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
	t, err := arrowType(f.Type)
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

// arrowType maps an Arrow type of a nested column (or of one of its parts)
// to its SQL type, leaves as a flat column of the same Parquet type maps.
func arrowType(t arrow.DataType) (columnar.Type, error) {
	if _, ok := t.(*extensions.VariantType); ok {
		return columnar.TVarchar, nil // JSON text (variant.go)
	}
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	switch t := t.(type) {
	case *arrow.ListType:
		e, err := arrowType(t.Elem())
		return columnar.ListOf(e), err
	case *arrow.LargeListType:
		e, err := arrowType(t.Elem())
		return columnar.ListOf(e), err
	case *arrow.FixedSizeListType:
		e, err := arrowType(t.Elem())
		return columnar.ListOf(e), err
	case *arrow.MapType:
		k, err := arrowType(t.KeyType())
		if err != nil {
			return columnar.Type{}, err
		}
		v, err := arrowType(t.ItemType())
		return columnar.MapOf(k, v), err
	case *arrow.StructType:
		fs := make([]columnar.Field, t.NumFields())
		for i, f := range t.Fields() {
			ft, err := arrowType(f.Type)
			if err != nil {
				return columnar.Type{}, err
			}
			fs[i] = columnar.Field{Name: f.Name, Type: ft}
		}
		return columnar.StructOf(fs...), nil
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
		// Inside a nested column arrow-go gives legacy TIMESTAMP_MICROS a
		// zone too, so a zone does not tell a real isAdjustedToUTC: these
		// stay TIMESTAMP (DuckDB reads the legacy ones so).
		return columnar.TTimestamp, nil
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
