package ctable

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/columnar/columnartest"
	"github.com/b2sql/b2sql/index"
)

// scanner is what both table kinds offer.
type scanner interface {
	Schema() columnar.Schema
	Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error)
}

// scanAll reads the named columns (all when names is empty) and returns
// them as rows of values, checking the batch contract on the way.
func scanAll(t *testing.T, tb scanner, spec index.ScanSpec, names ...string) [][]columnar.Value {
	t.Helper()
	rows, err := scanRows(tb, spec, names...)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func scanRows(tb scanner, spec index.ScanSpec, names ...string) ([][]columnar.Value, error) {
	if spec.Cols == nil {
		if len(names) == 0 {
			for i := range tb.Schema() {
				spec.Cols = append(spec.Cols, i)
			}
		}
		for _, n := range names {
			i := tb.Schema().Index(n)
			if i < 0 {
				return nil, errors.New("no column " + n)
			}
			spec.Cols = append(spec.Cols, i)
		}
	}
	if spec.Limit == 0 {
		spec.Limit = -1
	}
	r, err := tb.Scan(context.Background(), spec)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return columnartest.ReadAll(context.Background(), r)
}

// pyCheck runs script (its argument: path) with the python3 that
// B2SQL_PYBLOSC2 names (one that imports blosc2, with PYTHONPATH set as
// needed, e.g. B2SQL_PYBLOSC2=/work/ref/bin/python3
// PYTHONPATH=/work/ref/py/lib/python3.11/site-packages) and compares what
// it prints with want; without B2SQL_PYBLOSC2 it only logs.
func pyCheck(t *testing.T, path, script, want string) {
	t.Helper()
	py := os.Getenv("B2SQL_PYBLOSC2")
	if py == "" {
		t.Log("B2SQL_PYBLOSC2 not set: python-blosc2 does not check the table")
		return
	}
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("python-blosc2: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("python-blosc2 reads\n%s\nwant\n%s", got, want)
	}
}

// tableRows returns the schema, column types and live rows of the table
// at path.
func tableRows(t *testing.T, path string) (columnar.Schema, []columnar.Type, [][]columnar.Value) {
	t.Helper()
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	sc := tb.Schema()
	types := make([]columnar.Type, len(sc))
	for i, f := range sc {
		types[i] = f.Type
	}
	return sc, types, scanAll(t, tb, index.ScanSpec{})
}

// writeOpen writes the batches to a new table at path with Writer and
// opens it.
func writeOpen(t *testing.T, path string, sc columnar.Schema, batches ...*columnar.Batch) *Table {
	t.Helper()
	w, err := Create(path, sc, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
