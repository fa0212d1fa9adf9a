package main

// -remote: b2sql over the same files on an in-process S3 server
// (storagetest.StartS3, gofakes3 on 127.0.0.1) against b2sql over the
// local files, instead of against DuckDB (whose build here has no httpfs).
// Every remote table is registered again before each run of a query
// (freshEngine), so that each run opens its objects afresh and pays for
// their footers and metadata, as a query of a new session would. The
// server sends a small object whole for a suffix range longer than it, as
// S3 does (gofakes3 refuses it, which would cost every query a second
// round trip to open nation and region). Per query the report gives both median
// times, their ratio, the requests and bytes the server counted per run
// and the bytes as a share of all the files' size, and whether the answers
// agree; then again with each request delayed by -latency, where the last
// column says how many round trips the remote time is above twice the
// local time.

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/bench/internal/proc"
	"github.com/b2sql/b2sql/storage/storagetest"
)

// runRemote measures qs over tables locally and from S3, with no added
// latency and then with o.latency per request.
func runRemote(ctx context.Context, o options, w io.Writer, qs []query, tables map[string]string) error {
	srv, err := storagetest.StartS3("bench")
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.WholeOnLongSuffix.Store(true)
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	var size int64
	names := make([]string, 0, len(tables))
	for t := range tables {
		names = append(names, t)
	}
	sort.Strings(names)
	remoteTables := map[string]string{}
	for _, t := range names {
		key := t + filepath.Ext(tables[t])
		n, err := putTree(srv, key, tables[t])
		if err != nil {
			return err
		}
		size += n
		remoteTables[t] = "s3://bench/" + key
	}
	local, err := openB2SQL(ctx, "b2sql local", tables, o.threads)
	if err != nil {
		return err
	}
	defer local.Close()
	db, err := b2sql.Open("", b2sql.WithThreads(o.threads))
	if err != nil {
		return err
	}
	base := &b2sqlEngine{name: "b2sql s3", db: db}
	defer base.Close()
	if _, err := base.Drain(ctx, srv.CreateSecret()); err != nil {
		return fmt.Errorf("CREATE SECRET: %w", err)
	}
	remote := &freshEngine{b2sqlEngine: base, tables: remoteTables}

	fmt.Fprintf(w, "b2sql over local files vs b2sql over the same files on an in-process S3 server (gofakes3, 127.0.0.1)\n")
	fmt.Fprintf(w, "data: %s, %s in %d files; threads %d; runs %d after a warm-up; load %s\n\n",
		dataName(o), fmtBytes(size), len(tables), o.threads, o.runs, proc.LoadAvg())
	locals := make([]measurement, len(qs))
	for i, q := range qs {
		locals[i] = measure(ctx, local, q, o)
		fmt.Fprintf(os.Stderr, "[%d/%d] %-20s local %s\n", i+1, len(qs), q.Name, fmtDur(locals[i].wall))
	}
	var trace *os.File
	if o.trace != "" {
		if trace, err = os.Create(o.trace); err != nil {
			return err
		}
		defer trace.Close()
		fmt.Fprintln(trace, "query\tstart_ms\ttook_ms\tbytes\tmethod\trange\tpath")
	}
	for _, lat := range []time.Duration{0, o.latency} {
		srv.SetLatency(lat)
		fmt.Fprintf(w, "### S3 with %s added per request\n\n", lat)
		fmt.Fprintln(w, "| query | local | s3 | s3/local | requests | fetched | of data | s3 − 2×local, in round trips | agree |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---|")
		for i, q := range qs {
			srv.Reset()
			if trace != nil && lat > 0 {
				traceQuery(srv, trace, q.Name)
			}
			m := measure(ctx, remote, q, o)
			srv.SetTrace(nil)
			lm := locals[i]
			if m.err != nil || lm.err != nil {
				fmt.Fprintf(w, "| %s | %s | error: %v | | | | | | |\n", q.Name, fmtDur(lm.wall), firstLine(fmt.Sprint(m.err, lm.err)))
				continue
			}
			runs := int64(m.runs + 1) // the warm-up fetched too
			reqs, bytes := srv.Requests.Load()/runs, srv.Bytes.Load()/runs
			agree := "yes"
			if d := diff(lm.res, m.res, q.Ordered, "local", "s3"); d != "" {
				agree = "NO: " + firstLine(d)
			}
			rtts := "—"
			if lat > 0 {
				rtts = fmt.Sprintf("%.1f", max(0, float64(m.wall-2*lm.wall))/float64(lat))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %.2f | %d | %s | %.2f%% | %s | %s |\n",
				q.Name, fmtDur(lm.wall), fmtDur(m.wall), float64(m.wall)/float64(max(lm.wall, 1)),
				reqs, fmtBytes(bytes), 100*float64(bytes)/float64(size), rtts, agree)
			fmt.Fprintf(os.Stderr, "[%d/%d] %-20s s3+%s %s, %d requests, %s\n", i+1, len(qs), q.Name, lat, fmtDur(m.wall), reqs, fmtBytes(bytes))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "load at the end: %s\n", proc.LoadAvg())
	return nil
}

// putTree stores the file at path as the object key, or, for a directory
// (a CTable .b2d), each file under it as key/relative-path, and returns
// the bytes stored.
func putTree(srv *storagetest.S3, key, path string) (int64, error) {
	var size int64
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		k := key
		if rel != "." {
			k = key + "/" + filepath.ToSlash(rel)
		}
		size += int64(len(data))
		return srv.PutBytes(k, data)
	})
	return size, err
}

// traceQuery has srv write each request it serves to w, one line each,
// times in milliseconds from now (the query's first run).
func traceQuery(srv *storagetest.S3, w io.Writer, name string) {
	var mu sync.Mutex
	t0 := time.Now()
	srv.SetTrace(func(r storagetest.Request) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%d\t%s\t%s\t%s\n", name, float64(r.Start.Sub(t0))/1e6, float64(r.Took)/1e6, r.Bytes, r.Method, r.Range, r.Path)
	})
}

func dataName(o options) string {
	if o.suite == "tpch" {
		return fmt.Sprintf("TPC-H SF %g (Parquet)", o.sf)
	}
	if o.b2d != "" {
		return fmt.Sprintf("events, %d rows (CTable %s)", o.rows, filepath.Base(o.b2d))
	}
	return fmt.Sprintf("events, %d rows (Parquet)", o.rows)
}

func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// freshEngine registers its tables again before every query, so that each
// query opens them anew (their open is part of its time and requests).
type freshEngine struct {
	*b2sqlEngine
	tables map[string]string
}

// register opens the tables at once, as a query naming them opens them
// (each open is a round trip: one after the other they would add eight
// to every TPC-H query).
func (e *freshEngine) register() error {
	var wg sync.WaitGroup
	errs := make(chan error, len(e.tables))
	for t, loc := range e.tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- e.db.RegisterTable(t, loc)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *freshEngine) Run(ctx context.Context, query string) (*result, error) {
	if err := e.register(); err != nil {
		return nil, err
	}
	return e.b2sqlEngine.Run(ctx, query)
}

func (e *freshEngine) Drain(ctx context.Context, query string) (int64, error) {
	if err := e.register(); err != nil {
		return 0, err
	}
	return e.b2sqlEngine.Drain(ctx, query)
}
