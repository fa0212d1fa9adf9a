package ctable

import (
	"bufio"
	"context"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// TestScanResidentBounded scans a table whose price column is ~100 MB on
// disk, filtered on region so that late materialization reads price in
// parts of chunks, and samples /proc/self/smaps while it runs: the pages of
// the table's files resident in the process must stay at a few pages per
// open frame (headers, offsets), not grow with the data read. Before chunk
// bytes were read with pread, mapped pages of every chunk stayed resident
// (100M rows: 85 MB of price.b2nd at the peak).
func TestScanResidentBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB table")
	}
	const rows = 12 << 20
	dir := t.TempDir()
	want := 0.0 // sum(price) WHERE region = 3, computed while generating
	schema := columnar.Schema{{Name: "price", Type: columnar.TFloat64}, {Name: "region", Type: columnar.TInt16}}
	for _, ext := range []string{".b2d", ".b2z"} {
		path := filepath.Join(dir, "t"+ext)
		w, err := Create(path, schema, CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		b := columnar.NewBatch([]columnar.Type{columnar.TFloat64, columnar.TInt16}, batchRows)
		sum := 0.0
		for lo := 0; lo < rows; lo += batchRows {
			b.Len = batchRows
			for k := range batchRows {
				b.Cols[0].Floats[k] = rng.Float64() * 1000 // random bits: price stays ~8 bytes a row
				b.Cols[1].Ints[k] = int64(rng.IntN(20))
				if b.Cols[1].Ints[k] == 3 {
					sum += b.Cols[0].Floats[k]
				}
			}
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want = sum
	}
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			path := filepath.Join(dir, "t"+ext)
			tb, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			spec := index.ScanSpec{Cols: []int{0, 1}, Limit: -1, Threads: 2,
				Filter: []index.Pred{{Op: index.Eq, Col: 1, Vals: []columnar.Value{columnar.IntValue(columnar.TInt16, 3)}}}}
			for _, units := range []bool{false, true} {
				peak, got := 0, 0.0
				var mu sync.Mutex
				consume := func(r columnar.Reader) {
					defer r.Close()
					for n := 0; ; n++ {
						b, err := r.Next(context.Background())
						if err == io.EOF {
							return
						}
						if err != nil {
							t.Error(err)
							return
						}
						s := 0.0
						for i := 0; i < b.Live(); i++ {
							if row := b.Row(i); b.Cols[1].Ints[row] == 3 {
								s += b.Cols[0].Floats[row]
							}
						}
						mu.Lock()
						got += s
						if n%8 == 0 {
							peak = max(peak, mappedRSS(t, path))
						}
						mu.Unlock()
					}
				}
				if units {
					// As the executor runs them: units shared by two workers.
					openers, err := tb.ScanUnits(context.Background(), spec)
					if err != nil {
						t.Fatal(err)
					}
					var next sync.Mutex
					var wg sync.WaitGroup
					for range 2 {
						wg.Go(func() {
							for {
								next.Lock()
								if len(openers) == 0 {
									next.Unlock()
									return
								}
								open := openers[0]
								openers = openers[1:]
								next.Unlock()
								r, err := open(context.Background())
								if err != nil {
									t.Error(err)
									return
								}
								consume(r)
							}
						})
					}
					wg.Wait()
				} else {
					r, err := tb.Scan(context.Background(), spec)
					if err != nil {
						t.Fatal(err)
					}
					consume(r)
				}
				if math.Abs(got-want) > 1e-9*want {
					t.Fatalf("units=%v: sum %v, want %v", units, got, want)
				}
				t.Logf("units=%v: peak resident pages of the table's files: %d KiB", units, peak)
				if peak > 1024 {
					t.Errorf("units=%v: %d KiB of the table's files resident during the scan, want ≤ 1024", units, peak)
				}
			}
			tb.Close()
			if peak := appendResident(t, path); peak > 1024 {
				t.Errorf("%d KiB of the table's files resident while appending, want ≤ 1024", peak)
			}
		})
	}
}

// appendResident appends a few rows to the table at path through a Change
// and returns the KiB of the old version's files resident in this process
// once every column's new version has copied the old chunks (the peak:
// the copies are done, the old table is still open). Before the copies
// read with pread, they touched every page of the old files through the
// mapping: an INSERT of 3 rows into a 760 MB table peaked at 900 MB.
func appendResident(t *testing.T, path string) int {
	c, err := Begin(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Abort()
	old := c.Table().RowCount()
	b := columnar.NewBatch([]columnar.Type{columnar.TFloat64, columnar.TInt16}, 3)
	b.Len = 3
	for k := range 3 {
		b.Cols[0].Floats[k], b.Cols[1].Ints[k] = float64(k), 3
	}
	if err := c.Append(b); err != nil {
		t.Fatal(err)
	}
	peak := mappedRSS(t, path)
	if err := c.Commit(); err != nil {
		t.Fatal(err)
	}
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got := tb.RowCount(); got != old+3 {
		t.Fatalf("%d rows after appending 3 to %d", got, old)
	}
	return peak
}

// mappedRSS returns the KiB of the mappings of files under path (a .b2d
// directory or a .b2z file) resident in this process, from /proc/self/smaps.
func mappedRSS(t *testing.T, path string) int {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			in = len(fields) >= 6 && strings.HasPrefix(fields[5], path)
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "Rss:" {
			kb, _ := strconv.Atoi(fields[1])
			total += kb
		}
	}
	return total
}
