package catalog

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/formats/csv"
	"github.com/b2sql/b2sql/formats/json"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/internal/catalog/fileset"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql"
	"github.com/b2sql/b2sql/sql/parser"
	"github.com/b2sql/b2sql/storage"
)

// Files named in queries: read_csv('x.csv', …), read_json(…),
// read_parquet(['a', 'b'], …), FROM 'data/*.csv' and COPY … FROM. Paths
// are resolved against the database's directory, globs expanded
// (storage.Glob: * ? […] {a,b} **), every file checked against the root;
// the function (or FORMAT, or the first file's extension) picks the
// reader, and the options not about the set of files go to it.

// OpenFiles implements sql.FileOpener: one file opens as its format's
// table; several (a list, a glob's matches), or one with a many-file
// option or hive partitions in its path, as a fileset.Table over them.
func (c *Catalog) OpenFiles(call *sql.FileCall) (planner.Table, error) {
	format := funcFormat(call.Func)
	var args []sql.FileArg
	for _, a := range call.Args {
		if a.Name == "format" && call.Func == "" {
			// COPY … FROM (FORMAT csv): the reader; read_json's own
			// format option (array, newline_delimited) stays its.
			f := strings.ToLower(a.Value.Text)
			switch f {
			case "csv", "json", "parquet":
				format = f
			case "ndjson", "jsonl":
				format = "json"
			default:
				return nil, a.Err(sql.ErrUnsupported, fmt.Sprintf("COPY FROM format %q is not supported (csv, json, parquet)", a.Value.Text))
			}
			continue
		}
		args = append(args, a)
	}
	set, args, err := setOptions(args)
	if err != nil {
		return nil, err
	}
	set.Virtual = call.Virtual
	files, err := c.expand(call)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	keys, err := fileset.Keys(names, set.Hive)
	if err != nil {
		return nil, err
	}
	if format == "" {
		format = textKind(files[0].Path)
		if format == "" {
			format = Kind(files[0].Path)
		}
		if format == "" {
			format = contentKind(files[0].Path)
		}
	}
	plain := set.Filename == "" && !set.UnionByName && len(keys) == 0 && len(set.Virtual) == 0
	if plain && len(args) == 0 && (format == "parquet" || format == "") && len(call.Paths) == 1 && storage.HasGlob(call.Paths[0]) && pathGlob(call.Paths[0]) && len(files) > 1 {
		// One glob of Parquet files and nothing more: Parquet's own
		// many-file table, whose footers answer counts and min/max. It
		// needs one schema; files whose columns differ in order or
		// number are matched by name by the fileset below, as DuckDB
		// matches them.
		t, err := c.OpenConfined(c.resolve(call.Paths[0]))
		if !errors.Is(err, parquet.ErrSchemaMismatch) {
			return t, err
		}
	}
	open, err := c.opener(call.Func, format, args, files)
	if err != nil {
		return nil, err
	}
	if plain && len(files) == 1 {
		return open(files[0].Path)
	}
	return fileset.Open(files, open, set)
}

// pathGlob reports whether filepath.Glob, which Parquet's own many-file
// table expands its pattern with, matches what storage.Glob matched: it
// knows no "**" (it reads it as "*", one directory), no {a,b} and no [!…],
// and reads [^…] as a negation (DuckDB and storage.Glob: '^' a member),
// so 'g/**/*.parquet' read only the files one level down.
func pathGlob(pattern string) bool {
	return !strings.Contains(pattern, "**") && !strings.ContainsAny(pattern, "{") && !strings.Contains(pattern, "[!") && !strings.Contains(pattern, "[^")
}

// opener returns the function opening one file as format with the
// format's options args (checked here, once, so that a wrong option is
// reported at its name before any file is read).
func (c *Catalog) opener(fn, format string, args []sql.FileArg, files []fileset.File) (fileset.Opener, error) {
	switch format {
	case "csv":
		o, err := csvOptions(args)
		if err != nil {
			return nil, err
		}
		o.Keyword = parser.IsKeyword
		paths := make([]string, len(files))
		for i, f := range files {
			paths[i] = f.Path
		}
		scanned := c.storeRejects(&o, paths, args) // rejects.go
		o.Open = c.openSource                      // remote.go
		o.Cast = textCast
		// Every file is sniffed on its own and matched by name, as
		// DuckDB matches a list's headers.
		return func(p string) (planner.Table, error) {
			t, err := csv.Open([]string{p}, o)
			if err != nil {
				return nil, err
			}
			scanned(p, t)
			return t, nil
		}, nil
	case "json":
		o, err := jsonOptions(fn, args)
		if err != nil {
			return nil, err
		}
		o.Open = c.openSource // remote.go
		o.Cast = textCast
		return func(p string) (planner.Table, error) { return json.Open([]string{p}, o) }, nil
	}
	if len(args) > 0 {
		return nil, args[0].Err(sql.ErrUnsupported, fmt.Sprintf("%s: unknown option %q", orCopy(fn), args[0].Name))
	}
	// An array's value column is named after its file: in a set of
	// arrays every file's is named after the first file, so that they
	// are one column.
	first := arrayColumn(files[0].Path)
	return func(p string) (planner.Table, error) {
		t, err := c.openChecked(p, format)
		if a, ok := t.(interface{ NameValues(string) }); ok && err == nil && len(files) > 1 {
			a.NameValues(first)
		}
		return t, err
	}, nil
}

// arrayColumn is the name of the value column of the array at path: its
// base name without extension (ctable's rule for one array file).
func arrayColumn(p string) string {
	base := path.Base(strings.TrimRight(filepath.ToSlash(p), "/"))
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

func orCopy(fn string) string {
	if fn == "" {
		return "COPY FROM"
	}
	return fn
}

// openChecked opens one confined, existing file as format (its
// extension's or content's when format is "" or "b2"), passing its
// warnings on (as OpenConfined).
func (c *Catalog) openChecked(path, format string) (planner.Table, error) {
	if storage.IsRemote(path) {
		return c.openRemoteFile(path, format) // remote.go
	}
	var t planner.Table
	var err error
	if format == "parquet" {
		t, err = parquet.Open(path)
	} else {
		t, err = OpenFile(path)
	}
	if w, ok := t.(interface{ Warnings() []string }); ok && err == nil {
		for _, msg := range w.Warnings() {
			c.Warn(msg)
		}
	}
	return t, err
}

// expand resolves, confines and expands the call's paths into files, in
// the order given (each glob's matches sorted). A glob matching nothing is
// an error, as in DuckDB. A file's name is the path as the query wrote it
// (a glob's match relative as the glob was).
func (c *Catalog) expand(call *sql.FileCall) ([]fileset.File, error) {
	var out []fileset.File
	for _, name := range call.Paths {
		p := c.resolve(name)
		cp, err := c.Confine(p)
		if err != nil {
			return nil, err
		}
		if !storage.HasGlob(cp) {
			out = append(out, fileset.File{Path: cp, Name: name})
			continue
		}
		matches, err := storage.Glob(context.Background(), cp, c.globConfig(cp))
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("no files found that match the pattern %q", name)
		}
		if !storage.IsRemote(cp) {
			dirOrder(matches)
		}
		for _, m := range matches {
			cm, err := c.Confine(m)
			if err != nil {
				return nil, err
			}
			out = append(out, fileset.File{Path: cm, Name: relName(name, cp, m)})
		}
	}
	return out, nil
}

// dirOrder puts local glob matches in DuckDB's order: directory by
// directory, in path order, each directory's files sorted. A plain sort
// puts 'g/sub/b' before 'g/t', where DuckDB reads g's own files first;
// the order decides which file is the first, whose columns a set without
// union_by_name takes.
func dirOrder(matches []string) {
	slices.SortStableFunc(matches, func(a, b string) int {
		if c := strings.Compare(filepath.Dir(a), filepath.Dir(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// relName is a glob match as the query's pattern would spell it: the
// match with the resolved pattern's literal prefix replaced by the
// query's. A pattern whose first part is a glob ('*.csv', '*/k=1/*')
// names its matches from "./", as DuckDB does ('./a.csv').
func relName(name, resolved, match string) string {
	lit := func(p string) string {
		if i := strings.IndexAny(p, "*?[{"); i >= 0 {
			return p[:strings.LastIndexAny(p[:i], `/\`)+1]
		}
		return p
	}
	qp, rp := lit(name), lit(resolved)
	if qp == "" {
		qp = "./"
	}
	if rest, ok := strings.CutPrefix(match, rp); ok {
		return qp + rest
	}
	return match
}

// openText opens a CSV or JSON file (or glob) with detected options.
func openText(path string) (planner.Table, error) {
	files := []string{path}
	if storage.HasGlob(path) {
		m, err := storage.Glob(context.Background(), path, nil)
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("no files found that match the pattern %q", path)
		}
		files = m
	}
	if textKind(files[0]) == "json" {
		return json.Open(files, json.Options{Cast: textCast})
	}
	return csv.Open(files, csv.Options{Cast: textCast})
}
