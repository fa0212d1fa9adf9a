package executor

import (
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The GEOMETRY functions DuckDB 1.5 has without its spatial extension:
// a geometry's text (WKT) and its binary (ISO WKB, little-endian), a
// geometry from its binary, the CRS its type names (st_crs, st_setcrs,
// whose result type the binder sets from its constant CRS), and whether
// two bounding boxes meet. A geometry is held as its WKB
// (columnar/geometry.go); a VARCHAR argument is read as WKT, as DuckDB
// casts one.
func init() {
	g := param{"geom", function.Any}
	function.Register(
		aka(scalar("geometry", "st_astext", "The well-known text (WKT) of a geometry", ex("st_astext('POINT (1 2)'::GEOMETRY)"),
			over(columnar.TVarchar, rows(fnGeomText), g)), "st_aswkt"),
		aka(scalar("geometry", "st_aswkb", "The well-known binary (ISO WKB, little-endian) of a geometry", ex("st_aswkb('POINT (1 2)'::GEOMETRY)"),
			over(columnar.TBlob, rows(fnGeomWKB), g)), "st_asbinary"),
		scalar("geometry", "st_crs", "The coordinate reference system of a geometry's type, NULL when it names none", ex("st_crs('POINT (1 2)'::GEOMETRY)"),
			seesNulls(over(columnar.TVarchar, rowsNulls(fnGeomCRS), g))),
		customBind(scalar("geometry", "st_setcrs", "The geometry with its type's coordinate reference system set to crs (a constant; '' for none)", ex("st_setcrs('POINT (1 2)'::GEOMETRY, 'OGC:CRS84')"),
			over(columnar.TGeometry, rows(fnGeomSetCRS), g, param{"crs", function.Varchar}))),
		scalar("geometry", "st_intersects_extent", "Whether the bounding boxes of two geometries intersect (also the operator &&)", ex("st_intersects_extent('POINT (1 1)'::GEOMETRY, 'LINESTRING (0 0, 2 2)'::GEOMETRY)"),
			over(columnar.TBool, rows(fnGeomIntersectsExtent), g, param{"geom2", function.Any})),
		scalar("geometry", "st_geomfromwkb", "The geometry whose well-known binary (WKB) is wkb", ex(`st_geomfromwkb('\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\xF0?\x00\x00\x00\x00\x00\x00\x00@'::BLOB)`),
			over(columnar.TGeometry, rows(fnGeomFromWKB), param{"wkb", function.Any})),
	)
}

// geomWKB is the WKB of a GEOMETRY argument, or of a VARCHAR's WKT.
func geomWKB(fn string, v columnar.Value) ([]byte, error) {
	switch v.Type.ID {
	case columnar.Geometry:
		return []byte(v.S), nil
	case columnar.Varchar:
		return columnar.ParseWKT(v.S)
	}
	return nil, fmt.Errorf("%s takes a GEOMETRY, not %s", fn, v.Type)
}

func fnGeomText(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	wkb, err := geomWKB("st_astext", a[0])
	if err != nil {
		return columnar.Value{}, err
	}
	text, err := columnar.AppendWKT(nil, wkb)
	if err != nil {
		return columnar.Value{}, fmt.Errorf("st_astext: %w", err)
	}
	return columnar.Value{Type: t, S: string(text)}, nil
}

// fnGeomCRS is the CRS of the geometry's type (GEOMETRY('OGC:CRS84')),
// as DuckDB 1.5's st_crs: a property of the column, not of the value, so
// a NULL geometry has it too.
func fnGeomCRS(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		if crs := a[0].Type.CRS(); crs != "" {
			return columnar.Value{Type: t, S: crs}, nil
		}
		return columnar.NullValue(t), nil
	}
	if _, err := geomWKB("st_crs", a[0]); err != nil {
		return columnar.Value{}, err
	}
	if crs := a[0].Type.CRS(); crs != "" {
		return columnar.Value{Type: t, S: crs}, nil
	}
	return columnar.NullValue(t), nil
}

func fnGeomWKB(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	wkb, err := geomWKB("st_aswkb", a[0])
	if err == nil {
		wkb, err = columnar.NormalizeWKB(wkb)
	}
	if err != nil {
		return columnar.Value{}, fmt.Errorf("st_aswkb: %w", err)
	}
	return columnar.Value{Type: t, S: string(wkb)}, nil
}

func fnGeomFromWKB(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Type.ID != columnar.Blob {
		return columnar.Value{}, fmt.Errorf("st_geomfromwkb takes a BLOB, not %s", a[0].Type)
	}
	wkb, err := columnar.NormalizeWKB([]byte(a[0].S))
	if err != nil {
		return columnar.Value{}, fmt.Errorf("st_geomfromwkb: %w", err)
	}
	return columnar.Value{Type: t, S: string(wkb)}, nil
}

// fnGeomSetCRS is the geometry as it is: the CRS is the result's type t,
// set by the binder (sql/bind_func_geometry.go).
func fnGeomSetCRS(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	wkb, err := geomWKB("st_setcrs", a[0])
	if err != nil {
		return columnar.Value{}, err
	}
	return columnar.Value{Type: t, S: string(wkb)}, nil
}

func fnGeomIntersectsExtent(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	var ext [2]columnar.GeometryExtent
	for i := range ext {
		wkb, err := geomWKB("st_intersects_extent", a[i])
		if err == nil {
			ext[i], err = columnar.WKBExtent(wkb)
		}
		if err != nil {
			return columnar.Value{}, err
		}
	}
	return columnar.BoolValue(ext[0].IntersectsXY(ext[1])), nil
}

// seesNulls marks o as handling NULL arguments itself.
func seesNulls(o function.Overload) function.Overload {
	o.SeesNulls = true
	return o
}
