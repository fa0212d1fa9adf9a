package differential

import (
	"context"
	stdsql "database/sql"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/b2sql/b2sql"
	_ "modernc.org/sqlite"
)

var (
	flagN      = flag.Int("differential.n", 0, "number of random queries (default 300, or $B2SQL_DIFFERENTIAL_N)")
	flagSeed   = flag.Uint64("differential.seed", 1, "seed of the data and the queries")
	flagOnly   = flag.Int("differential.only", -1, "run only the query with this number")
	flagDump   = flag.Bool("differential.dump", false, "print the generated tables as SQL")
	flagStrict = flag.Bool("differential.strict", false, "count queries b2sql refuses as unsupported as mismatches")
	flagDir    = flag.String("differential.dir", "", "write the tables' files into this directory (kept), not a temporary one")
)

// queriesPerDataset is how many queries run against one set of tables
// before new tables are generated (with the next data seed).
const queriesPerDataset = 100

func numQueries() int {
	if *flagN > 0 {
		return *flagN
	}
	if s := os.Getenv("B2SQL_DIFFERENTIAL_N"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	if testing.Short() {
		return 100
	}
	return 300
}

// engines is one generated dataset loaded into SQLite and into b2sql,
// the latter twice: as Parquet files and as CTables.
type engines struct {
	tables  []*table
	lite    *stdsql.DB
	parquet *b2sql.DB
	ctable  *b2sql.DB
}

func (e *engines) close() {
	e.lite.Close()
	e.parquet.Close()
	e.ctable.Close()
}

// setup generates the tables of dataSeed and loads them everywhere.
func setup(t *testing.T, dataSeed uint64) *engines {
	t.Helper()
	r := rand.New(rand.NewPCG(dataSeed, 7))
	tables := makeTables(dataSeed, 60+r.IntN(200))
	dir := t.TempDir()
	if *flagDir != "" {
		dir = filepath.Join(*flagDir, fmt.Sprint(dataSeed))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lite, err := stdsql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	lite.SetMaxOpenConns(1) // one connection: one in-memory database
	if _, err := lite.Exec("PRAGMA case_sensitive_like = ON"); err != nil {
		t.Fatal(err)
	}
	pq, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	ct, err := b2sql.Open("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if err := loadSQLite(lite, tb); err != nil {
			t.Fatalf("sqlite: %v", err)
		}
		path, err := writeParquet(tb, dir, 16+r.IntN(64))
		if err != nil {
			t.Fatal(err)
		}
		if err := pq.RegisterTable(tb.name, path); err != nil {
			t.Fatal(err)
		}
		b2 := filepath.Join(dir, tb.name+".b2d")
		copyTo := fmt.Sprintf("COPY (SELECT * FROM %s) TO '%s'", tb.name, b2)
		if err := pq.Exec(context.Background(), copyTo); err != nil {
			t.Fatalf("%s: %v", copyTo, err)
		}
		if err := ct.RegisterTable(tb.name, b2); err != nil {
			t.Fatal(err)
		}
	}
	if *flagDump {
		for _, tb := range tables {
			t.Log("\n" + tb.dump())
		}
	}
	return &engines{tables: tables, lite: lite, parquet: pq, ctable: ct}
}

func runSQLite(db *stdsql.DB, q string) ([][]cell, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]cell
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]cell, len(cols))
		for i, v := range vals {
			row[i] = fromSQLite(v)
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

func runB2(db *b2sql.DB, q string) (out [][]cell, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	rows, err := db.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		vals := rows.Values()
		row := make([]cell, len(vals))
		for i, v := range vals {
			row[i] = fromB2(v)
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// settingsFor varies the b2sql session per query: pruning on or off and
// one or two threads, so that a fast path that changes a result shows.
func settingsFor(i int) string {
	return fmt.Sprintf("SET pruning = %s; SET threads = %d", []string{"on", "off"}[i%2], 1+(i/2)%2)
}

func TestDifferential(t *testing.T) {
	n := numQueries()
	seed := *flagSeed
	var e *engines
	defer func() {
		if e != nil {
			e.close()
		}
	}()
	counts := map[string]int{}
	unsupported := map[string]int{}
	failed := 0
	for i := range n {
		if i%queriesPerDataset == 0 || e == nil {
			first := i - i%queriesPerDataset
			if *flagOnly >= 0 && (*flagOnly < first || *flagOnly >= first+queriesPerDataset) {
				continue
			}
			if e != nil {
				e.close()
			}
			e = setup(t, seed+uint64(i/queriesPerDataset))
		}
		g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i))), tables: map[string]*table{}}
		for _, tb := range e.tables {
			g.tables[tb.name] = tb
		}
		q := g.query()
		if *flagOnly >= 0 && i != *flagOnly {
			continue
		}
		counts[q.shape]++
		want, err := runSQLite(e.lite, q.sql.s)
		if err != nil {
			t.Errorf("query %d: SQLite rejects a generated query (a generator bug): %v\n%s", i, err, q.sql.s)
			failed++
			continue
		}
		for _, side := range []struct {
			name string
			db   *b2sql.DB
		}{{"parquet", e.parquet}, {"ctable", e.ctable}} {
			if err := side.db.Exec(context.Background(), settingsFor(i)); err != nil {
				t.Fatal(err)
			}
			got, err := runB2(side.db, q.sql.b)
			msg := ""
			if errors.Is(err, b2sql.ErrUnsupported) && !*flagStrict {
				// Refusing is allowed (a wrong answer is not): counted, listed.
				unsupported[err.Error()]++
				break
			}
			if err != nil {
				msg = "b2sql error: " + err.Error()
			} else {
				msg = compareResults(got, want, q.ordered)
			}
			if msg == "" {
				continue
			}
			failed++
			t.Errorf("query %d (%s, %s tables, %s) differs from SQLite: %s\n"+
				"  reproduce: go test ./tests/differential -run TestDifferential -differential.seed=%d -differential.only=%d -differential.n=%d [-differential.dump]\n"+
				"  data: seed %d, %d rows in t1, %d in t2\n  b2sql:  %s\n  SQLite: %s",
				i, q.shape, side.name, settingsFor(i), msg, seed, i, n,
				seed+uint64(i/queriesPerDataset), len(e.tables[0].rows), len(e.tables[1].rows), q.sql.b, q.sql.s)
			break
		}
		if failed >= 20 {
			t.Fatal("stopping after 20 mismatches")
		}
	}
	var parts []string
	total := 0
	for _, s := range shapes {
		parts = append(parts, fmt.Sprintf("%s=%d", s.name, counts[s.name]))
		total += counts[s.name]
	}
	refused := 0
	for msg, k := range unsupported {
		refused += k
		t.Logf("refused as unsupported %d times: %s", k, msg)
	}
	t.Logf("%d queries (%s), each against Parquet and CTable tables; %d refused as unsupported, %d mismatches",
		total, strings.Join(parts, " "), refused, failed)
}
