// Command analytics is a starting point for an analytics script with the
// embedded b2sql engine: open a directory of Parquet files, run a few
// reports (streamed rows scanned into structs, a prepared statement reused
// with parameters, an Arrow reader), all under one context that Ctrl-C or a
// timeout cancels.
//
// The reports use the schema of the demo "events" table (see package
// demo); without -data the program generates one in a temporary
// directory. Copy this file and replace the queries with yours.
//
//	go run ./examples/analytics -rows 1000000
//	go run ./examples/analytics -data path/to/parquet/dir -threads 4
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
)

func main() {
	data := flag.String("data", "", "directory of Parquet files (default: generate the demo events table)")
	rows := flag.Int64("rows", 200_000, "rows of the generated demo table, without -data")
	threads := flag.Int("threads", 0, "query parallelism (0: every CPU)")
	timeout := flag.Duration("timeout", time.Minute, "give up after this long")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()

	dir := *data
	if dir == "" {
		tmp, err := os.MkdirTemp("", "b2sql-analytics-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		if err := demo.Generate(filepath.Join(tmp, "events.parquet"), *rows); err != nil {
			log.Fatal(err)
		}
		dir = tmp
	}
	if err := run(ctx, os.Stdout, dir, *threads); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			log.Fatalf("stopped: %v", err)
		}
		log.Fatal(err)
	}
}

// run prints every report for the tables in dir to w.
func run(ctx context.Context, w io.Writer, dir string, threads int) error {
	db, err := b2sql.Open(dir, b2sql.WithThreads(threads), b2sql.WithReadOnly())
	if err != nil {
		return err
	}
	defer db.Close()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	defer tw.Flush()

	if err := overview(ctx, tw, db); err != nil {
		return err
	}
	if err := topCategories(ctx, tw, db, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), 5); err != nil {
		return err
	}
	if err := perRegion(ctx, tw, db, 3); err != nil {
		return err
	}
	return priceStats(ctx, tw, db)
}

// overview prints every table with its row count.
func overview(ctx context.Context, w io.Writer, db *b2sql.DB) error {
	fmt.Fprintln(w, "table\trows")
	for _, name := range db.Tables() {
		var n int64
		rows, err := db.Query(ctx, fmt.Sprintf("SELECT count(*) FROM %q", name))
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%d\n", name, n)
	}
	fmt.Fprintln(w)
	return nil
}

// categoryRevenue is one line of the top-categories report.
type categoryRevenue struct {
	Category string
	Orders   int64
	Revenue  float64
	Since    time.Time
}

// topCategories streams the k categories with the most revenue since a
// date into structs; since and k are parameters, never spliced into SQL.
func topCategories(ctx context.Context, w io.Writer, db *b2sql.DB, since time.Time, k int) error {
	rows, err := db.Query(ctx, `
		SELECT category, count(*) AS orders, round(sum(price * qty), 2) AS revenue, min(ts)
		FROM events
		WHERE ts >= ? AND price IS NOT NULL
		GROUP BY category
		ORDER BY revenue DESC
		LIMIT ?`, since, k)
	if err != nil {
		return err
	}
	defer rows.Close()
	fmt.Fprintln(w, "category\torders\trevenue\tfirst order")
	for rows.Next() {
		var c categoryRevenue
		if err := rows.Scan(&c.Category, &c.Orders, &c.Revenue, &c.Since); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%d\t%.2f\t%s\n", c.Category, c.Orders, c.Revenue, c.Since.Format(time.DateTime))
	}
	fmt.Fprintln(w)
	return rows.Err()
}

// perRegion runs one prepared statement for several regions.
func perRegion(ctx context.Context, w io.Writer, db *b2sql.DB, regions int) error {
	st, err := db.Prepare("SELECT count(*), avg(temperature) FROM events WHERE region = ?")
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintln(w, "region\tevents\tavg temperature")
	for r := range regions {
		rows, err := st.Query(ctx, r)
		if err != nil {
			return err
		}
		var n int64
		var avg float64
		for rows.Next() {
			if err := rows.Scan(&n, &avg); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d\t%d\t%.2f\n", r, n, avg)
	}
	fmt.Fprintln(w)
	return nil
}

// priceStats reads the price column as Arrow batches, as a program handing
// data to an Arrow-based library would.
func priceStats(ctx context.Context, w io.Writer, db *b2sql.DB) error {
	rows, err := db.Query(ctx, "SELECT price FROM events")
	if err != nil {
		return err
	}
	rr := rows.RecordReader()
	defer rr.Release()
	var n, nulls int64
	var sum float64
	for rr.Next() {
		col := rr.RecordBatch().Column(0).(*array.Float64)
		for i := range col.Len() {
			if col.IsNull(i) {
				nulls++
				continue
			}
			sum += col.Value(i)
			n++
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	fmt.Fprintln(w, "prices\tnulls\tmean")
	mean := 0.0
	if n > 0 {
		mean = sum / float64(n)
	}
	fmt.Fprintf(w, "%d\t%d\t%.2f\n", n, nulls, mean)
	return nil
}
