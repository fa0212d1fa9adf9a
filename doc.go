// Package b2sql is the embedded API of the b2sql query engine: open a
// directory of Parquet (and blosc2) files, a single file, or an in-memory
// database, and run SQL over it with streaming results.
//
//	db, err := b2sql.Open("data/")
//	rows, err := db.Query(ctx, "SELECT category, count(*) FROM events GROUP BY 1")
//	for rows.Next() { fmt.Println(rows.Values()) }
//
// A DB is safe for concurrent use; each Rows is used by one goroutine.
package b2sql
