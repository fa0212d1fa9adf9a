package tpch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
)

// Format is the output file format.
type Format string

const (
	Parquet Format = "parquet" // <table>.parquet
	B2D     Format = "b2d"     // <table>.b2d CTable directories
)

// Options tune Generate. The zero value means Parquet, GOMAXPROCS
// goroutines and each format's default row group / chunk size.
type Options struct {
	Format  Format
	Threads int
	// RowGroupRows is the Parquet row group size (0: the writer's default,
	// 122,880 rows, DuckDB's). The values do not depend on it.
	RowGroupRows int64
}

// uniqueCols are the mostly-distinct string columns, written without a
// dictionary: it would only cost space, and arrow-go's dictionary fallback
// would make the bytes depend on map order.
var uniqueCols = map[string][]string{
	"region":   {"r_comment"},
	"nation":   {"n_comment"},
	"supplier": {"s_name", "s_address", "s_phone", "s_comment"},
	"customer": {"c_name", "c_address", "c_phone", "c_comment"},
	"part":     {"p_name", "p_comment"},
	"partsupp": {"ps_comment"},
	"orders":   {"o_comment"},
	"lineitem": {"l_comment"},
}

// Path returns the file Generate writes for table in dir.
func Path(dir, table string, f Format) string {
	if f == "" {
		f = Parquet
	}
	return filepath.Join(dir, table+"."+string(f))
}

// job generates one or more tables chunk by chunk: chunk k covers units
// [k·per, (k+1)·per) of total (rows, or parts for partsupp, or orders for
// orders+lineitem) and yields one batch per table.
type job struct {
	id     int // keys the PRNG streams
	tables []string
	total  int64
	per    int64
	gen    func(first, n int64, r *rng) []*columnar.Batch
}

func jobs(sf float64) []job {
	cn := Scale(sf)
	return []job{
		{0, []string{"region"}, 5, 5, genRegion},
		{1, []string{"nation"}, 25, 25, genNation},
		{2, []string{"supplier"}, cn.Supplier, 8192, genSupplier},
		{3, []string{"customer"}, cn.Customer, 8192, genCustomer},
		{4, []string{"part"}, cn.Part, 8192, genPart},
		{5, []string{"partsupp"}, cn.Part, 2048, genPartSupp(cn.Supplier)},
		{6, []string{"orders", "lineitem"}, cn.Orders, 4096, genOrders(cn)},
	}
}

// Generate writes the eight TPC-H tables at scale factor sf into dir (made
// if missing), one file per table named as Path says, each atomically (a
// temporary name renamed into place by its writer).
func Generate(dir string, sf float64, o Options) error {
	if !(sf > 0) {
		return fmt.Errorf("tpch: scale factor must be positive, got %v", sf)
	}
	if o.Format == "" {
		o.Format = Parquet
	}
	if o.Format != Parquet && o.Format != B2D {
		return fmt.Errorf("tpch: unknown format %q (formats: parquet, b2d)", o.Format)
	}
	if o.Threads <= 0 {
		o.Threads = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("tpch: %w", err)
	}
	for _, j := range jobs(sf) {
		if err := run(dir, j, o); err != nil {
			return err
		}
	}
	return nil
}

// tableWriter is what both formats' writers offer.
type tableWriter interface {
	Write(*columnar.Batch) error
	Close() error
}

func create(dir, table string, o Options) (tableWriter, func(), error) {
	path := Path(dir, table, o.Format)
	if o.Format == B2D {
		// A previous run's directory would make the rename fail.
		if err := os.RemoveAll(path); err != nil {
			return nil, nil, fmt.Errorf("tpch: %w", err)
		}
		w, err := ctable.Create(path, Schemas[table], ctable.CreateOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("tpch: %s: %w", table, err)
		}
		return w, func() { w.Abort() }, nil
	}
	w, err := parquet.NewWriter(path, Schemas[table], parquet.WriterOptions{
		RowGroupRows: o.RowGroupRows, NoDictionaryFor: uniqueCols[table]})
	if err != nil {
		return nil, nil, fmt.Errorf("tpch: %s: %w", table, err)
	}
	return w, w.Abort, nil
}

// run generates job j: o.Threads goroutines make chunks, a window of
// 2·Threads chunks in flight bounds memory, and one goroutine per table
// writes the chunks in order.
func run(dir string, j job, o Options) error {
	ws := make([]tableWriter, len(j.tables))
	aborts := make([]func(), len(j.tables))
	abortAll := func() {
		for _, a := range aborts {
			if a != nil {
				a()
			}
		}
	}
	for i, t := range j.tables {
		w, abort, err := create(dir, t, o)
		if err != nil {
			abortAll()
			return err
		}
		ws[i], aborts[i] = w, abort
	}

	type result struct {
		batches []*columnar.Batch
		done    chan struct{}
	}
	type task struct {
		k int64
		r *result
	}
	nchunks := (j.total + j.per - 1) / j.per
	window := 2 * o.Threads
	results := make(chan *result, window)
	work := make(chan task, window)
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }

	var gen sync.WaitGroup
	for range o.Threads {
		gen.Add(1)
		go func() {
			defer gen.Done()
			for t := range work {
				first := t.k * j.per
				t.r.batches = j.gen(first, min(j.per, j.total-first), streamRNG(j.id, t.k))
				close(t.r.done)
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(results)
		for k := range nchunks {
			r := &result{done: make(chan struct{})}
			select {
			case results <- r:
			case <-stop:
				return
			}
			work <- task{k, r}
		}
	}()

	// One writer goroutine per table, so that orders and lineitem encode
	// and compress in parallel.
	feeds := make([]chan *columnar.Batch, len(ws))
	errs := make([]error, len(ws))
	var write sync.WaitGroup
	for i, w := range ws {
		feeds[i] = make(chan *columnar.Batch, 1)
		write.Add(1)
		go func() {
			defer write.Done()
			for b := range feeds[i] {
				if errs[i] == nil {
					if errs[i] = w.Write(b); errs[i] != nil {
						halt()
					}
				}
			}
		}()
	}
	for r := range results {
		<-r.done
		for i, b := range r.batches {
			feeds[i] <- b
		}
	}
	for _, f := range feeds {
		close(f)
	}
	write.Wait()
	gen.Wait()
	if err := errors.Join(errs...); err != nil {
		abortAll()
		return fmt.Errorf("tpch: %w", err)
	}
	for i, w := range ws {
		if err := w.Close(); err != nil {
			for _, a := range aborts[i+1:] {
				a()
			}
			return fmt.Errorf("tpch: %s: %w", j.tables[i], err)
		}
	}
	return nil
}

// Stream calls fn with the batches of table at scale factor sf, in order,
// exactly as Generate writes them, without writing anything: for tests and
// tools that check answers against the rows themselves. A batch is valid
// only during its call.
func Stream(sf float64, table string, fn func(*columnar.Batch) error) error {
	if !(sf > 0) {
		return fmt.Errorf("tpch: scale factor must be positive, got %v", sf)
	}
	for _, j := range jobs(sf) {
		for i, t := range j.tables {
			if t != table {
				continue
			}
			for k := int64(0); k*j.per < j.total; k++ {
				first := k * j.per
				if err := fn(j.gen(first, min(j.per, j.total-first), streamRNG(j.id, k))[i]); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("tpch: unknown table %q", table)
}
