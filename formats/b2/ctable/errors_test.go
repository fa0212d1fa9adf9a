package ctable

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
)

// copyTree copies a fixture table into a temporary directory.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// rewriteSchema rewrites _meta.b2f with edit applied to the schema JSON.
func rewriteSchema(t *testing.T, root string, edit func(string) string) {
	t.Helper()
	p := filepath.Join(root, "_meta.b2f")
	f, err := b2.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	var vl []b2.Metalayer
	for _, n := range f.VLMetaNames() {
		raw, _, err := f.VLMeta(n)
		if err != nil {
			t.Fatal(err)
		}
		if n == "schema" {
			v, _ := mpDecode(raw)
			raw = mpAppend(nil, edit(v.(string)))
		}
		vl = append(vl, b2.Metalayer{Name: n, Content: raw})
	}
	f.Close()
	os.Remove(p)
	fw, err := b2.CreateFrame(p, &b2.FrameOptions{VLMeta: vl})
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// scanErr scans the named column and returns the error.
func scanErr(t *testing.T, root, col string) error {
	t.Helper()
	tb, err := Open(root)
	if err != nil {
		return err
	}
	defer tb.Close()
	_, err = scanRows(tb, index.ScanSpec{}, col)
	return err
}

func wantErr(t *testing.T, err error, corrupt bool, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", parts)
	}
	if corrupt != errors.Is(err, b2.ErrCorrupt) {
		t.Errorf("errors.Is(ErrCorrupt) = %v: %v", !corrupt, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Run("missing column member", func(t *testing.T) {
		root := copyTree(t, "ctable_mixed.b2d")
		os.Remove(filepath.Join(root, "_cols", "id.b2nd"))
		wantErr(t, scanErr(t, root, "id"), true, "ctable_mixed.b2d", "_cols/id.b2nd", "missing member")
		// Other columns still read.
		if err := scanErr(t, root, "u16"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("missing valid rows", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		os.Remove(filepath.Join(root, "_valid_rows.b2nd"))
		_, err := Open(root)
		wantErr(t, err, true, "ctable_stale.b2d", "_valid_rows.b2nd", "missing member")
	})
	t.Run("schema contradicts column", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		rewriteSchema(t, root, func(s string) string {
			return strings.Replace(s, `"kind": "float64"`, `"kind": "int32"`, 1)
		})
		wantErr(t, scanErr(t, root, "x"), true, "_cols/x.b2nd", "schema says int32, column is stored as <f8")
	})
	t.Run("column shorter than valid rows", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		if err := b2.WriteArray(filepath.Join(root, "_cols", "x.b2nd"), "<f8", []int64{100}, make([]byte, 800), nil); err != nil {
			t.Fatal(err)
		}
		wantErr(t, scanErr(t, root, "x"), true, "_cols/x.b2nd", "column has 100 rows, _valid_rows has 301")
	})
	t.Run("unknown kind", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		rewriteSchema(t, root, func(s string) string {
			return strings.Replace(s, `"kind": "float64"`, `"kind": "float128"`, 1)
		})
		_, err := Open(root)
		wantErr(t, err, false, "_meta.b2f", `unknown kind "float128"`)
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("not ErrUnsupported: %v", err)
		}
	})
	t.Run("not a ctable", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		os.Rename(filepath.Join(root, "embed.b2e"), filepath.Join(root, "_meta.b2f"))
		_, err := Open(root)
		wantErr(t, err, true, "_meta.b2f", "kind")
	})
	t.Run("truncated column", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		p := filepath.Join(root, "_cols", "ts.b2nd")
		b, _ := os.ReadFile(p)
		os.WriteFile(p, b[:len(b)/2], 0o644)
		err := scanErr(t, root, "ts")
		wantErr(t, err, true, "ctable_stale.b2d", "_cols/ts.b2nd")
	})
	t.Run("bad schema JSON", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		rewriteSchema(t, root, func(s string) string { return s[:len(s)/2] })
		_, err := Open(root)
		wantErr(t, err, true, "_meta.b2f", "schema JSON")
	})
	t.Run("NaN sentinel in schema", func(t *testing.T) {
		root := copyTree(t, "ctable_stale.b2d")
		rewriteSchema(t, root, func(s string) string {
			return strings.Replace(s, `{"name": "x", "kind": "float64"}`, `{"name": "x", "kind": "float64", "nullable": true, "null_value": NaN}`, 1)
		})
		tb, err := Open(root)
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		if !tb.Schema()[1].Nullable {
			t.Fatal("x not nullable")
		}
		if rows := scanAll(t, tb, index.ScanSpec{}, "x"); len(rows) != 301 || rows[0][0].Null {
			t.Fatalf("rows %v", rows[:1])
		}
	})
}

// zipOf packs a fixture directory into a zip with the given method and
// extra members, returning its path.
func zipOf(t *testing.T, name string, method uint16, extra map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	src := filepath.Join("testdata", name)
	filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if fi.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: method})
		b, _ := os.ReadFile(p)
		w.Write(b)
		return nil
	})
	for n, c := range extra {
		w, _ := zw.CreateHeader(&zip.FileHeader{Name: n, Method: zip.Store})
		w.Write([]byte(c))
	}
	zw.Close()
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".b2d")+".b2z")
	os.WriteFile(out, buf.Bytes(), 0o644)
	return out
}

func TestZipErrors(t *testing.T) {
	for _, evil := range []string{"../evil", "/abs", "a/../../b", `a\b`, "C:x"} {
		p := zipOf(t, "ctable_stale.b2d", zip.Store, map[string]string{evil: "x"})
		_, err := Open(p)
		wantErr(t, err, true, "escapes the table")
	}
	p := zipOf(t, "ctable_stale.b2d", zip.Deflate, nil)
	_, err := Open(p)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "_meta.b2f") {
		t.Fatalf("deflated member: %v", err)
	}
	// A zip of our own making reads like the directory.
	tb, err := Open(zipOf(t, "ctable_stale.b2d", zip.Store, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if rows := scanAll(t, tb, index.ScanSpec{}); len(rows) != 301 {
		t.Fatalf("%d rows", len(rows))
	}
	if _, err := Open(filepath.Join("testdata", "ctable_stale.b2d", "_meta.b2f")); !errors.Is(err, b2.ErrCorrupt) {
		t.Fatalf("frame as zip: %v", err)
	}
}

func TestScanAfterClose(t *testing.T) {
	tb, err := Open("testdata/ctable_stale.b2d")
	if err != nil {
		t.Fatal(err)
	}
	tb.Close()
	tb.Close()
	if _, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0}, Limit: -1}); err == nil {
		t.Fatal("scan of a closed table")
	}
}

func TestDamagedSidecarOnlyCostsPruning(t *testing.T) {
	root := copyTree(t, "ctable_mixed.b2d")
	p := filepath.Join(root, "_indexes", "id", "summary.block.b2nd")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:40], 0o644)
	tb, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pred := index.Pred{Col: 0, Op: index.Lt, Vals: []columnar.Value{i64(10)}}
	var st index.ScanStats
	// Late materialization off: the rows of every block come out unfiltered.
	rows, err := scanRows(tb, index.ScanSpec{Filter: []index.Pred{pred}, Stats: &st, Off: noLate}, "id")
	if err != nil || len(rows) != 996 || st.UnitsSkipped != 0 {
		t.Fatalf("%d rows, %v, %+v", len(rows), err, st)
	}
	if d := tb.DescribeScan(index.ScanSpec{Filter: []index.Pred{pred}}); !strings.Contains(d, "index id unreadable") {
		t.Fatalf("DescribeScan %q", d)
	}
}
