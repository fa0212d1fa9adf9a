package columnar

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestWKT: WKT read and written back as DuckDB 1.5.6 prints it (the
// outputs are DuckDB's for the same CAST(… AS GEOMETRY)::VARCHAR).
func TestWKT(t *testing.T) {
	for in, want := range map[string]string{
		"POINT (1 2)":                         "POINT (1 2)",
		"point(1e20 -0.0)":                    "POINT (1e+20 -0)",
		"POINT (0.00001 1e16)":                "POINT (1e-05 1e+16)",
		"POINT (1234567 100000000)":           "POINT (1234567 100000000)",
		"MULTIPOINT ((1 2), (3 4))":           "MULTIPOINT (1 2, 3 4)",
		"MULTIPOINT (EMPTY, (1 2))":           "MULTIPOINT (EMPTY, 1 2)",
		"POINT ZM (1 2 3 4)":                  "POINT ZM (1 2 3 4)",
		"POINT Z EMPTY":                       "POINT Z EMPTY",
		"GEOMETRYCOLLECTION EMPTY":            "GEOMETRYCOLLECTION EMPTY",
		"POLYGON ((0 0, 1 0, 1 1, 0 0))":      "POLYGON ((0 0, 1 0, 1 1, 0 0))",
		"MULTIPOLYGON (((0 0, 1 0, 0 0)))":    "MULTIPOLYGON (((0 0, 1 0, 0 0)))",
		"MULTILINESTRING ((0 0, 1 1), EMPTY)": "MULTILINESTRING ((0 0, 1 1), EMPTY)",
		"GEOMETRYCOLLECTION (POINT (1 2), LINESTRING M (0 0 1, 1 1 2))": "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING M (0 0 1, 1 1 2))",
	} {
		wkb, err := ParseWKT(in)
		if err != nil {
			t.Errorf("ParseWKT(%q): %v", in, err)
			continue
		}
		got, err := AppendWKT(nil, wkb)
		if err != nil || string(got) != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
		if norm, err := NormalizeWKB(wkb); err != nil || string(norm) != string(wkb) {
			t.Errorf("%q: NormalizeWKB changed little-endian ISO WKB: %v", in, err)
		}
	}
	// DuckDB 1.5.6's messages for CAST(s AS GEOMETRY) of the same text.
	for in, want := range map[string]string{
		"POINT (1 2":             "Failed to parse geometry: Expected ')' but got end of input at offset 10",
		"FOO (1 2)":              "Failed to parse geometry: Unknown geometry type at offset 0",
		"POINT(1 2 3 4 5)":       "Failed to parse geometry: Expected ')' but got '3' at offset 10",
		"POINT(1 2 3)":           "Failed to parse geometry: Expected ')' but got '3' at offset 10",
		"POINT ZM(1 2 3)":        "Failed to parse geometry: Expected number at offset 14",
		"LINESTRING(1 2, 3)":     "Failed to parse geometry: Expected number at offset 17",
		"LINESTRING(1 2, 4 5 6)": "Failed to parse geometry: Expected ')' but got '6' at offset 20",
		"POINT(1":                "Failed to parse geometry: Expected number at offset 7",
		"POINT(1e 2)":            "Failed to parse geometry: Expected number at offset 7",
		"POINT(+1 -2)":           "Failed to parse geometry: Expected number at offset 6",
		"POINT(0x10 2)":          "Failed to parse geometry: Expected number at offset 7",
		"POINT(-.5 .)":           "Failed to parse geometry: Expected number at offset 10",
		"":                       "Failed to parse geometry: Unknown geometry type at offset 0",
	} {
		if _, err := ParseWKT(in); err == nil || err.Error() != want {
			t.Errorf("ParseWKT(%q): %v, want %q", in, err, want)
		}
	}
	// Accepted as DuckDB 1.5.6 accepts them (text after the geometry is
	// ignored; 1-2 is two numbers).
	for in, want := range map[string]string{
		"POINT(1 2) x":        "POINT (1 2)",
		"POINT(1-2)":          "POINT (1 -2)",
		"POINT(1.5e3 .5)":     "POINT (1500 0.5)",
		"POINT(-inf 1e999)":   "POINT (-inf inf)",
		"POINT(1e+2 1E-1)":    "POINT (100 0.1)",
		"POINT(1. 2)":         "POINT (1 2)",
		"  POINT (1 2)   ":    "POINT (1 2)",
		"POINT(infinity nan)": "POINT (inf nan)",
	} {
		wkb, err := ParseWKT(in)
		var got []byte
		if err == nil {
			got, err = AppendWKT(nil, wkb)
		}
		if err != nil || string(got) != want {
			t.Errorf("ParseWKT(%q): %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestWKBForms: big-endian ISO WKB and PostGIS's EWKB (dimension flags,
// an SRID) read as the same geometry; NormalizeWKB makes them ISO,
// little-endian; truncated or hostile bytes are errors, never panics.
func TestWKBForms(t *testing.T) {
	be := []byte{0, 0, 0, 0x03, 0xe9} // big-endian POINT Z
	for _, f := range []float64{1, 2, 3} {
		be = binary.BigEndian.AppendUint64(be, math.Float64bits(f))
	}
	ewkb := []byte{1}
	ewkb = binary.LittleEndian.AppendUint32(ewkb, 0x80000000|0x20000000|1) // Z, SRID, POINT
	ewkb = binary.LittleEndian.AppendUint32(ewkb, 4326)
	for _, f := range []float64{1, 2, 3} {
		ewkb = binary.LittleEndian.AppendUint64(ewkb, math.Float64bits(f))
	}
	iso, _ := ParseWKT("POINT Z (1 2 3)")
	for name, b := range map[string][]byte{"big-endian": be, "EWKB": ewkb} {
		got, err := AppendWKT(nil, b)
		if err != nil || string(got) != "POINT Z (1 2 3)" {
			t.Errorf("%s: %q, %v", name, got, err)
		}
		if norm, err := NormalizeWKB(b); err != nil || string(norm) != string(iso) {
			t.Errorf("%s: NormalizeWKB = %x, %v; want %x", name, norm, err, iso)
		}
	}
	deep := []byte{}
	for range 100 {
		deep = append(deep, 1, 7, 0, 0, 0, 1, 0, 0, 0) // a collection of one collection of …
	}
	for name, b := range map[string][]byte{
		"empty": {}, "order only": {1}, "short": {1, 2}, "bad order": {2, 1, 0, 0, 0},
		"bad type": {1, 9, 0, 0, 0}, "huge count": {1, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff},
		"trailing": append(append([]byte{}, iso...), 0), "deep": deep,
	} {
		if _, err := AppendWKT(nil, b); err == nil {
			t.Errorf("%s: AppendWKT accepted %x", name, b)
		}
		if _, err := NormalizeWKB(b); err == nil {
			t.Errorf("%s: NormalizeWKB accepted %x", name, b)
		}
	}
	if v := (Value{Type: TGeometry, S: "\x01\x02"}); v.String() != `\x01\x02` {
		t.Errorf("a GEOMETRY that is not WKB shows as %q, want its bytes", v.String())
	}
}
