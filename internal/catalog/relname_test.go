package catalog

import "testing"

// TestRelName: a glob match is named as the query spelled its pattern;
// a pattern whose first part is a glob names its matches from "./", as
// DuckDB 1.5 does (SELECT filename FROM '*.csv' gives ./a.csv).
func TestRelName(t *testing.T) {
	for _, tc := range []struct{ name, resolved, match, want string }{
		{"*.csv", "*.csv", "a.csv", "./a.csv"},
		{"*/k=1/*.parquet", "*/k=1/*.parquet", "h/k=1/d.parquet", "./h/k=1/d.parquet"},
		{"./a*.csv", "./a*.csv", "./a.csv", "./a.csv"},
		{"h/*/*.parquet", "h/*/*.parquet", "h/k=1/d.parquet", "h/k=1/d.parquet"},
		{"d/*.csv", "/db/d/*.csv", "/db/d/x.csv", "d/x.csv"},
		{"*.csv", "/db/*.csv", "/db/x.csv", "./x.csv"},
		{"/abs/*.csv", "/abs/*.csv", "/abs/x.csv", "/abs/x.csv"},
	} {
		if got := relName(tc.name, tc.resolved, tc.match); got != tc.want {
			t.Errorf("relName(%q, %q, %q) = %q, want %q", tc.name, tc.resolved, tc.match, got, tc.want)
		}
	}
}
