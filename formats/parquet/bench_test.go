package parquet

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
)

const benchRows = 2_000_000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchFile writes (once per process) a file of benchRows rows with an
// int64 column (sorted ids), a float64 column with 10% NULLs and a string
// column of about 100 distinct values (dictionary encoded) plus a mostly
// unique one (plain), in DuckDB-sized row groups.
func benchFile(b *testing.B) string { return benchFileT(b) }

func benchFileT(b testing.TB) string {
	benchOnce.Do(func() {
		benchDir, benchErr = makeTempDir()
		if benchErr != nil {
			return
		}
		sc := columnar.Schema{
			{Name: "i", Type: columnar.TInt64},
			{Name: "f", Type: columnar.TFloat64, Nullable: true},
			{Name: "s", Type: columnar.TVarchar},
			{Name: "u", Type: columnar.TVarchar},
		}
		var w *Writer
		w, benchErr = NewWriter(filepath.Join(benchDir, "bench.parquet"), sc, WriterOptions{NoDictionaryFor: []string{"i", "u"}})
		if benchErr != nil {
			return
		}
		const n = 4096
		bt := columnar.NewBatch([]columnar.Type{columnar.TInt64, columnar.TFloat64, columnar.TVarchar, columnar.TVarchar}, n)
		var arena []byte
		for first := 0; first < benchRows; first += n {
			bt.Len = min(n, benchRows-first)
			bt.Cols[1].Valid = nil
			arena = arena[:0]
			for j := 0; j < bt.Len; j++ {
				i := first + j
				bt.Cols[0].Ints[j] = int64(i)
				if i%10 == 3 {
					bt.Cols[1].SetNull(j, n)
				} else {
					bt.Cols[1].Floats[j] = math.Sin(float64(i)) * 1000
				}
				bt.Cols[2].Bytes[j] = fmt.Appendf(nil, "cat_%03d", i*7919%100)
				start := len(arena)
				arena = fmt.Appendf(arena, "title number %d of the benchmark %x", i, i*2654435761)
				bt.Cols[3].Bytes[j] = arena[start:]
			}
			if benchErr = w.Write(bt); benchErr != nil {
				return
			}
		}
		benchErr = w.Close()
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return filepath.Join(benchDir, "bench.parquet")
}

// BenchmarkScan reads one column of the benchmark file per sub-benchmark.
// MB/s counts decoded payload bytes (8 per number, string lengths).
func BenchmarkScan(b *testing.B) {
	path := benchFile(b)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	for _, tc := range []struct {
		name string
		col  int
	}{{"int64", 0}, {"float64-nulls", 1}, {"string-dict", 2}, {"string-plain", 3}} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", tc.name, threads), func(b *testing.B) {
				b.ReportAllocs()
				var bytes int64
				cpu0 := cpuTime()
				for b.Loop() {
					bytes = scanBytes(b, tb, tc.col, threads)
				}
				b.SetBytes(bytes)
				b.ReportMetric(float64(b.N)*benchRows/b.Elapsed().Seconds(), "rows/s")
				// CPU time per row stays meaningful on a loaded machine,
				// where wall-clock rates mostly measure the neighbours.
				b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*benchRows), "cpu-ns/row")
			})
		}
	}
}

func scanBytes(b *testing.B, tb *Table, col, threads int) int64 {
	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{col}, Limit: -1, Threads: threads})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var bytes, rows int64
	for {
		bt, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		rows += int64(bt.Len)
		v := bt.Cols[0]
		if v.Type.Phys() == columnar.PhysBytes {
			for _, s := range v.Bytes[:bt.Len] {
				bytes += int64(len(s))
			}
		} else {
			bytes += 8 * int64(bt.Len)
		}
	}
	if rows != benchRows {
		b.Fatalf("read %d rows", rows)
	}
	return bytes
}

// scanRows scans column col of tb on one thread and returns its rows.
func scanRows(b *testing.B, tb *Table, col int) int {
	r, err := tb.Scan(context.Background(), index.ScanSpec{Cols: []int{col}, Limit: -1, Threads: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	rows := 0
	for {
		bt, err := r.Next(context.Background())
		if err == io.EOF {
			return rows
		}
		if err != nil {
			b.Fatal(err)
		}
		rows += bt.Len
	}
}

// cpuTime returns the process's user+system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkBatchSize compares output batch sizes on a plain, a dictionary
// and a nullable column (cpu-ns/row is the figure to compare).
func BenchmarkBatchSize(b *testing.B) {
	path := benchFile(b)
	tb, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	defer func(old int64) { batchRows = old }(batchRows)
	for _, size := range []int64{1024, 2048, 4096, 8192} {
		for _, col := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("batch=%d/col=%s", size, tb.Schema()[col].Name), func(b *testing.B) {
				batchRows = size
				cpu0 := cpuTime()
				for b.Loop() {
					scanBytes(b, tb, col, 1)
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/(float64(b.N)*benchRows), "cpu-ns/row")
			})
		}
	}
}
