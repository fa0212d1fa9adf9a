package demo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/index"
)

func TestGenerate(t *testing.T) {
	const n, rg = 300_000, 50_000
	dir := t.TempDir()
	path := filepath.Join(dir, "events.parquet")
	if err := Generate(path, n, RowGroupRows(rg), Threads(4)); err != nil {
		t.Fatal(err)
	}
	tb, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if tb.Name() != "events" || tb.RowCount() != n || tb.RowGroups() != n/rg {
		t.Fatalf("name %q rows %d row groups %d", tb.Name(), tb.RowCount(), tb.RowGroups())
	}
	sc := tb.Schema()
	wantTypes := []string{"BIGINT", "TIMESTAMP", "INTEGER", "SMALLINT", "VARCHAR", "VARCHAR", "DOUBLE", "INTEGER", "DOUBLE", "BOOLEAN"}
	wantNames := []string{"id", "ts", "user_id", "region", "category", "title", "price", "qty", "temperature", "flag"}
	for i := range sc {
		if sc[i].Name != wantNames[i] || sc[i].Type.String() != wantTypes[i] || sc[i].Nullable != (wantNames[i] == "price") {
			t.Errorf("column %d: %+v", i, sc[i])
		}
	}

	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Limit: -1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const start = 1_704_067_200 * columnar.MicrosPerSecond
	var (
		next                       int64
		regions                    [20]int
		cats                       = map[string]int{}
		titles                     = map[string]bool{}
		nulls, flags               int
		tsum, tsq                  float64
		rgMin, rgMax               = int64(math.MaxInt64), int64(math.MinInt64)
		prevTitleLen, maxTitleSeen int
	)
	for {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		c := b.Cols
		for i := 0; i < b.Len; i++ {
			if c[0].Ints[i] != next {
				t.Fatalf("id %d at position %d", c[0].Ints[i], next)
			}
			ts := c[1].Ints[i]
			if ts < start || ts > start+365*columnar.MicrosPerDay+5*60*columnar.MicrosPerSecond || ts%columnar.MicrosPerSecond != 0 {
				t.Fatalf("row %d: ts %s out of range", next, columnar.IntValue(columnar.TTimestamp, ts))
			}
			rgMin, rgMax = min(rgMin, ts), max(rgMax, ts)
			if (next+1)%rg == 0 {
				// One row group covers rg/n of the year plus the jitter.
				if span := rgMax - rgMin; span > 365*columnar.MicrosPerDay*rg/n+10*60*columnar.MicrosPerSecond {
					t.Errorf("row group ending at %d spans %d µs", next, span)
				}
				rgMin, rgMax = math.MaxInt64, math.MinInt64
			}
			if u := c[2].Ints[i]; u < 0 || u >= 1_000_000 {
				t.Fatalf("user_id %d", u)
			}
			regions[c[3].Ints[i]]++
			cats[string(c[4].Bytes[i])]++
			title := string(c[5].Bytes[i])
			if len(title) < 20 || len(title) > 80 || title[0] < 'A' || title[0] > 'Z' {
				t.Fatalf("title %q", title)
			}
			titles[title] = true
			prevTitleLen, maxTitleSeen = len(title), max(maxTitleSeen, len(title))
			if c[6].IsNull(i) {
				nulls++
			} else if p := c[6].Floats[i]; p < 0 || p > 1000 || math.Abs(p*100-math.Round(p*100)) > 1e-6 {
				t.Fatalf("price %v", p)
			}
			if q := c[7].Ints[i]; q < 0 || q > 100 {
				t.Fatalf("qty %d", q)
			}
			tv := c[8].Floats[i]
			tsum += tv
			tsq += tv * tv
			if c[9].Bools[i] {
				flags++
			}
			next++
		}
	}
	_ = prevTitleLen
	if next != n {
		t.Fatalf("read %d rows", next)
	}
	frac := func(k int) float64 { return float64(k) / n }
	if f := frac(nulls); f < 0.008 || f > 0.012 {
		t.Errorf("price NULL fraction %.4f, want about 1%%", f)
	}
	if f := frac(regions[0]); f < 0.19 || f > 0.215 {
		t.Errorf("region 0 fraction %.4f, want about 20%%", f)
	}
	for k := 1; k < 20; k++ {
		if regions[k] == 0 || regions[k] > regions[k-1] {
			t.Errorf("region counts not decreasing: %v", regions)
			break
		}
	}
	if len(cats) < 95 || len(cats) > 100 {
		t.Errorf("%d distinct categories", len(cats))
	}
	if f := frac(cats["cat_000"]); f < 0.22 || f > 0.245 {
		t.Errorf("cat_000 fraction %.4f, want about 23%%", f)
	}
	if f := frac(len(titles)); f < 0.95 {
		t.Errorf("only %.3f of titles are unique", f)
	}
	mean := tsum / n
	sd := math.Sqrt(tsq/n - mean*mean)
	if math.Abs(mean-20) > 0.1 || math.Abs(sd-8) > 0.1 {
		t.Errorf("temperature mean %.3f sd %.3f", mean, sd)
	}
	if f := frac(flags); f < 0.29 || f > 0.31 {
		t.Errorf("flag fraction %.4f", f)
	}

	// Pruning works on the generated file: ids are sorted.
	var st index.ScanStats
	r2, _ := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0}, Limit: -1, Stats: &st, Filter: []index.Pred{
		{Col: 0, Op: index.Lt, Vals: []columnar.Value{columnar.IntValue(columnar.TInt64, 10)}}}})
	for {
		if _, err := r2.Next(context.Background()); err != nil {
			break
		}
	}
	r2.Close()
	if st.UnitsSkipped != n/rg-1 {
		t.Errorf("id < 10 skipped %d of %d row groups", st.UnitsSkipped, n/rg)
	}
}

func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	if err := Generate(a, 100_000, RowGroupRows(30_000), Threads(1)); err != nil {
		t.Fatal(err)
	}
	if err := Generate(b, 100_000, RowGroupRows(30_000), Threads(3)); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if len(da) == 0 || !bytes.Equal(da, db) {
		t.Fatalf("two generations differ (%d and %d bytes)", len(da), len(db))
	}
	// The values do not depend on the row group size either.
	c := filepath.Join(dir, "c.parquet")
	if err := Generate(c, 100_000); err != nil {
		t.Fatal(err)
	}
	if x, y := firstRows(t, a), firstRows(t, c); x != y {
		t.Fatalf("values depend on row group size:\n%s\n%s", x, y)
	}
}

// firstRows renders rows 29,990 .. 30,010 of a file (straddling a row group
// boundary of 30,000).
func firstRows(t *testing.T, path string) string {
	tb, err := parquet.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Limit: 30_010, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []byte
	row := 0
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			break
		}
		for i := 0; i < b.Len; i, row = i+1, row+1 {
			if row < 29_990 {
				continue
			}
			for _, v := range b.Cols {
				out = append(out, v.Value(i).String()...)
				out = append(out, '|')
			}
			out = append(out, '\n')
		}
	}
	return string(out)
}

func TestEnsureCached(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var wg sync.WaitGroup
	paths := make([]string, 3)
	errs := make([]error, 3)
	for i := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths[i], errs[i] = EnsureCached(5000)
		}()
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil || paths[i] != paths[0] {
			t.Fatalf("EnsureCached: %v %q", errs[i], paths[i])
		}
	}
	if filepath.Base(paths[0]) != "events-5000.parquet" || filepath.Base(filepath.Dir(paths[0])) != "demo" {
		t.Fatalf("path %q", paths[0])
	}
	st1, _ := os.Stat(paths[0])
	p, err := EnsureCached(5000)
	st2, _ := os.Stat(p)
	if err != nil || p != paths[0] || !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatalf("second call regenerated or failed: %v", err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("leftover files: %v", ents)
	}
	tb, err := parquet.Open(p)
	if err != nil || tb.RowCount() != 5000 {
		t.Fatalf("cached file: %v", err)
	}
	tb.Close()
}
