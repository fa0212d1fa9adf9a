package csv

import (
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b2sql/b2sql/index"
)

func TestLocalFile(t *testing.T) {
	p := os.Getenv("CSV_FILE")
	if p == "" {
		t.Skip()
	}
	t0 := time.Now()
	tb, err := Open([]string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("open %v schema %s", time.Since(t0), schemaText(tb.Schema()))
	for _, cols := range [][]int{{}, {6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		t0 = time.Now()
		units, _ := tb.ScanUnits(context.Background(), index.ScanSpec{Cols: cols})
		var next atomic.Int64
		var rows atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k := next.Add(1) - 1
					if int(k) >= len(units) {
						return
					}
					r, err := units[k](context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					for {
						b, err := r.Next(context.Background())
						if err == io.EOF {
							break
						}
						if err != nil {
							t.Error(err)
							return
						}
						rows.Add(int64(b.Live()))
					}
					r.Close()
				}
			}()
		}
		wg.Wait()
		t.Logf("cols %v: %d rows in %v", cols, rows.Load(), time.Since(t0))
	}
}
