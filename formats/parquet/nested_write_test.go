package parquet

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestShredLevels checks the levels and values written for nested values
// against levels worked out by hand from the format's rules (Dremel): the
// definition level counts the optional and repeated nodes present, the
// repetition level the list level at which a value starts a new element.
func TestShredLevels(t *testing.T) {
	i32 := func(x int64) columnar.Value { return columnar.IntValue(columnar.TInt32, x) }
	inner := columnar.ListOf(columnar.TInt32)
	outer := columnar.ListOf(inner)
	list := func(t columnar.Type, xs ...columnar.Value) columnar.Value { return columnar.Value{Type: t, Elems: xs} }
	st := columnar.StructOf(columnar.Field{Name: "a", Type: columnar.TInt32}, columnar.Field{Name: "b", Type: inner})
	mt := columnar.MapOf(columnar.TVarchar, columnar.TInt32)
	entry := func(k string, v columnar.Value) columnar.Value {
		return columnar.Value{Type: mt.Elem(), Elems: []columnar.Value{columnar.StringValue(k), v}}
	}
	type leaf struct {
		defs, reps []int16
		vals       string // the values buffered, as text
	}
	cases := []struct {
		name string
		typ  columnar.Type
		rows []columnar.Value
		want []leaf
	}{{
		// l optional (1), list repeated (2), element optional (3), inner
		// list repeated (4), inner element optional (5); rep 1 outer, 2 inner.
		name: "list of lists",
		typ:  outer,
		rows: []columnar.Value{
			list(outer, list(inner, i32(1), columnar.NullValue(columnar.TInt32)), list(inner)),
			columnar.NullValue(outer),
			list(outer),
			list(outer, columnar.NullValue(inner)),
			list(outer, list(inner, i32(2))),
		},
		want: []leaf{{defs: []int16{5, 4, 3, 0, 1, 2, 5}, reps: []int16{0, 2, 1, 0, 0, 0, 0}, vals: "1 2"}},
	}, {
		// s optional (1); a optional (2); b optional (2), list (3), element (4).
		name: "struct",
		typ:  st,
		rows: []columnar.Value{
			{Type: st, Elems: []columnar.Value{i32(7), list(inner, i32(8), i32(9))}},
			columnar.NullValue(st),
			{Type: st, Elems: []columnar.Value{columnar.NullValue(columnar.TInt32), list(inner)}},
			{Type: st, Elems: []columnar.Value{i32(6), columnar.NullValue(inner)}},
		},
		want: []leaf{
			{defs: []int16{2, 0, 1, 2}, reps: []int16{0, 0, 0, 0}, vals: "7 6"},
			{defs: []int16{4, 4, 0, 2, 1}, reps: []int16{0, 1, 0, 0, 0}, vals: "8 9"},
		},
	}, {
		// m optional (1), key_value repeated (2), key required (2), value optional (3).
		name: "map",
		typ:  mt,
		rows: []columnar.Value{
			list(mt, entry("x", i32(1)), entry("y", columnar.NullValue(columnar.TInt32))),
			columnar.NullValue(mt),
			list(mt),
		},
		want: []leaf{
			{defs: []int16{2, 2, 0, 1}, reps: []int16{0, 1, 0, 0}, vals: "x y"},
			{defs: []int16{3, 2, 0, 1}, reps: []int16{0, 1, 0, 0}, vals: "1"},
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := columnar.NewVector(tc.typ, len(tc.rows))
			for i, x := range tc.rows {
				v.SetValue(i, len(tc.rows), x)
			}
			var cols []wcol
			n := planNested(tc.typ, true, 0, &cols)
			// Shred in two calls, the second with a selection, as Write does.
			if err := n.shred(cols, v, []int{0, 1}); err != nil {
				t.Fatal(err)
			}
			rest := make([]int, 0, len(tc.rows))
			for i := 2; i < len(tc.rows); i++ {
				rest = append(rest, i)
			}
			if err := n.shred(cols, v, rest); err != nil {
				t.Fatal(err)
			}
			if len(cols) != len(tc.want) {
				t.Fatalf("%d leaves, want %d", len(cols), len(tc.want))
			}
			for k, w := range tc.want {
				c := &cols[k]
				if !slices.Equal(c.defs, w.defs) || !slices.Equal(c.reps, w.reps) || leafText(c) != w.vals {
					t.Errorf("leaf %d: defs %v reps %v values %q, want %v %v %q", k, c.defs, c.reps, leafText(c), w.defs, w.reps, w.vals)
				}
			}
		})
	}
}

// leafText is the buffered values of an INT32 or BYTE_ARRAY leaf.
func leafText(c *wcol) string {
	var parts []string
	for _, x := range c.i32 {
		parts = append(parts, columnar.IntValue(columnar.TInt32, int64(x)).String())
	}
	for _, x := range c.ba {
		parts = append(parts, string(x))
	}
	return strings.Join(parts, " ")
}

// TestNestedWriteErrors: a NULL map key and a NULL in a NOT NULL nested
// column are refused with the column named, and nothing is left behind.
func TestNestedWriteErrors(t *testing.T) {
	mt := columnar.MapOf(columnar.TVarchar, columnar.TInt32)
	lt := columnar.ListOf(columnar.TInt32)
	entry := columnar.Value{Type: mt.Elem(), Elems: []columnar.Value{columnar.NullValue(columnar.TVarchar), columnar.IntValue(columnar.TInt32, 1)}}
	for _, tc := range []struct {
		name string
		f    columnar.Field
		row  columnar.Value
		want string
	}{
		{"null key", columnar.Field{Name: "m", Type: mt, Nullable: true}, columnar.Value{Type: mt, Elems: []columnar.Value{entry}}, `column "m": NULL map key`},
		{"not null", columnar.Field{Name: "l", Type: lt}, columnar.NullValue(lt), `column "l": NULL in a NOT NULL column`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.parquet")
			w, err := NewWriter(path, columnar.Schema{tc.f}, WriterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			v := columnar.NewVector(tc.f.Type, 1)
			v.SetValue(0, 1, tc.row)
			err = w.Write(&columnar.Batch{Cols: []*columnar.Vector{v}, Len: 1})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if w.Close() == nil {
				t.Fatal("Close after a failed write succeeded")
			}
			if _, err := Open(path); err == nil {
				t.Fatal("a file was left at the destination")
			}
		})
	}
}

// TestCorpusNestedRoundTrip writes every nested column of the corpus that
// TestCorpusNested reads (in row groups of 7 rows, so that lists cross
// row groups and batches) and reads the copy back: it must give DuckDB's
// answer for the original (testdata/corpus_nested.txt) once more. DuckDB
// reading the copies is checked by bench/cmd/pqcheck -nested.
func TestCorpusNestedRoundTrip(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "files")
	for _, w := range readNestedGolden(t) {
		t.Run(w.file+"/"+w.col, func(t *testing.T) {
			if why := nestedKnownDifferent[w.file]; why != "" {
				t.Skip(why)
			}
			src, err := Open(filepath.Join(dir, w.file))
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			c := src.Schema().Index(w.col)
			if c < 0 {
				t.Fatalf("no column %q", w.col)
			}
			f := src.Schema()[c]
			f.Nullable = true
			out := filepath.Join(t.TempDir(), "copy.parquet")
			copyColumn(t, src, c, f, out, WriterOptions{RowGroupRows: 7})
			dst, err := Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer dst.Close()
			got, lines := nestedAnswerOf(t, dst, w.file, w.col)
			if got != w {
				t.Errorf("got  %v\nwant %v (DuckDB, original file)\nfirst rows: %q", got, w, lines)
			}
		})
	}
}

// copyColumn writes column c of src to a new file at path.
func copyColumn(t *testing.T, src *Table, c int, f columnar.Field, path string, opts WriterOptions) {
	t.Helper()
	r, err := src.Scan(context.Background(), index.ScanSpec{Cols: []int{c}, Limit: -1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := NewWriter(path, columnar.Schema{f}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
