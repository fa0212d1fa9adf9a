package fileset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/planner"
)

// File is one file of a set: Path is what the opener opens, Name what the
// filename column, hive partitioning and errors show (the path as the
// query named it, or the glob's match).
type File struct {
	Path string
	Name string
}

// Opener opens one file as a table (the catalog's, by format).
type Opener func(path string) (planner.Table, error)

// Options are the multi-file options every file reader takes; the zero
// value reads files by the first one's columns, hive partitioning
// detected, no filename column.
type Options struct {
	// Filename names a VARCHAR column holding each row's file ("" none).
	Filename string
	// UnionByName unifies the files' columns by name (union_by_name).
	UnionByName bool
	// Hive says whether key=value directories become columns.
	Hive Hive
	// HiveTypes fixes partition columns' types (hive_types); the others
	// are detected unless NoHiveAutocast (hive_types_autocast = false),
	// then VARCHAR.
	HiveTypes      map[string]columnar.Type
	NoHiveAutocast bool
	// Virtual lists virtual columns to add (DuckDB 1.5's virtual columns
	// of its multi-file readers, sql.VirtualColumns): "filename", each
	// row's File.Name, and "file_index", its file's index in the list
	// from 0. Each is added unless a column of the files, a partition or
	// the Filename column has its name; filename also unless Filename
	// names another column (DuckDB then has no filename either). Table's
	// Virtual reports them.
	Virtual []string
}

// Table is files read as one table. Safe for concurrent scans.
type Table struct {
	files  []File
	open   Opener
	opts   Options
	data   columnar.Schema // columns read from the files
	schema columnar.Schema // data, then filename, then partitions
	// consts[c-len(data)][i] is file i's value of constant column c
	// (filename, partitions, virtual columns).
	consts  [][]columnar.Value
	virtual []int // the virtual columns' indexes in schema
	slots   []slot
}

// Virtual reports whether column col exists only by name (Options.Virtual):
// a query's * does not list it.
func (t *Table) Virtual(col int) bool { return slices.Contains(t.virtual, col) }

// slot is one file, opened once, when first needed.
type slot struct {
	once sync.Once
	t    planner.Table
	b    binding
	err  error
	// opened is set once t is (IO reads t from other goroutines).
	opened atomic.Bool
}

// load opens the slot's file once; later calls return at once.
func (t *Table) load(i int) {
	s := &t.slots[i]
	s.once.Do(func() {
		s.t, s.err = t.open(t.files[i].Path)
		if s.err != nil {
			s.err = located(t.files[i].Name, s.err)
		}
		s.opened.Store(s.t != nil)
	})
}

// Open reads the schema of files (the first one's, or every one's with
// UnionByName) and returns them as one table. files must not be empty.
func Open(files []File, open Opener, o Options) (*Table, error) {
	if len(files) == 0 {
		return nil, errors.New("no files to read")
	}
	t := &Table{files: files, open: open, opts: o, slots: make([]slot, len(files))}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	keys, err := hiveKeys(names, o.Hive)
	if err != nil {
		return nil, err
	}
	if o.UnionByName {
		if err := t.openAll(context.Background(), allIndexes(len(files))); err != nil {
			return nil, err
		}
		schemas := make([]columnar.Schema, len(files))
		for i := range t.slots {
			schemas[i] = t.slots[i].t.Schema()
		}
		t.data = unionSchema(schemas)
	} else {
		t0, err := open(files[0].Path)
		if err != nil {
			return nil, located(files[0].Name, err)
		}
		t.slots[0].once.Do(func() { t.slots[0].t = t0; t.slots[0].opened.Store(true) })
		t.data = slices.Clone(t0.Schema())
	}
	// A partition key names its column even where a file holds one of
	// that name (the directory is the truth for every row of the file).
	t.data = slices.DeleteFunc(t.data, func(f columnar.Field) bool {
		return slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(k, f.Name) })
	})
	t.schema = slices.Clone(t.data)
	if o.Filename != "" {
		t.schema = append(t.schema, columnar.Field{Name: o.Filename, Type: columnar.TVarchar})
		t.consts = append(t.consts, make([]columnar.Value, len(files)))
		for i, n := range names {
			t.consts[0][i] = columnar.StringValue(n)
		}
	}
	for _, k := range keys {
		typ, ok := o.HiveTypes[k]
		switch {
		case ok:
		case o.NoHiveAutocast:
			typ = columnar.TVarchar
		default:
			typ = detectHiveType(names, k)
		}
		vals, err := hiveColumnValues(names, k, typ)
		if err != nil {
			return nil, err
		}
		t.schema = append(t.schema, columnar.Field{Name: k, Type: typ, Nullable: true})
		t.consts = append(t.consts, vals)
	}
	t.addVirtual(names)
	for k := range o.HiveTypes {
		if !slices.Contains(keys, k) {
			return nil, fmt.Errorf("hive_types: %q is not a partition of these files (they have %s)", k, orNone(keys))
		}
	}
	// The first file's binding is checked now: a file whose columns do not
	// match fails when it is opened, naming it.
	if !o.UnionByName {
		if _, err := t.file(0); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// addVirtual appends the virtual columns the options ask for, each file's
// value a constant, as the filename and partition columns.
func (t *Table) addVirtual(names []string) {
	for _, v := range t.opts.Virtual {
		taken := slices.ContainsFunc(t.schema, func(f columnar.Field) bool { return strings.EqualFold(f.Name, v) })
		if taken || v == "filename" && t.opts.Filename != "" {
			continue
		}
		vals := make([]columnar.Value, len(names))
		typ := columnar.TVarchar
		switch v {
		case "filename":
			for i, n := range names {
				vals[i] = columnar.StringValue(n)
			}
		case "file_index":
			typ = columnar.TUint64
			for i := range names {
				vals[i] = columnar.UintValue(uint64(i))
			}
		default:
			continue
		}
		t.virtual = append(t.virtual, len(t.schema))
		t.schema = append(t.schema, columnar.Field{Name: v, Type: typ})
		t.consts = append(t.consts, vals)
	}
}

func orNone(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// located prefixes err with the file's name unless it names it already.
func located(name string, err error) error {
	if strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// file opens file i (once) and binds its columns.
func (t *Table) file(i int) (*slot, error) {
	s := &t.slots[i]
	t.load(i)
	if s.err != nil {
		return nil, s.err
	}
	if s.t == nil {
		return nil, fmt.Errorf("%s: read after the table was closed", t.files[i].Name)
	}
	if s.b.col == nil {
		// Binding is cheap and idempotent; racing scans compute the same.
		b, err := bind(t.data, s.t.Schema(), t.files[i].Name, t.files[0].Name, t.opts.UnionByName)
		if err != nil {
			return nil, err
		}
		t.bindOnce(s, b)
	}
	return s, nil
}

var bindMu sync.Mutex

func (t *Table) bindOnce(s *slot, b binding) {
	bindMu.Lock()
	if s.b.col == nil {
		s.b = b
	}
	bindMu.Unlock()
}

func (t *Table) bindingOf(s *slot) binding {
	bindMu.Lock()
	defer bindMu.Unlock()
	return s.b
}

// openAll opens the files idx, a few at a time (a remote open is a round
// trip), returning the first error in file order.
func (t *Table) openAll(ctx context.Context, idx []int) error {
	errs := make([]error, len(idx))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for k, i := range idx {
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t.load(i)
			errs[k] = t.slots[i].err
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(firstErr(errs))
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Schema returns the data columns, then filename, then the partitions.
func (t *Table) Schema() columnar.Schema { return t.schema }

// Files returns the set's files, in order.
func (t *Table) Files() []File { return t.files }

// isConst reports whether column c is the same for every row of a file.
func (t *Table) isConst(c int) bool { return c >= len(t.data) && c < len(t.schema) }

// predCols lists the columns p reads.
func predCols(p index.Pred, out []int) []int {
	if p.Op == index.Or {
		for _, q := range p.Any {
			out = predCols(q, out)
		}
		return out
	}
	return append(out, p.Col)
}

// SupportsFilter: a predicate on filename or partitions decides whole
// files (Inexact: the filter stays above); one on data columns goes to
// every file that can use it with the same column type (Inexact at most).
// Neither is Exact: a file that cannot prune keeps all its rows.
func (t *Table) SupportsFilter(p index.Pred) index.Support {
	if p.Op == index.InSet {
		return index.Unsupported
	}
	cols := predCols(p, nil)
	switch {
	case !slices.ContainsFunc(cols, func(c int) bool { return !t.isConst(c) }):
		return index.Inexact
	case slices.ContainsFunc(cols, func(c int) bool { return c < 0 || c >= len(t.data) }):
		return index.Unsupported
	}
	s, err := t.file(0)
	if err != nil {
		return index.Unsupported
	}
	fp, ok := s.t.(planner.FilterPusher)
	if !ok {
		return index.Unsupported
	}
	q, ok := t.remap(p, s)
	if !ok || fp.SupportsFilter(q) == index.Unsupported {
		return index.Unsupported
	}
	return index.Inexact
}

// remap rewrites p onto file s's columns; false when a column is missing
// there or has another type (the predicate's constants are the table's).
func (t *Table) remap(p index.Pred, s *slot) (index.Pred, bool) {
	b := t.bindingOf(s)
	fs := s.t.Schema()
	if p.Op == index.Or {
		q := p
		q.Any = make([]index.Pred, len(p.Any))
		for i, a := range p.Any {
			r, ok := t.remap(a, s)
			if !ok {
				return p, false
			}
			q.Any[i] = r
		}
		return q, true
	}
	if p.Col < 0 || p.Col >= len(t.data) {
		return p, false
	}
	fc := b.col[p.Col]
	if fc < 0 || fs[fc].Type != t.data[p.Col].Type {
		return p, false
	}
	q := p
	q.Col = fc
	return q, true
}

// keep reports whether file i may hold rows passing every predicate on
// constant columns.
func (t *Table) keep(i int, preds []index.Pred) bool {
	for _, p := range preds {
		if t.verdict(i, p) == index.None {
			return false
		}
	}
	return true
}

// verdict evaluates p on file i's constants as a one-row unit.
func (t *Table) verdict(i int, p index.Pred) index.Verdict {
	if p.Op == index.Or {
		for _, q := range p.Any {
			if t.verdict(i, q) != index.None {
				return index.Maybe
			}
		}
		return index.None
	}
	v := t.consts[p.Col-len(t.data)][i]
	st := index.Stats{Rows: 1, NullCount: 1}
	if !v.Null {
		st = index.Stats{Rows: 1, NullCount: 0, HasMinMax: true, Min: v, Max: v}
	}
	return st.Verdict(p)
}

// split separates the predicates on constant columns from the others.
func (t *Table) split(preds []index.Pred) (consts, data []index.Pred) {
	for _, p := range preds {
		cols := predCols(p, nil)
		if !slices.ContainsFunc(cols, func(c int) bool { return !t.isConst(c) }) {
			consts = append(consts, p)
		} else {
			data = append(data, p)
		}
	}
	return consts, data
}

// kept lists the files the constant predicates do not exclude.
func (t *Table) kept(spec index.ScanSpec) []int {
	consts, _ := t.split(spec.Filter)
	var out []int
	for i := range t.files {
		if spec.NoPrune || t.keep(i, consts) {
			out = append(out, i)
		}
	}
	return out
}

// ScanUnits prunes files by their partitions and filename, opens the rest
// and returns all their units, file after file.
func (t *Table) ScanUnits(ctx context.Context, spec index.ScanSpec) ([]planner.ScanUnit, error) {
	idx := t.kept(spec)
	if st := spec.Stats; st != nil {
		atomic.AddInt64(&st.FilesTotal, int64(len(t.files)))
		atomic.AddInt64(&st.FilesSkipped, int64(len(t.files)-len(idx)))
	}
	if err := t.openAll(ctx, idx); err != nil {
		return nil, err
	}
	_, dataPreds := t.split(spec.Filter)
	var out []planner.ScanUnit
	for _, i := range idx {
		s, err := t.file(i)
		if err != nil {
			return nil, err
		}
		fspec, exprs, err := t.fileSpec(spec, dataPreds, i, s)
		if err != nil {
			return nil, err
		}
		// left counts the file's units not yet read to the end; the last
		// one counts the file done (progress).
		left := new(atomic.Int64)
		wrap := func(u planner.ScanUnit) planner.ScanUnit {
			return func(ctx context.Context) (columnar.Reader, error) {
				r, err := u(ctx)
				if err != nil {
					return nil, located(t.files[i].Name, err)
				}
				fr := t.newReader(r, spec.Cols, exprs(r.Schema()), t.files[i].Name)
				fr.done = func() {
					if left.Add(-1) == 0 && spec.Stats != nil {
						atomic.AddInt64(&spec.Stats.FilesDone, 1)
					}
				}
				return fr, nil
			}
		}
		if us, ok := s.t.(planner.UnitScanner); ok {
			units, err := us.ScanUnits(ctx, fspec)
			if err != nil {
				return nil, located(t.files[i].Name, err)
			}
			left.Store(int64(len(units)))
			for _, u := range units {
				out = append(out, wrap(u))
			}
			continue
		}
		tbl := s.t
		left.Store(1)
		out = append(out, wrap(func(ctx context.Context) (columnar.Reader, error) { return tbl.Scan(ctx, fspec) }))
	}
	return out, nil
}

// Scan reads the kept files' units one after the other.
func (t *Table) Scan(ctx context.Context, spec index.ScanSpec) (columnar.Reader, error) {
	units, err := t.ScanUnits(ctx, spec)
	if err != nil {
		return nil, err
	}
	s := make(columnar.Schema, len(spec.Cols))
	for k, c := range spec.Cols {
		s[k] = t.schema[c]
	}
	return columnar.Chain(s, units, spec.Limit), nil
}

// DescribeScan says, without opening files, how many the constant
// predicates leave, for EXPLAIN.
func (t *Table) DescribeScan(spec index.ScanSpec) string {
	return fmt.Sprintf("files=%d/%d", len(t.kept(spec)), len(t.files))
}

// Close closes every opened file.
func (t *Table) Close() error {
	var errs []error
	for i := range t.slots {
		s := &t.slots[i]
		s.once.Do(func() {}) // a file not yet opened stays closed
		if c, ok := s.t.(interface{ Close() error }); ok {
			errs = append(errs, c.Close())
		}
	}
	return errors.Join(errs...)
}

// IO sums what the files opened so far fetched from servers
// (planner.IOReporter: EXPLAIN ANALYZE and the progress bar); ok is false
// when none of them is remote. Files skipped unopened cost nothing, and
// their size is not counted.
func (t *Table) IO() (io index.IOStats, ok bool) {
	for i := range t.slots {
		s := &t.slots[i]
		if !s.opened.Load() {
			continue
		}
		r, isIO := s.t.(planner.IOReporter)
		if !isIO {
			continue
		}
		if st, remote := r.IO(); remote {
			io.Requests += st.Requests
			io.Bytes += st.Bytes
			io.Size += st.Size
			ok = true
		}
	}
	return io, ok
}
