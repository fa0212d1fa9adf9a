package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// threeRows is a = 1, 2, 3: the rows every file below holds.
func threeRows() (columnar.Schema, *columnar.Batch) {
	schema := columnar.Schema{{Name: "a", Type: columnar.TInt64}}
	b := columnar.NewBatch([]columnar.Type{columnar.TInt64}, 3)
	b.Len = 3
	copy(b.Cols[0].Ints, []int64{1, 2, 3})
	return schema, b
}

type batchWriter interface {
	Write(*columnar.Batch) error
	Close() error
}

func write(t *testing.T, w batchWriter, err error, b *columnar.Batch) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func rowsOf(t *testing.T, tb planner.Table) string {
	t.Helper()
	rd, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0}, Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rows, err := columnartest.ReadAll(context.Background(), rd)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(columnartest.Lines(rows), ",")
}

// TestContentKind: a Parquet file, a CTable (.b2z zip and .b2d directory)
// and a b2nd array renamed to names without an extension open by their
// content, with the rows written.
func TestContentKind(t *testing.T) {
	dir := t.TempDir()
	schema, b := threeRows()
	pq := filepath.Join(dir, "p.parquet")
	pw, err := parquet.NewWriter(pq, schema, parquet.WriterOptions{})
	write(t, pw, err, b)
	z := filepath.Join(dir, "t.b2z")
	zw, err := ctable.Create(z, schema, ctable.CreateOptions{})
	write(t, zw, err, b)
	d := filepath.Join(dir, "t.b2d")
	dw, err := ctable.Create(d, schema, ctable.CreateOptions{})
	write(t, dw, err, b)
	arr, err := os.ReadFile(filepath.Join(d, "_cols", "a.b2nd"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, kind string }{
		{pq, "parquet_noext", "parquet"},
		{z, "zip_noext", "ctable"},
		{d, "dir_noext", "ctable"},
		{"", "array_noext", "array"},
	} {
		to := filepath.Join(dir, tc.to)
		if tc.from == "" {
			if err := os.WriteFile(to, arr, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Rename(tc.from, to); err != nil {
			t.Fatal(err)
		}
		if got := contentKind(to); got != tc.kind {
			t.Errorf("%s: contentKind %q, want %q", tc.to, got, tc.kind)
			continue
		}
		tb, err := OpenFile(to)
		if err != nil {
			t.Errorf("%s: %v", tc.to, err)
			continue
		}
		if got := rowsOf(t, tb); got != "1,2,3" {
			t.Errorf("%s: rows %s, want 1,2,3", tc.to, got)
		}
		if c, ok := tb.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	text := filepath.Join(dir, "text_noext")
	os.WriteFile(text, []byte("a,b\n1,2\n"), 0o644)
	if got := contentKind(text); got != "" {
		t.Errorf("text: contentKind %q, want none", got)
	}
}
