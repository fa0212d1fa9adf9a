package ctable

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/formats/b2"
)

// Index kinds b2sql builds (python-blosc2's IndexKind values).
const (
	IndexFull    = "full"
	IndexSummary = "summary"
)

// ErrIndexExists is wrapped by CreateIndex when the column already has an
// index that the new one would not replace.
var ErrIndexExists = errors.New("index exists")

// ErrNoIndex is wrapped by DropIndex and Reindex for a column without one.
var ErrNoIndex = errors.New("no such index")

// IndexOptions describe an index for CreateIndex.
type IndexOptions struct {
	// Column is the column to index, as the table names it.
	Column string
	// Kind is IndexFull (the default) or IndexSummary.
	Kind string
	// Name is the index name recorded in the catalog ("" = python-blosc2's
	// default, "__self__").
	Name string
}

// IndexInfo describes one entry of a table's index catalog.
type IndexInfo struct {
	Column string
	Name   string // "__self__" when the index was not named
	Kind   string // "summary", "full", "bucket", …
	// Why is empty for an index scans may use, else why they do not
	// ("stale", …).
	Why string
}

// Indexes lists the table's index catalog, in catalog order.
func (t *Table) Indexes() []IndexInfo {
	var out []IndexInfo
	for _, e := range t.man.Catalog {
		col, _ := e.Key.(string)
		desc, _ := e.Val.(mpMap)
		info := IndexInfo{Column: col, Name: "__self__"}
		if v, ok := desc.get("name"); ok {
			if s, ok := v.(string); ok {
				info.Name = s
			}
		}
		if v, ok := desc.get("kind"); ok {
			info.Kind, _ = v.(string)
		}
		if si := t.indexes[col]; si != nil {
			info.Why = si.why
		}
		if fi := t.full[col]; fi != nil && fi.why != "" {
			info.Why = fi.why
		}
		out = append(out, info)
	}
	return out
}

// Path returns the path the table was opened from.
func (t *Table) Path() string { return t.path }

// CreateIndex builds an index on one column of the table at path (.b2d or
// .b2z) exactly as python-blosc2 lays it out (sidecars under
// _indexes/<column>/, a descriptor in the manifest's index_catalog), and
// publishes the new version of the table atomically: readers see the old
// catalog or the new one with all its sidecars, never a mix, and an
// interrupted build leaves the old table as it was.
//
// A FULL index replaces a SUMMARY one on the same column (it carries the
// same block summary); any other existing index is an error wrapping
// ErrIndexExists. FULL indexes need a numeric, boolean or timestamp
// column: python-blosc2 indexes utf8 and dictionary columns by string rank,
// which b2sql neither builds nor reads. The sort runs in bounded memory
// (sorted runs of sortRunItems entries spilled to disk, then merged).
func CreateIndex(path string, o IndexOptions) error {
	if o.Kind == "" {
		o.Kind = IndexFull
	}
	o.Kind = strings.ToLower(o.Kind)
	if o.Kind != IndexFull && o.Kind != IndexSummary {
		return fmt.Errorf("ctable: %s: unknown index kind %q (FULL or SUMMARY)", path, o.Kind)
	}
	return editIndexes(path, func(e *indexEdit) error {
		if _, ok := e.c.t.byName[o.Column]; !ok {
			return fmt.Errorf("ctable: %s: no column %q", path, o.Column)
		}
		if d, ok := e.descriptor(o.Column); ok {
			kind, _ := d.get("kind")
			if !(o.Kind == IndexFull && kind == IndexSummary) {
				return fmt.Errorf("ctable: %s: column %q already has a %v index: %w", path, o.Column, kind, ErrIndexExists)
			}
		}
		return e.build(o.Column, o.Kind, o.Name)
	})
}

// DropIndex removes the index of column col and its sidecars, atomically
// as CreateIndex publishes. A column without one is an error wrapping
// ErrNoIndex.
func DropIndex(path, col string) error {
	return editIndexes(path, func(e *indexEdit) error {
		if _, ok := e.descriptor(col); !ok {
			return fmt.Errorf("ctable: %s: column %q has no index: %w", path, col, ErrNoIndex)
		}
		e.drop(col)
		return nil
	})
}

// Reindex rebuilds the indexes of the named columns (every index of the
// catalog when cols is empty) with their kind and name, over the current
// rows: a stale index becomes usable again. Kinds b2sql does not build
// (bucket, partial, opsi) are rebuilt as FULL, the one kind that serves
// the same queries here. A named column without an index is an error
// wrapping ErrNoIndex.
func Reindex(path string, cols []string) error {
	return editIndexes(path, func(e *indexEdit) error {
		if len(cols) == 0 {
			// Every index b2sql can build; others (expression indexes,
			// complex, string, utf8 and dictionary columns) stay as they are.
			for _, en := range e.c.t.man.Catalog {
				if name, ok := en.Key.(string); ok && e.buildable(name) {
					cols = append(cols, name)
				}
			}
		}
		for _, col := range cols {
			d, ok := e.descriptor(col)
			if !ok {
				return fmt.Errorf("ctable: %s: column %q has no index: %w", path, col, ErrNoIndex)
			}
			kind, _ := d.get("kind")
			name, _ := d.get("name")
			k, _ := kind.(string)
			if k != IndexSummary {
				k = IndexFull
			}
			n, _ := name.(string)
			if err := e.build(col, k, n); err != nil {
				return err
			}
		}
		return nil
	})
}

// indexEdit is one change of a table's indexes: a new version of the table
// (a Change, whose members are links to the old ones) with new sidecars
// and a new catalog.
type indexEdit struct {
	c       *Change
	cat     mpMap
	dropped map[string]bool // members of the old version not carried over
	written map[string]bool // members of the new version written here
}

// editIndexes runs fn on a new version of the table at path, then writes
// the manifest with the edited catalog and publishes the version.
func editIndexes(path string, fn func(e *indexEdit) error) error {
	c, err := Begin(path)
	if err != nil {
		return err
	}
	defer c.Abort()
	e := &indexEdit{c: c, cat: append(mpMap(nil), c.t.man.Catalog...),
		dropped: map[string]bool{}, written: map[string]bool{"_meta.b2f": true}}
	if err := fn(e); err != nil {
		return err
	}
	if err := e.writeMeta(); err != nil {
		return tableError(path, "_meta.b2f", err)
	}
	skip := map[string]bool{}
	for m := range e.dropped {
		skip[m] = true
	}
	for m := range e.written {
		skip[m] = true
	}
	if err := c.carryOver(skip); err != nil {
		return tableError(path, "", err)
	}
	if err := c.publish(); err != nil {
		return fmt.Errorf("ctable: %s: %w", path, err)
	}
	return nil
}

// descriptor returns the catalog entry of column col.
func (e *indexEdit) descriptor(col string) (mpMap, bool) {
	for _, en := range e.cat {
		if en.Key == col {
			d, ok := en.Val.(mpMap)
			return d, ok
		}
	}
	return nil, false
}

// indexDir is the sidecar directory of a column (indexDirOf).
func (e *indexEdit) indexDir(col string) string {
	return indexDirOf(col)
}

// drop removes col's catalog entry and leaves its old sidecars behind.
func (e *indexEdit) drop(col string) {
	var out mpMap
	for _, en := range e.cat {
		if en.Key != col {
			out = append(out, en)
		}
	}
	e.cat = out
	e.dropSidecars(col)
}

// dropSidecars leaves the old sidecars of col behind: every member its
// descriptor names (keys "path", "*_path", at any depth) and, for a
// column, everything under its index directory.
func (e *indexEdit) dropSidecars(col string) {
	if d, ok := e.descriptor(col); ok {
		for _, p := range descriptorPaths(d, nil) {
			e.dropped[p] = true
		}
	}
	if _, ok := e.c.t.byName[col]; !ok {
		return // an expression index: only its named files
	}
	prefix := e.indexDir(col) + "/"
	for _, m := range storeMembers(e.c.t.st) {
		if strings.HasPrefix(m, prefix) {
			e.dropped[m] = true
		}
	}
}

// descriptorPaths appends the sidecar members a descriptor names.
func descriptorPaths(v any, out []string) []string {
	switch x := v.(type) {
	case mpMap:
		for _, en := range x {
			k, _ := en.Key.(string)
			if p, ok := en.Val.(string); ok && (k == "path" || strings.HasSuffix(k, "_path")) && validMember(p) {
				out = append(out, p)
				continue
			}
			out = descriptorPaths(en.Val, out)
		}
	case []any:
		for _, y := range x {
			out = descriptorPaths(y, out)
		}
	}
	return out
}

// set puts col's descriptor in the catalog, in place of an old one.
func (e *indexEdit) set(col string, d mpMap) {
	for i := range e.cat {
		if e.cat[i].Key == col {
			e.cat[i].Val = d
			return
		}
	}
	e.cat = append(e.cat, mpEntry{col, d})
}

// storeMembers lists every member of a store.
func storeMembers(st store) []string {
	switch s := st.(type) {
	case *zipStore:
		return s.names()
	case *dirStore:
		var out []string
		filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if rel, err := filepath.Rel(s.root, p); err == nil {
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		sort.Strings(out)
		return out
	}
	return nil
}

// writeMeta writes the new _meta.b2f: the old vlmeta entries byte for
// byte, but index_catalog.
func (e *indexEdit) writeMeta() error {
	f, err := e.c.t.st.frame("_meta.b2f")
	if err != nil {
		return err
	}
	old, err := frameMetaRaw(f)
	if err != nil {
		return err
	}
	cat := mpAppend(nil, e.cat)
	if e.cat == nil {
		cat = mpAppend(nil, mpMap{})
	}
	var vl []b2.Metalayer
	saw := false
	for _, m := range old {
		if m.Name == "index_catalog" {
			m.Content, saw = cat, true
		}
		vl = append(vl, m)
	}
	if !saw {
		vl = append(vl, b2.Metalayer{Name: "index_catalog", Content: cat})
	}
	return emptyFrame(e.c.member("_meta.b2f"), nil, vl)
}

// valueEpoch is the manifest's value_epoch (0 when absent, as
// python-blosc2 counts).
func (e *indexEdit) valueEpoch() int64 { return max(e.c.t.man.ValueEpoch, 0) }

// buildable reports whether b2sql can build an index on column col.
func (e *indexEdit) buildable(col string) bool {
	t := e.c.t
	i, ok := t.byName[col]
	if !ok {
		return false
	}
	s := t.srcs[i]
	if s.open(t.st, t.nphys) != nil || s.spec.Flavour != flFixed {
		return false
	}
	return newSummaryBuilder(col, s.data.DType.Str, 1) != nil
}

// build builds a kind index of col into the new version and records its
// descriptor, replacing whatever index col had.
func (e *indexEdit) build(col, kind, name string) error {
	t := e.c.t
	s := t.srcs[t.byName[col]]
	if err := s.open(t.st, t.nphys); err != nil {
		return tableError(t.path, "", err)
	}
	if s.spec.Flavour != flFixed || newSummaryBuilder(col, s.data.DType.Str, 1) == nil {
		what := s.spec.Kind
		switch s.spec.Flavour {
		case flUTF8, flDict:
			// python-blosc2 orders these by string rank, with a vocabulary
			// beside; b2sql reads utf8 ones (rankindex.go) but does not
			// write them.
			return fmt.Errorf("ctable: %s: column %q is %s: indexes are built on numeric, boolean and timestamp columns", t.path, col, what)
		}
		return fmt.Errorf("ctable: %s: column %q of kind %s cannot be indexed (numeric, boolean and timestamp columns can)", t.path, col, what)
	}
	if name == "" {
		name = "__self__"
	}
	e.dropSidecars(col)
	dir := e.indexDir(col)
	b := &indexBuild{e: e, s: s, col: col, kind: kind, dir: dir}
	d, err := b.run()
	if err != nil {
		return tableError(t.path, dir, err)
	}
	d[0].Val = name
	e.set(col, d)
	return nil
}

// opsiChunkLen is python-blosc2's sidecar chunk length for FULL values and
// positions (_opsi_storage_chunk_len): the column chunk rounded to whole
// blocks, times the optlevel multiplier (2 for the default optlevel 5).
func opsiChunkLen(chunk, block, mult int) int {
	chunk, block, mult = max(1, chunk), max(1, block), max(1, mult)
	aligned := block
	switch {
	case chunk%block == 0:
		aligned = chunk
	case chunk >= block:
		aligned = chunk / block * block
	}
	return max(block, aligned*mult)
}

// fullChunkMultiplier is python-blosc2's multiplier for optlevel 5.
const fullChunkMultiplier = 2

// quietNaN64 and quietNaN32 are NumPy's NaN bit patterns, what an all-NaN
// navigation segment records.
const (
	quietNaN64 = 0x7ff8000000000000
	quietNaN32 = 0x7fc00000
)

// isNaNRaw reports whether raw item bits of a float of size isz are NaN.
func isNaNRaw(raw uint64, isz int) bool {
	if isz == 4 {
		return math.IsNaN(float64(math.Float32frombits(uint32(raw))))
	}
	return math.IsNaN(math.Float64frombits(raw))
}
