package demo

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
)

// Schema is the schema of the events table.
var Schema = columnar.Schema{
	{Name: "id", Type: columnar.TInt64},
	{Name: "ts", Type: columnar.TTimestamp},
	{Name: "user_id", Type: columnar.TInt32},
	{Name: "region", Type: columnar.TInt16},
	{Name: "category", Type: columnar.TVarchar},
	{Name: "title", Type: columnar.TVarchar},
	{Name: "price", Type: columnar.TFloat64, Nullable: true},
	{Name: "qty", Type: columnar.TInt32},
	{Name: "temperature", Type: columnar.TFloat64},
	{Name: "flag", Type: columnar.TBool},
}

// Column positions in Schema.
const (
	colID = iota
	colTS
	colUser
	colRegion
	colCategory
	colTitle
	colPrice
	colQty
	colTemp
	colFlag
)

const (
	seed      = 0x62327371_6c646d6f                      // "b2sqldmo"
	startTS   = 1_704_067_200 * columnar.MicrosPerSecond // 2024-01-01 00:00:00 UTC
	spanTS    = 365 * columnar.MicrosPerDay
	jitterTS  = 5 * 60 * columnar.MicrosPerSecond
	regions   = 20
	cats      = 100
	nullPrice = 0.01
	flagTrue  = 0.3
)

// Option tunes Generate.
type Option func(*config)

type config struct {
	threads      int
	rowGroupRows int64
}

// Threads sets the number of generating goroutines (default GOMAXPROCS).
// The output does not depend on it.
func Threads(n int) Option { return func(c *config) { c.threads = n } }

// RowGroupRows sets the rows per row group (default 122,880, DuckDB's).
// The values do not depend on it, the file layout does.
func RowGroupRows(n int64) Option { return func(c *config) { c.rowGroupRows = n } }

// Generate writes the events table with rows rows to path, atomically (a
// temporary file renamed into place). Memory use is bounded by a few row
// groups per goroutine whatever the row count.
func Generate(path string, rows int64, opts ...Option) error {
	if rows < 0 {
		return fmt.Errorf("demo: negative row count %d", rows)
	}
	cfg := config{threads: runtime.GOMAXPROCS(0), rowGroupRows: parquet.DefaultRowGroupRows}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.threads = max(cfg.threads, 1)
	if cfg.rowGroupRows <= 0 {
		cfg.rowGroupRows = parquet.DefaultRowGroupRows
	}
	// The writer picks dictionaries and compression per column from the
	// first row group: plain for id, ts, title, user_id and price.
	w, err := parquet.NewWriter(path, Schema, parquet.WriterOptions{RowGroupRows: cfg.rowGroupRows})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	// Chunks are generated in parallel and written in order; the window of
	// chunks in flight bounds memory.
	nchunks := (rows + cfg.rowGroupRows - 1) / cfg.rowGroupRows
	type result struct {
		b  *columnar.Batch
		ch chan struct{}
	}
	window := int64(2 * cfg.threads)
	results := make(chan *result, window)
	work := make(chan struct {
		k int64
		r *result
	}, window)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range cfg.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := newGenerator(rows)
			for job := range work {
				first := job.k * cfg.rowGroupRows
				job.r.b = g.chunk(first, min(cfg.rowGroupRows, rows-first))
				close(job.r.ch)
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(results)
		for k := int64(0); k < nchunks; k++ {
			r := &result{ch: make(chan struct{})}
			select {
			case results <- r:
			case <-stop:
				return
			}
			work <- struct {
				k int64
				r *result
			}{k, r}
		}
	}()
	var werr error
	for r := range results {
		<-r.ch
		if werr == nil {
			werr = w.Write(r.b)
			if werr != nil {
				close(stop)
			}
		}
	}
	wg.Wait()
	if werr != nil {
		w.Abort()
		return fmt.Errorf("demo: %w", werr)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	return nil
}

// EnsureCached returns the path of the demo file with rows rows under the
// user cache directory (<cache>/b2sql/demo/events-<rows>.parquet),
// generating it on first use. Concurrent callers, in one process or
// several, may both generate it; each renames a complete file into place,
// and the files are identical, so readers never see a partial file.
func EnsureCached(rows int64) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	dir := filepath.Join(cache, "b2sql", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	path := filepath.Join(dir, "events-"+strconv.FormatInt(rows, 10)+".parquet")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("demo: %w", err)
	}
	if err := Generate(path, rows); err != nil {
		return "", err
	}
	return path, nil
}

// rng is SplitMix64: tiny, fast, and fixed forever, unlike the derived
// methods of math/rand, so the dataset never changes under a new Go.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float returns a uniform float64 in [0, 1).
func (r *rng) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// intn returns a uniform int in [0, n) (multiply-shift; the bias is below
// 2^-32 for the small n used here).
func (r *rng) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// normal returns a standard normal variate (Box-Muller, one of the pair).
func (r *rng) normal() float64 {
	u1 := 1 - r.float() // (0, 1]: log stays finite
	u2 := r.float()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// Tables shared by all generators (read-only).
var (
	regionCDF = cdf(regions, func(k int) float64 { return math.Pow(0.8, float64(k)) })
	catCDF    = cdf(cats, func(k int) float64 { return 1 / math.Pow(float64(k+1), 1.1) })
	catNames  = func() [][]byte {
		out := make([][]byte, cats)
		for k := range out {
			out[k] = fmt.Appendf(nil, "cat_%03d", k)
		}
		return out
	}()
	words = []string{
		"alpha", "amber", "anchor", "apple", "arrow", "autumn", "basin", "beacon",
		"berry", "blue", "bold", "breeze", "bridge", "bright", "canyon", "cedar",
		"cloud", "copper", "coral", "crystal", "dawn", "delta", "desert", "dune",
		"eagle", "echo", "ember", "falcon", "fern", "field", "forest", "frost",
		"garden", "glacier", "golden", "granite", "harbor", "hazel", "horizon", "island",
		"jade", "lake", "lantern", "lunar", "maple", "meadow", "mist", "mountain",
		"north", "ocean", "orchid", "pearl", "pine", "prairie", "quartz", "river",
		"sage", "shadow", "silver", "stone", "summit", "thunder", "valley", "willow",
	}
)

// cdf returns the cumulative distribution of weights w(0..n-1), normalized.
func cdf(n int, w func(int) float64) []float64 {
	out := make([]float64, n)
	sum := 0.0
	for k := range out {
		sum += w(k)
		out[k] = sum
	}
	for k := range out {
		out[k] /= sum
	}
	out[n-1] = 1
	return out
}

// pick draws an index from a CDF.
func pick(c []float64, u float64) int {
	return min(sort.SearchFloat64s(c, u), len(c)-1)
}

// generator produces chunks of the table; one per goroutine.
type generator struct {
	rows  int64
	types []columnar.Type
}

func newGenerator(rows int64) *generator {
	g := &generator{rows: rows, types: make([]columnar.Type, len(Schema))}
	for i, f := range Schema {
		g.types[i] = f.Type
	}
	return g
}

// streamRows is the number of rows drawn from one PRNG stream. Streams are
// keyed by their block number, so that any range of rows can be generated
// independently: values depend neither on the row group size nor on which
// goroutine made them.
const streamRows = 4096

// chunk generates rows [first, first+n). The batch is freshly allocated:
// the writer may still hold the previous one.
func (g *generator) chunk(first, n int64) *columnar.Batch {
	b := columnar.NewBatch(g.types, int(n))
	b.Len = int(n)
	var r rng
	// A chunk starting inside a block replays the block's first rows into
	// a scratch batch: draws per row vary (titles), so a stream cannot be
	// skipped ahead arithmetically.
	if skip := first % streamRows; skip != 0 {
		r = blockRNG(first / streamRows)
		scratch := columnar.NewBatch(g.types, int(skip))
		g.fill(scratch, first-skip, skip, &r)
	}
	g.fill(b, first, n, &r)
	return b
}

func blockRNG(block int64) rng {
	r := rng{s: seed ^ uint64(block)*0xd1342543de82ef95}
	r.next()
	return r
}

// fill generates rows [first, first+n) into b, switching to a new stream at
// each block boundary; r carries the stream of a block already started.
func (g *generator) fill(b *columnar.Batch, first, n int64, r *rng) {
	ids, ts, users := b.Cols[colID].Ints, b.Cols[colTS].Ints, b.Cols[colUser].Ints
	regs, qty := b.Cols[colRegion].Ints, b.Cols[colQty].Ints
	catv, titles := b.Cols[colCategory].Bytes, b.Cols[colTitle].Bytes
	price, temp, flag := b.Cols[colPrice], b.Cols[colTemp].Floats, b.Cols[colFlag].Bools
	arena := make([]byte, 0, n*56)
	for j := int64(0); j < n; j++ {
		i := first + j
		if i%streamRows == 0 {
			*r = blockRNG(i / streamRows)
		}
		ids[j] = i
		// base = start + i·span/rows in exact 128-bit integer arithmetic,
		// so the timestamps cannot depend on float rounding.
		hi, lo := bits.Mul64(uint64(i), spanTS)
		q, _ := bits.Div64(hi, lo, uint64(g.rows))
		base := startTS + int64(q)
		t := base + int64(r.intn(2*jitterTS+1)) - jitterTS
		t -= t % columnar.MicrosPerSecond
		ts[j] = max(t, startTS)
		users[j] = int64(r.intn(1_000_000))
		regs[j] = int64(pick(regionCDF, r.float()))
		catv[j] = catNames[pick(catCDF, r.float())]
		start := len(arena)
		arena = appendTitle(arena, r)
		titles[j] = arena[start:len(arena):len(arena)]
		if r.float() < nullPrice {
			price.SetNull(int(j), int(n))
			r.next() // keep the stream aligned whether or not price is NULL
		} else {
			price.Floats[j] = float64(r.intn(100_001)) / 100
		}
		qty[j] = int64(r.intn(101))
		temp[j] = math.Round((20+8*r.normal())*100) / 100
		flag[j] = r.float() < flagTrue
	}
}

// appendTitle appends a title of 20 to 80 bytes made of words.
func appendTitle(dst []byte, r *rng) []byte {
	start := len(dst)
	target := 20 + r.intn(61)
	for len(dst)-start < target {
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = append(dst, words[r.intn(len(words))]...)
	}
	if len(dst)-start > 80 {
		dst = dst[:start+80]
		for dst[len(dst)-1] == ' ' {
			dst = dst[:len(dst)-1]
		}
	}
	dst[start] -= 'a' - 'A'
	return dst
}
