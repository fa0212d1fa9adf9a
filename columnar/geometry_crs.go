package columnar

// A GEOMETRY type may name a coordinate reference system, as DuckDB 1.5's
// GEOMETRY('OGC:CRS84') does: the CRS is part of the type, not of each
// value (st_crs reads it from the type), and lives in the type's Nest,
// interned by the type's name so that types still compare with ==.

// GeometryCRS returns the type GEOMETRY('crs'), or GEOMETRY when crs is
// empty.
func GeometryCRS(crs string) Type {
	if crs == "" {
		return TGeometry
	}
	return Type{ID: Geometry, Nest: intern(&Nest{name: "GEOMETRY(" + QuoteString(crs) + ")", crs: crs})}
}

// CRS is the coordinate reference system of a GEOMETRY type, "" when it
// names none.
func (t Type) CRS() string {
	if t.ID != Geometry || t.Nest == nil {
		return ""
	}
	return t.Nest.crs
}
