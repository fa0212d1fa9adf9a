// Command pqcheck writes a Parquet file with b2sql's writer and checks that
// DuckDB reads it back: the same values (aggregates computed in Go while
// generating), and a footer with statistics and bloom filters where the
// writer promises them (parquet_metadata). It exits 1 on any mismatch.
//
//	cd bench && go run ./cmd/pqcheck [-rows 300000] [-out /tmp/pqcheck.parquet]
//
// With -nested it checks nested columns (LIST, STRUCT, MAP) instead: DuckDB
// writes a file of them with NULLs and empty lists at every level, b2sql
// copies it and every nested file of the parquet-testing corpus, and DuckDB
// must read each nested column of each copy with the type and the text of
// every row of the original.
//
//	cd bench && go run ./cmd/pqcheck -nested [-rows 300000] [-corpus DIR]
package main

import (
	dsql "database/sql"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/parquet"
)

var schema = columnar.Schema{
	{Name: "id", Type: columnar.TInt64},                      // sorted: DELTA, no bloom filter
	{Name: "user_id", Type: columnar.TInt32},                 // random: plain, bloom filter
	{Name: "category", Type: columnar.TVarchar},              // 100 values: dictionary, bloom filter
	{Name: "title", Type: columnar.TVarchar},                 // unique: plain, bloom filter
	{Name: "price", Type: columnar.TFloat64, Nullable: true}, // NULL every 10th row
	{Name: "flag", Type: columnar.TBool},                     //
	{Name: "day", Type: columnar.TDate},                      //
	{Name: "ts", Type: columnar.TTimestamp},                  //
	{Name: "amount", Type: columnar.DecimalType(10, 2)},      //
}

// want is what the generator wrote, summed in Go.
type want struct {
	rows, sumUser, nullPrice, flags, sumCents int64
	sumPrice                                  float64
}

func userOf(i int64) int64      { return i * 2654435761 % 1_000_003 }
func categoryOf(i int64) string { return fmt.Sprintf("cat_%02d", i*7919%100) }

func write(path string, n int64) (want, error) {
	var w want
	pw, err := parquet.NewWriter(path, schema, parquet.WriterOptions{})
	if err != nil {
		return w, err
	}
	types := make([]columnar.Type, len(schema))
	for i, f := range schema {
		types[i] = f.Type
	}
	const batch = 4096
	b := columnar.NewBatch(types, batch)
	for first := int64(0); first < n; first += batch {
		b.Len = int(min(batch, n-first))
		b.Cols[4].Valid = nil
		for j := 0; j < b.Len; j++ {
			i := first + int64(j)
			b.Cols[0].Ints[j] = i
			b.Cols[1].Ints[j] = userOf(i)
			b.Cols[2].Bytes[j] = []byte(categoryOf(i))
			b.Cols[3].Bytes[j] = fmt.Appendf(nil, "title %d %x", i, i*2654435761)
			if i%10 == 3 {
				b.Cols[4].SetNull(j, batch)
				w.nullPrice++
			} else {
				p := float64(i%100000) / 100
				b.Cols[4].Floats[j] = p
				w.sumPrice += p
			}
			b.Cols[5].Bools[j] = i%3 == 0
			b.Cols[6].Ints[j] = 19_000 + i/10_000
			b.Cols[7].Ints[j] = 1_704_067_200_000_000 + i*1_000_003
			b.Cols[8].Ints[j] = i%1000*7 - 3000
			w.rows++
			w.sumUser += userOf(i)
			if i%3 == 0 {
				w.flags++
			}
			w.sumCents += i%1000*7 - 3000
		}
		if err := pw.Write(b); err != nil {
			pw.Abort()
			return w, err
		}
	}
	return w, pw.Close()
}

func main() {
	rows := flag.Int64("rows", 300_000, "rows to write")
	out := flag.String("out", os.TempDir()+"/pqcheck.parquet", "file to write")
	nested := flag.Bool("nested", false, "check nested columns instead: DuckDB reads b2sql's copies of a DuckDB-written file and of the corpus")
	corpus := flag.String("corpus", "../../shared/parquet-testing/files", "with -nested: the parquet-testing files to copy too (\"\" for none)")
	flag.Parse()
	if *nested {
		db, err := dsql.Open("duckdb", "")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer db.Close()
		if !checkNested(db, *corpus, os.TempDir(), *rows) {
			os.Exit(1)
		}
		return
	}
	w, err := write(*out, *rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	db, err := dsql.Open("duckdb", "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()
	failed := false
	check := func(what string, got, want any) {
		ok := fmt.Sprint(got) == fmt.Sprint(want)
		if f, isF := got.(float64); isF {
			wf := want.(float64)
			ok = math.Abs(f-wf) <= 1e-9*math.Abs(wf)
		}
		status := "ok"
		if !ok {
			status, failed = "MISMATCH", true
		}
		fmt.Printf("%-40s %-8s got %v want %v\n", what, status, got, want)
	}
	q := func(query string, dest ...any) {
		if err := db.QueryRow(strings.ReplaceAll(query, "$F", "'"+*out+"'")).Scan(dest...); err != nil {
			fmt.Fprintf(os.Stderr, "duckdb: %s: %v\n", query, err)
			os.Exit(1)
		}
	}
	var n, sumUser, nullPrice, flags int64
	var sumPrice, sumAmount float64
	q(`SELECT count(*), sum(user_id), count(*) - count(price), sum(price), count(*) FILTER (WHERE flag), sum(amount)::DOUBLE FROM read_parquet($F)`,
		&n, &sumUser, &nullPrice, &sumPrice, &flags, &sumAmount)
	check("rows", n, w.rows)
	check("sum(user_id)", sumUser, w.sumUser)
	check("NULL prices", nullPrice, w.nullPrice)
	check("sum(price)", sumPrice, w.sumPrice)
	check("flags", flags, w.flags)
	check("sum(amount)", sumAmount, float64(w.sumCents)/100)
	var title, category string
	q(`SELECT title, category FROM read_parquet($F) WHERE id = 123`, &title, &category)
	check("row 123 title", title, fmt.Sprintf("title %d %x", 123, 123*2654435761))
	check("row 123 category", category, categoryOf(123))
	var day, ts string
	q(`SELECT day::VARCHAR, ts::VARCHAR FROM read_parquet($F) WHERE id = 0`, &day, &ts)
	check("row 0 day", day, "2022-01-08")
	check("row 0 ts", ts, "2024-01-01 00:00:00")

	// The footer as DuckDB sees it: statistics on every chunk, bloom
	// filters on user_id, category and title, none on the DELTA id.
	rowsDB, err := db.Query(strings.ReplaceAll(`SELECT path_in_schema, count(*), count(stats_min_value), count(bloom_filter_offset), string_agg(DISTINCT encodings, '|')
		FROM parquet_metadata($F) GROUP BY 1 ORDER BY 1`, "$F", "'"+*out+"'"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bloomWanted := map[string]bool{"user_id": true, "category": true, "title": true}
	for rowsDB.Next() {
		var col, encs string
		var chunks, withStats, withBloom int64
		if err := rowsDB.Scan(&col, &chunks, &withStats, &withBloom, &encs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("  %-9s chunks=%d stats=%d bloom=%d encodings=%s\n", col, chunks, withStats, withBloom, encs)
		check(col+": chunks with statistics", withStats, chunks)
		if bloomWanted[col] {
			check(col+": chunks with a bloom filter", withBloom, chunks)
		} else if col == "id" {
			check(col+": chunks with a bloom filter", withBloom, int64(0))
		}
	}
	rowsDB.Close()
	var c int64
	q(`SELECT count(*) FROM read_parquet($F) WHERE category = 'cat_42'`, &c)
	check("category = 'cat_42'", c, w.rows/100)
	if failed {
		os.Exit(1)
	}
	fmt.Println("DuckDB reads the file b2sql wrote:", *out)
}
