package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// geometryTypeName reads GEOMETRY('crs'), the GEOMETRY type of a
// coordinate reference system, as DuckDB 1.5 does (columnar.TypeCRS: a
// known code such as OGC:CRS84, or a PROJJSON or WKT2 definition). why
// is DuckDB's reason when t names no type; is is false for any other
// name.
func geometryTypeName(t *ast.TypeName) (typ columnar.Type, why string, is bool) {
	if t.Name != "GEOMETRY" || t.Schema != "" || len(t.Params) == 0 {
		return columnar.Type{}, "", false
	}
	if len(t.Params) > 1 {
		return columnar.Type{}, "GEOMETRY type takes a single optional type modifier with a coordinate system definition", true
	}
	l, ok := t.Params[0].(*ast.Literal)
	if !ok || l.Kind != ast.LitString {
		return columnar.Type{}, "GEOMETRY type modifier must be a string with a coordinate system definition", true
	}
	crs, err := columnar.TypeCRS(l.Val)
	if err != nil {
		return columnar.Type{}, err.Error(), true
	}
	return columnar.GeometryCRS(crs), "", true
}

// geometryCastErr is DuckDB's refusal of a cast between GEOMETRY types of
// two different coordinate reference systems ("" when from casts to to).
// A GEOMETRY without a CRS casts to and from any.
func geometryCastErr(from, to columnar.Type) string {
	if from.ID != columnar.Geometry || to.ID != columnar.Geometry || from.CRS() == "" || to.CRS() == "" || from == to {
		return ""
	}
	return "Cannot cast GEOMETRY with CRS " + columnar.QuoteString(from.CRS()) + " to GEOMETRY with different CRS " + columnar.QuoteString(to.CRS())
}

// parsesGeometry reports whether a cast from from to to reads WKT text
// into a GEOMETRY, at the top or inside lists and structs. DuckDB 1.5
// raises a bad text's parse error even under TRY_CAST, so such a
// TRY_CAST binds as a CAST.
func parsesGeometry(from, to columnar.Type) bool {
	switch {
	case to.ID == columnar.Geometry:
		return from.ID == columnar.Varchar
	case to.ID == columnar.List && from.ID == columnar.List:
		return parsesGeometry(from.Elem(), to.Elem())
	case to.ID == columnar.Struct && from.ID == columnar.Struct && len(from.Fields()) == len(to.Fields()):
		for i, f := range to.Fields() {
			if parsesGeometry(from.Fields()[i].Type, f.Type) {
				return true
			}
		}
	}
	return false
}
