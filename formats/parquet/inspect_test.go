package parquet

import (
	"path/filepath"
	"testing"
)

// TestInspectCorpus lists the footer of every file of the public corpus
// that opens, good and corrupt, with every inspection function: no panic,
// one parquet_file_metadata row per file whose num_rows is DuckDB's count
// of the file, and as many parquet_metadata rows as column chunks.
func TestInspectCorpus(t *testing.T) {
	for _, sub := range []string{"files", "bad"} {
		for _, path := range corpusFiles(t, sub) {
			tb, err := Open(path)
			if err != nil {
				continue // bad/ files fail to open (corpus_test.go checks how)
			}
			name := filepath.Base(path)
			for fn := range InspectFuncs {
				if _, _, err := tb.Inspect(fn); err != nil {
					t.Errorf("%s/%s: %s: %v", sub, name, fn, err)
				}
			}
			_, rows, _ := tb.Inspect("parquet_file_metadata")
			// The footer's num_rows, which two files get wrong (DuckDB's
			// parquet_file_metadata shows 0 for repeated_no_annotation.parquet
			// too, whose row group holds 6).
			footerLies := name == "map_no_value.parquet" || name == "repeated_no_annotation.parquet"
			if want, ok := corpusRows[name]; ok && sub == "files" && !footerLies {
				if len(rows) != 1 || rows[0][2].I != want {
					t.Errorf("%s: parquet_file_metadata rows %v, want num_rows %d", name, rows, want)
				}
			}
			_, chunks, _ := tb.Inspect("parquet_metadata")
			n := 0
			for _, pf := range tb.files {
				for rg := range pf.meta.NumRowGroups() {
					n += pf.meta.RowGroup(rg).NumColumns()
				}
			}
			if len(chunks) != n {
				t.Errorf("%s/%s: parquet_metadata has %d rows, the footer %d column chunks", sub, name, len(chunks), n)
			}
			tb.Close()
		}
	}
}
