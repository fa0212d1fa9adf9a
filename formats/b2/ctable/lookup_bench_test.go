package ctable

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

// Lookup benchmarks on a table of B2SQL_BENCH_ROWS rows (default 20M; the
// table and its FULL index are built once per process in a temporary
// directory, or kept in B2SQL_BENCH_DIR across runs):
//
//	id BIGINT seq, k BIGINT (i*7919) % n (a random permutation),
//	v DOUBLE i*0.5, 8192-row blocks, FULL index on k.
//
// BenchmarkLookupCrossover runs `k BETWEEN a AND a+m-1` (m rows, spread
// over ~min(m, blocks) blocks since k is a permutation) with the lookup on
// and off, reading id, k and v, single-threaded, and reports CPU ms/op.
//
//	go test ./formats/b2/ctable -run XXX -bench LookupCrossover -benchtime 5x

var lookupBench struct {
	once sync.Once
	path string
	n    int64
	err  error
}

func lookupBenchTable(b *testing.B) (string, int64) {
	lookupBench.once.Do(func() {
		n := int64(20_000_000)
		if s := os.Getenv("B2SQL_BENCH_ROWS"); s != "" {
			n, _ = strconv.ParseInt(s, 10, 64)
		}
		dir := os.Getenv("B2SQL_BENCH_DIR")
		if dir == "" {
			dir, lookupBench.err = os.MkdirTemp("", "b2sql-lookup-bench-")
			if lookupBench.err != nil {
				return
			}
		}
		lookupBench.n = n
		lookupBench.path = filepath.Join(dir, fmt.Sprintf("lookup_%d.b2d", n))
		if _, err := os.Stat(lookupBench.path); err == nil {
			return
		}
		lookupBench.err = writeLookupTable(lookupBench.path, n)
	})
	if lookupBench.err != nil {
		b.Fatal(lookupBench.err)
	}
	return lookupBench.path, lookupBench.n
}

func writeLookupTable(path string, n int64) error {
	schema := columnar.Schema{{Name: "id", Type: columnar.TInt64}, {Name: "k", Type: columnar.TInt64}, {Name: "v", Type: columnar.TFloat64}}
	w, err := Create(path, schema, CreateOptions{})
	if err != nil {
		return err
	}
	const step = 65536
	bt := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TFloat64}, step)
	for lo := int64(0); lo < n; lo += step {
		m := int(min(step, n-lo))
		bt.Len = m
		for j := 0; j < m; j++ {
			i := lo + int64(j)
			bt.Cols[0].Ints[j] = i
			bt.Cols[1].Ints[j] = (i * 7919) % n
			bt.Cols[2].Floats[j] = float64(i) * 0.5
		}
		if err := w.Write(bt); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	t0, c0 := time.Now(), cpuTime()
	if err := CreateIndex(path, IndexOptions{Column: "k"}); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "FULL index on %d rows: %.1fs wall, %.1fs CPU\n", n, time.Since(t0).Seconds(), (cpuTime() - c0).Seconds())
	return nil
}

// cpuTime is the process's user+system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func drainCount(b *testing.B, r columnar.Reader) int {
	n := 0
	for {
		bt, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		n += bt.Live()
	}
	r.Close()
	return n
}

func BenchmarkLookupCrossover(b *testing.B) {
	path, n := lookupBenchTable(b)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	k := tb.Schema().Index("k")
	blocks := (n + 8191) / 8192
	// Measure the lookup wherever it can run: no fallback to the scan.
	defer func(f float64) { lookupMaxFraction = f }(lookupMaxFraction)
	lookupMaxFraction = 1
	for _, m := range []int64{1, 100, 1000, 2000, 3000, 4000, 6000, 10000, 400000, 1000000, 2000000, 5000000} {
		if m > n {
			continue
		}
		a := n / 3
		p := index.Pred{Col: k, Op: index.Between, Vals: []columnar.Value{
			columnar.IntValue(columnar.TInt64, a), columnar.IntValue(columnar.TInt64, a+m-1)}}
		for _, on := range []bool{true, false} {
			spec := index.ScanSpec{Cols: []int{0, 1, 2}, Filter: []index.Pred{p}, Limit: -1, Threads: 1}
			if !on {
				spec.Off = spec.Off.With(index.IndexLookup)
			}
			b.Run(fmt.Sprintf("rows=%d/lookup=%v", m, on), func(b *testing.B) {
				var st index.ScanStats
				c0 := cpuTime()
				for b.Loop() {
					st = index.ScanStats{}
					spec.Stats = &st
					r, err := tb.Scan(context.Background(), spec)
					if err != nil {
						b.Fatal(err)
					}
					drainCount(b, r)
				}
				b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(st.UnitsTotal-st.UnitsSkipped), "blocks/op")
				b.ReportMetric(float64(blocks), "blocks-total")
			})
		}
	}
}

// BenchmarkOrderedLimit: ORDER BY k [DESC] LIMIT 10 through the index
// against a full scan of k (what a top-k without the index reads).
func BenchmarkOrderedLimit(b *testing.B) {
	path, _ := lookupBenchTable(b)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	k := tb.Schema().Index("k")
	for _, desc := range []bool{false, true} {
		b.Run(fmt.Sprintf("index/desc=%v", desc), func(b *testing.B) {
			c0 := cpuTime()
			for b.Loop() {
				r, err := tb.ScanOrdered(context.Background(), index.ScanSpec{Cols: []int{0, 1, 2}, Limit: 10}, k, desc)
				if err != nil {
					b.Fatal(err)
				}
				if got := drainCount(b, r); got != 10 {
					b.Fatalf("%d rows", got)
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
	b.Run("scan k", func(b *testing.B) {
		c0 := cpuTime()
		for b.Loop() {
			r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{k}, Limit: -1, Threads: 1})
			if err != nil {
				b.Fatal(err)
			}
			drainCount(b, r)
		}
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
}
