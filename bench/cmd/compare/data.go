package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/demo"
)

// ensureData makes sure path holds the demo events table with rows rows,
// generating it when it is missing or has another row count. demo.Generate
// writes a temporary file and renames it, so an interrupted generation never
// leaves a short file behind to be benchmarked.
func ensureData(ctx context.Context, duck *duckEngine, path string, rows int64) error {
	if _, err := os.Stat(path); err == nil {
		var have int64
		err := duck.conn.QueryRowContext(ctx,
			"SELECT count(*) FROM read_parquet("+sqlString(path)+")").Scan(&have)
		if err == nil && have == rows {
			return nil
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "compare: %s unreadable (%v); regenerating\n", path, err)
		} else {
			fmt.Fprintf(os.Stderr, "compare: %s has %d rows, want %d; regenerating\n", path, have, rows)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "compare: generating %d rows into %s\n", rows, path)
	start := time.Now()
	if err := demo.Generate(path, rows); err != nil {
		return fmt.Errorf("generate %s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "compare: generated in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// ensureB2D makes sure path holds a CTable copy of the Parquet events file
// src, writing it with b2sql's COPY … TO when path is missing (the writer
// publishes the table only when complete).
func ensureB2D(ctx context.Context, path, src string, threads int) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	db, err := b2sql.Open("", b2sql.WithThreads(threads))
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(os.Stderr, "compare: writing %s from %s\n", path, src)
	start := time.Now()
	if err := db.Exec(ctx, "COPY (SELECT * FROM "+sqlString(src)+") TO "+sqlString(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fmt.Fprintf(os.Stderr, "compare: written in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
