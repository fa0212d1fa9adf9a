package sql

import "testing"

// TestParseTypeText: the type texts of the types/columns options, flat
// (the hand parser) and nested (the SQL type grammar).
func TestParseTypeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"INTEGER", "INTEGER"},
		{"decimal(10, 2)", "DECIMAL(10,2)"},
		{"DOUBLE PRECISION", "DOUBLE"},
		{"INTEGER[]", "INTEGER[]"},
		{"varchar[][]", "VARCHAR[][]"},
		{"STRUCT(a INT, b VARCHAR[])", "STRUCT(a INTEGER, b VARCHAR[])"},
		{"struct(k double)", "STRUCT(k DOUBLE)"},
		{"MAP(VARCHAR, INT)", "MAP(VARCHAR, INTEGER)"},
		{"STRUCT(a INT)[]", "STRUCT(a INTEGER)[]"},
	} {
		got, err := ParseTypeText(tc.in)
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseTypeText(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"INTEGER[", "STRUCT(", "MAP(VARCHAR)", "STRUCT(a INT) x", "NOPE[]"} {
		if got, err := ParseTypeText(bad); err == nil {
			t.Errorf("ParseTypeText(%q) = %v, want an error", bad, got)
		}
	}
}
