package ctable

import (
	"fmt"
	"os"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// Table is a python-blosc2 CTable, read from a .b2d directory or in place
// from a .b2z zip. Rows are the live physical rows (deleted ones never
// appear), in physical order. It implements the planner's Table,
// FilterPusher, RowCounter and ScanDescriber interfaces. Scans may run
// concurrently; Close must not race them.
type Table struct {
	name string
	path string
	st   store
	man  *manifest
	// schema and cols list the exposed columns (nexp of them), then the
	// hidden leaf columns of structs stored as dotted leaves (leaves.go),
	// which fields finds by FieldColumn key.
	schema  columnar.Schema
	nexp    int
	fields  map[string]int
	cols    []exposed      // per schema column
	srcs    []*colSource   // per exposed manifest column
	byName  map[string]int // manifest column name → srcs index
	skipped []string

	valid *b2.Array // _valid_rows
	nphys int64     // len(_valid_rows): the physical extent
	// liveEnd is one past the last row whose _valid_rows bit is set (0
	// when none): python-blosc2 sizes _valid_rows and fixed columns to a
	// capacity but writes a utf8 column's rows only up to its length.
	liveEnd    int64
	live       int64
	blockRows  int64   // _valid_rows block length: the default pruning grain
	validRatio float64 // compressed bytes per _valid_rows row, for BytesRead

	indexes map[string]*summaryIndex
	// strSums: utf8 column name → its string summary (*summaryIndex, nil
	// when the column has none), read on first use (strsummary.go).
	strSums sync.Map
	full    map[string]*fullIndex // FULL indexes (fullindex.go)
	meta    []MetaEntry
}

// exposed is one SQL column: a source and, for complex sources, which half.
type exposed struct {
	src  int
	part int
}

// Open opens the CTable at path: a .b2d directory or a .b2z zip file. It
// reads the manifest, _valid_rows' header and the user vlmeta; column
// frames are opened by the first scan that reads them. Errors name the
// table and the member and wrap b2.ErrCorrupt for damaged input.
func Open(path string) (*Table, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("ctable: %w", err)
	}
	var st store
	if fi.IsDir() {
		st = &dirStore{root: path}
	} else {
		zs, err := openZipStore(path)
		if err != nil {
			return nil, tableError(path, "", err)
		}
		st = zs
	}
	return openStore(st, path)
}

// openStore opens the table held in st; it owns st (closing it on error).
func openStore(st store, path string) (_ *Table, err error) {
	t := &Table{name: stem(path), path: path, st: st}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	if err := checkRemoteReference(t.st); err != nil {
		return nil, tableError(path, "", err)
	}
	mf, err := t.st.frame("_meta.b2f")
	if err != nil {
		return nil, tableError(path, "_meta.b2f", memberErr(err))
	}
	if t.man, err = parseManifest(mf); err != nil {
		return nil, tableError(path, "_meta.b2f", err)
	}
	if err := t.openValid(); err != nil {
		return nil, tableError(path, "_valid_rows.b2nd", err)
	}
	if err := resolveObjects(t.man, t.st, t.nphys); err != nil { // object_infer.go
		return nil, tableError(path, "", err)
	}
	if err := t.buildSchema(); err != nil {
		return nil, tableError(path, "_meta.b2f", err)
	}
	if t.st.has("_vlmeta.b2f") {
		vf, err := t.st.frame("_vlmeta.b2f")
		if err != nil {
			return nil, tableError(path, "_vlmeta.b2f", err)
		}
		t.meta = append(t.meta, frameMeta(vf, "table")...)
	}
	t.meta = append(t.meta, t.man.Entries...)
	t.indexes = catalogIndexes(t.man, t.nphys)
	t.full = catalogFull(t.man, t.nphys, t.liveEnd)
	return t, nil
}

func (t *Table) openValid() error {
	f, err := t.st.frame("_valid_rows.b2nd")
	if err != nil {
		return memberErr(err)
	}
	a, err := b2.NewArray(f)
	if err != nil {
		return err
	}
	if a.NDim() != 1 || a.ItemSize() != 1 || (a.DType.Kind != 'b' && a.DType.Kind != 'u') {
		return corruptf("dtype %s shape %v, want a 1-d bool array", a.DType.Str, a.Shape())
	}
	t.valid, t.nphys = a, a.Len()
	if h := a.Frame.Header; h.Nbytes > 0 {
		t.validRatio = float64(h.Cbytes) / float64(h.Nbytes)
	}
	t.blockRows = int64(a.Meta.BlockShape[0])
	if t.blockRows <= 0 {
		t.blockRows = batchRows
	}
	if t.liveEnd, err = liveEnd(a); err != nil {
		return err
	}
	if t.man.NRows >= 0 {
		if t.man.NRows > t.nphys {
			return corruptf("schema n_rows %d exceeds the %d physical rows", t.man.NRows, t.nphys)
		}
		t.live = t.man.NRows
		return nil
	}
	// No cached count: count the live rows (one byte per row, decoded
	// chunk by chunk).
	it := a.Chunks()
	defer it.Close()
	for it.Next() {
		for _, b := range it.Bytes()[:it.Len()] {
			if b != 0 {
				t.live++
			}
		}
	}
	return it.Err()
}

// liveEnd returns one past the last set byte of the _valid_rows array a,
// reading from its end: chunks that are all zeros by their offset (the
// capacity python-blosc2 has not filled) cost nothing, and the first
// other chunk from the end is decoded.
func liveEnd(a *b2.Array) (int64, error) {
	var buf []byte
	for i := a.NChunks() - 1; i >= 0; i-- {
		switch a.Frame.ChunkSpecial(i) {
		case b2.SpecialZeros, b2.SpecialUninit:
			continue
		}
		start, n := a.ChunkItems(i)
		buf = grow(buf, n)
		if _, _, err := a.ReadChunk1D(nil, buf, i); err != nil {
			return 0, err
		}
		for k := n - 1; k >= 0; k-- {
			if buf[k] != 0 {
				return start + int64(k) + 1, nil
			}
		}
	}
	return 0, nil
}

func (t *Table) buildSchema() error {
	t.byName = map[string]int{}
	t.fields = map[string]int{}
	groups, leafOf := leafGroups(t.man)
	parentCol := map[string]int{} // struct parent → its exposed column
	var hidden []int              // srcs of leaves, in manifest order
	for mi, cs := range t.man.Cols {
		if cs.Flavour == flSkipped {
			t.skipped = append(t.skipped, cs.Name)
			continue
		}
		base, err := colPath(cs.Name)
		if err != nil {
			return err
		}
		src := &colSource{spec: cs, base: base, liveEnd: t.liveEnd}
		si := len(t.srcs)
		t.srcs = append(t.srcs, src)
		t.byName[cs.Name] = si
		if p, ok := leafOf[mi]; ok {
			hidden = append(hidden, si)
			if _, done := parentCol[p]; done {
				continue
			}
			// The struct, where its first leaf is.
			g := groups[p]
			pbase, _ := colPath(p)
			ps := &colSource{spec: g.spec, base: pbase, parts: &structLeaves{paths: g.paths}}
			ps.spec.Flavour = flLeaves
			if t.schema.Index(p) >= 0 {
				return corruptf("column name %q is used twice", p)
			}
			parentCol[p] = len(t.cols)
			t.schema = append(t.schema, columnar.Field{Name: p, Type: g.typ, Nullable: true})
			t.cols = append(t.cols, exposed{src: len(t.srcs)})
			t.srcs = append(t.srcs, ps)
			continue
		}
		names, types := cs.sqlTypes()
		for part := range names {
			if t.schema.Index(names[part]) >= 0 {
				return corruptf("column name %q is used twice", names[part])
			}
			t.schema = append(t.schema, columnar.Field{Name: names[part], Type: types[part], Nullable: cs.Nullable})
			t.cols = append(t.cols, exposed{src: si, part: part})
		}
	}
	t.nexp = len(t.cols)
	for _, si := range hidden {
		cs := t.srcs[si].spec
		p := splitName(cs.Name)[0]
		parent := t.srcs[t.cols[parentCol[p]].src].parts.(*structLeaves)
		path := groups[p].paths[len(parent.idx)]
		parent.srcs = append(parent.srcs, t.srcs[si])
		parent.idx = append(parent.idx, si)
		_, types := cs.sqlTypes()
		t.fields[fieldKey(parentCol[p], path)] = len(t.cols)
		t.schema = append(t.schema, columnar.Field{Name: cs.Name, Type: types[0], Nullable: true})
		t.cols = append(t.cols, exposed{src: si})
	}
	return nil
}

// Name returns the table's default name, the path's stem.
func (t *Table) Name() string { return t.name }

// Schema returns the table's columns (see Skipped for those left out).
func (t *Table) Schema() columnar.Schema { return t.schema[:t.nexp:t.nexp] }

// Skipped lists the columns of kinds this reader does not expose
// (ndarray, complex inside a struct or list, and lists stored with the
// list "vl" backend).
func (t *Table) Skipped() []string { return t.skipped }

// RowCount returns the number of live rows (the manifest's n_rows, or the
// set bits of _valid_rows when the manifest has no count).
func (t *Table) RowCount() int64 { return t.live }

// Metadata returns the user vlmeta (scope "table"), the manifest entries
// (scope "manifest") and the vlmeta of every column leaf (scope
// "column:<name>"; this opens the column frames).
func (t *Table) Metadata() []MetaEntry {
	out := append([]MetaEntry(nil), t.meta...)
	for _, s := range t.srcs {
		if s.open(t.st, t.nphys) != nil {
			// A broken column shows in scans; metadata lists the rest.
			continue
		}
		var f *b2.Frame
		switch {
		case s.data != nil:
			f = s.data.Frame
		case s.ba != nil:
			f = s.ba.f
		}
		if f == nil {
			continue
		}
		for _, e := range frameMeta(f, "column:"+s.spec.Name) {
			if e.Key == "_batch_array_metadata" {
				continue // BatchArray bookkeeping, not user metadata
			}
			out = append(out, e)
		}
	}
	return out
}

// Close releases every mapping. Safe to call twice.
func (t *Table) Close() error {
	if t.st == nil {
		return nil
	}
	// The store closes every frame it opened (a zip store's frames are
	// slices of its one mapping).
	err := t.st.close()
	t.st = nil
	return err
}

// srcsOf returns the sources exposed column c reads: its own, or a
// struct's leaves.
func (t *Table) srcsOf(c int) []int {
	s := t.cols[c].src
	if l, ok := t.srcs[s].parts.(*structLeaves); ok {
		return l.idx
	}
	return []int{s}
}

// FieldColumn returns the hidden column of leaf path of STRUCT column col
// (planner.FieldColumner): only leaves, which are columns of their own.
func (t *Table) FieldColumn(col int, path []int) (int, bool) {
	i, ok := t.fields[fieldKey(col, path)]
	return i, ok
}

// ScanSchema is Schema followed by the hidden leaf columns, named by
// their dotted paths.
func (t *Table) ScanSchema() columnar.Schema { return t.schema }

// fieldKey is the key of field path of exposed column col.
func fieldKey(col int, path []int) string {
	return fmt.Sprint(col, path)
}
