package b2sql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
)

// exampleDir makes a directory holding events.parquet, the 1,000-row demo
// table (id runs 0..999), and returns it with a cleanup function.
func exampleDir() (string, func()) {
	dir, err := os.MkdirTemp("", "b2sql-example-")
	if err != nil {
		log.Fatal(err)
	}
	if err := demo.Generate(filepath.Join(dir, "events.parquet"), 1000); err != nil {
		log.Fatal(err)
	}
	return dir, func() { os.RemoveAll(dir) }
}

// Open a directory: every Parquet file in it becomes a table named after
// the file. Query streams the result.
func Example() {
	dir, cleanup := exampleDir()
	defer cleanup()

	db, err := b2sql.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(context.Background(), "SELECT count(*), sum(id), min(id), max(id) FROM events")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, sum, lo, hi int64
		if err := rows.Scan(&n, &sum, &lo, &hi); err != nil {
			log.Fatal(err)
		}
		fmt.Println(n, sum, lo, hi)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output: 1000 499500 0 999
}

// Scan each row into the fields of a struct.
func ExampleRows_Scan() {
	dir, cleanup := exampleDir()
	defer cleanup()
	db, err := b2sql.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	type bucket struct {
		ID     int64
		Bucket int32
		Half   float64
		Label  string
	}
	rows, err := db.Query(context.Background(),
		"SELECT id, id % 7, id / 2, 'row ' || id FROM events WHERE id IN (3, 10, 500) ORDER BY id")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var b bucket
		if err := rows.Scan(&b.ID, &b.Bucket, &b.Half, &b.Label); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%+v\n", b)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {ID:3 Bucket:3 Half:1.5 Label:row 3}
	// {ID:10 Bucket:3 Half:5 Label:row 10}
	// {ID:500 Bucket:3 Half:250 Label:row 500}
}

// Read a result as Arrow record batches. BIGINT and DOUBLE columns are
// shared with the engine, not copied: use each record before the next Next.
func ExampleRows_RecordReader() {
	dir, cleanup := exampleDir()
	defer cleanup()
	db, err := b2sql.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(context.Background(), "SELECT id, id * 2 AS twice FROM events")
	if err != nil {
		log.Fatal(err)
	}
	rr := rows.RecordReader() // takes over rows: Release closes them
	defer rr.Release()
	fmt.Println(rr.Schema().Field(0).Name, rr.Schema().Field(0).Type, rr.Schema().Field(1).Name)
	var n, sum int64
	for rr.Next() {
		rec := rr.RecordBatch()
		for _, v := range rec.Column(1).(*array.Int64).Int64Values() {
			sum += v
		}
		n += rec.NumRows()
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, sum)
	// Output:
	// id int64 twice
	// 1000 999000
}

// Use the database/sql driver: import the package (for its side effect
// when nothing else is used) and open a directory by its path, with
// options as query parameters.
func Example_databaseSQL() {
	dir, cleanup := exampleDir()
	defer cleanup()

	db, err := sql.Open("b2sql", dir+"?threads=2&readonly=true")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	var n, sum int64
	err = db.QueryRowContext(context.Background(), "SELECT count(*), sum(id) FROM events WHERE id < 100").Scan(&n, &sum)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, sum)
	// Output: 100 4950
}

// Prepare a statement once and run it with different values for its ?
// markers; a Stmt may be shared by goroutines.
func ExampleDB_Prepare() {
	dir, cleanup := exampleDir()
	defer cleanup()
	db, err := b2sql.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	st, err := db.Prepare("SELECT count(*), sum(id) FROM events WHERE id >= ? AND id < ?")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	for _, r := range [][2]int{{0, 10}, {100, 200}, {990, 2000}} {
		rows, err := st.Query(context.Background(), r[0], r[1])
		if err != nil {
			log.Fatal(err)
		}
		for rows.Next() {
			var n, sum int64
			if err := rows.Scan(&n, &sum); err != nil {
				log.Fatal(err)
			}
			fmt.Printf("[%d, %d): %d rows, sum %d\n", r[0], r[1], n, sum)
		}
		if err := rows.Err(); err != nil {
			log.Fatal(err)
		}
		rows.Close()
	}
	// A wrong argument count is a positioned error.
	_, err = st.Query(context.Background(), 5)
	fmt.Println(err, errors.Is(err, b2sql.ErrParam))
	// Output:
	// [0, 10): 10 rows, sum 45
	// [100, 200): 100 rows, sum 14950
	// [990, 2000): 10 rows, sum 9945
	// line 1:61: statement has 2 parameters, 1 argument given true
}

// Write query results as Parquet: CREATE TABLE … AS registers a new table
// (a file in the DB's directory), COPY … TO writes any file.
func ExampleDB_Exec() {
	dir, cleanup := exampleDir()
	defer cleanup()
	db, err := b2sql.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	err = db.Exec(ctx, `
		CREATE TABLE early AS SELECT id, category FROM events WHERE id < ?;
		COPY (SELECT id FROM early WHERE id % 2 = 0) TO ? (FORMAT parquet)`,
		100, filepath.Join(dir, "even.parquet"))
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(db.Tables())
	// Output: [early events]
}
