package tests

// The CTable side of the data directives: the same rows a table/generate
// directive writes as Parquet are written as a python-blosc2 CTable (.b2d
// directory or .b2z zip) with b2sql's ctable writer, SUMMARY indexes
// included, so that every query of a .test file runs over three storages
// and must give one answer.
//
// Two table states python-blosc2 produces but a fresh write does not are
// made by editing the written tree the way python-blosc2 would:
//
//   - deleted rows (delete=E): every row is written, then _valid_rows is
//     rewritten with false where E is non-zero and the schema's n_rows cache
//     set to the live count (python-blosc2's delete clears the bits and
//     leaves column data and indexes alone). The Parquet copy simply lacks
//     those rows.
//   - a stale index (stale=N): the SUMMARY sidecars and the index catalog
//     are those of the same table holding only its first N rows, as after
//     an index build followed by appends. Nothing marks the catalog entry
//     stale, so only its row count (N < rows) tells the reader.

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/formats/b2/ctable"
)

// Storage formats of the differential matrix.
const (
	fmtParquet = "parquet"
	fmtB2D     = "b2d"
	fmtB2Z     = "b2z"
)

// columnarType is the SQL type a directive column type denotes.
func (c colSpec) columnarType() columnar.Type {
	switch c.typ.name {
	case "BOOLEAN":
		return columnar.TBool
	case "TINYINT":
		return columnar.TInt8
	case "SMALLINT":
		return columnar.TInt16
	case "INTEGER":
		return columnar.TInt32
	case "BIGINT":
		return columnar.TInt64
	case "UTINYINT":
		return columnar.TUint8
	case "USMALLINT":
		return columnar.TUint16
	case "UINTEGER":
		return columnar.TUint32
	case "UBIGINT":
		return columnar.TUint64
	case "FLOAT":
		return columnar.TFloat32
	case "DOUBLE":
		return columnar.TFloat64
	case "DECIMAL":
		return columnar.DecimalType(c.typ.prec, c.typ.scale)
	case "VARCHAR":
		return columnar.TVarchar
	case "BLOB":
		return columnar.TBlob
	case "DATE":
		return columnar.TDate
	case "TIMESTAMP":
		return columnar.TTimestamp
	}
	panic("unreachable: " + c.typ.name)
}

// ctableRows is the grid of a table's CTable copy: chunk= and block=, else
// rowgroup= for both (one block per chunk, the CTable analogue of small
// row groups), else the writer's defaults.
func (ds *dataSpec) ctableOptions() ctable.CreateOptions {
	o := ctable.CreateOptions{ChunkRows: ds.chunkRows, BlockRows: ds.blockRows}
	if o.ChunkRows == 0 && ds.rowGroup > 0 {
		o.ChunkRows = ds.rowGroup
	}
	if o.BlockRows == 0 && ds.rowGroup > 0 {
		o.BlockRows = min(ds.rowGroup, o.ChunkRows)
	}
	return o
}

// writeCTable writes the table as a CTable with extension ext ("b2d" or
// "b2z") under dir/_<ext>/ and returns its path.
func (ds *dataSpec) writeCTable(dir, ext string) (string, error) {
	// CTable has no DATE or DECIMAL kind: the writer stores TIMESTAMP and
	// DOUBLE, so such a table would read back with other types. Say so
	// rather than compare different things.
	for _, c := range ds.cols {
		switch c.typ.name {
		case "DATE", "DECIMAL":
			return "", fmt.Errorf("column %s: CTable has no %s kind (b2sql writes it as %s): give the table formats=parquet, or the file an only directive",
				c.name, c.typ.name, map[string]string{"DATE": "TIMESTAMP", "DECIMAL": "DOUBLE"}[c.typ.name])
		}
	}
	sub := filepath.Join(dir, "_"+ext)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(sub, ds.name+"."+ext)
	edited := ds.deleteWhen != nil || ds.stale >= 0
	if ext == fmtB2Z && !edited {
		// The writer's own zip path, as COPY … TO 'x.b2z' uses it.
		return path, ds.createCTable(path, ds.rows)
	}
	tree := path
	if ext == fmtB2Z {
		tree = filepath.Join(sub, ds.name+".tree.b2d")
	}
	if err := ds.createCTable(tree, ds.rows); err != nil {
		return "", err
	}
	if ds.stale >= 0 {
		if err := ds.staleIndexes(tree, sub); err != nil {
			return "", fmt.Errorf("stale=%d: %w", ds.stale, err)
		}
	}
	if ds.deleteWhen != nil {
		if err := ds.deleteRows(tree); err != nil {
			return "", fmt.Errorf("delete=: %w", err)
		}
	}
	if ext == fmtB2Z {
		if err := zipTree(tree, path); err != nil {
			return "", err
		}
		if err := os.RemoveAll(tree); err != nil {
			return "", err
		}
	}
	return path, nil
}

// createCTable writes the first n rows (deleted ones included) to path.
func (ds *dataSpec) createCTable(path string, n int) error {
	schema := make(columnar.Schema, len(ds.cols))
	types := make([]columnar.Type, len(ds.cols))
	for j, c := range ds.cols {
		types[j] = c.columnarType()
		schema[j] = columnar.Field{Name: c.name, Type: types[j], Nullable: !c.notNull}
	}
	w, err := ctable.Create(path, schema, ds.ctableOptions())
	if err != nil {
		return err
	}
	const batchRows = 1000 // not a divisor of the usual grids: batches straddle chunks
	for start := 0; start < n; start += batchRows {
		m := min(batchRows, n-start)
		b := columnar.NewBatch(types, m)
		b.Len = m
		for j := range ds.cols {
			v := b.Cols[j]
			for r := range m {
				x := ds.cellAt(start+r, j)
				if x.null {
					v.SetNull(r, m)
					continue
				}
				switch v.Type.Phys() {
				case columnar.PhysBool:
					v.Bools[r] = x.i != 0
				case columnar.PhysUint:
					v.Uints[r] = x.u
				case columnar.PhysFloat:
					v.Floats[r] = x.f
				case columnar.PhysBytes:
					v.Bytes[r] = []byte(x.s)
				default:
					if ds.cols[j].typ.uint {
						v.Ints[r] = int64(x.u)
					} else {
						v.Ints[r] = x.i
					}
				}
			}
		}
		if err := w.Write(b); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// staleIndexes replaces the SUMMARY sidecars and the index catalog of the
// table at tree with those of its first ds.stale rows.
func (ds *dataSpec) staleIndexes(tree, scratch string) error {
	small := filepath.Join(scratch, ds.name+".prefix.b2d")
	if err := ds.createCTable(small, ds.stale); err != nil {
		return err
	}
	defer os.RemoveAll(small)
	if err := os.RemoveAll(filepath.Join(tree, "_indexes")); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(small, "_indexes"), filepath.Join(tree, "_indexes")); err != nil && !os.IsNotExist(err) {
		return err
	}
	catalog, ok, err := readVLMeta(filepath.Join(small, "_meta.b2f"), "index_catalog")
	if err != nil {
		return err
	}
	return editManifest(tree, func(name string, content []byte) ([]byte, bool, error) {
		if name == "index_catalog" {
			return catalog, ok, nil
		}
		return content, true, nil
	})
}

// deleteRows tombstones the rows where delete= holds: false in
// _valid_rows, n_rows = the live count.
func (ds *dataSpec) deleteRows(tree string) error {
	valid := make([]byte, ds.rows)
	live := 0
	for i := range valid {
		if !ds.deleted(i) {
			valid[i] = 1
			live++
		}
	}
	o := ds.ctableOptions()
	chunk, block := o.ChunkRows, o.BlockRows
	if chunk == 0 {
		chunk = 65536
	}
	if block == 0 {
		block = 8192
	}
	block = min(block, chunk)
	p := filepath.Join(tree, "_valid_rows.b2nd")
	if err := os.Remove(p); err != nil {
		return err
	}
	if err := b2.WriteArray(p, "|b1", []int64{int64(ds.rows)}, valid,
		&b2.ArrayOptions{ChunkShape: []int{chunk}, BlockShape: []int{block}}); err != nil {
		return err
	}
	return editManifest(tree, func(name string, content []byte) ([]byte, bool, error) {
		if name != "schema" {
			return content, true, nil
		}
		js, err := mpString(content)
		if err != nil {
			return nil, false, fmt.Errorf("schema: %w", err)
		}
		old := fmt.Sprintf(`"n_rows": %d`, ds.rows)
		if !strings.Contains(js, old) {
			return nil, false, fmt.Errorf("schema has no %s", old)
		}
		js = strings.Replace(js, old, fmt.Sprintf(`"n_rows": %d`, live), 1)
		return mpAppendString(nil, js), true, nil
	})
}

// readVLMeta returns the msgpack bytes of one vlmetalayer of a frame.
func readVLMeta(path, name string) ([]byte, bool, error) {
	f, err := b2.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return f.VLMeta(name)
}

// editManifest rewrites _meta.b2f, passing every vlmetalayer through edit
// (which may drop it by returning false).
func editManifest(tree string, edit func(name string, content []byte) ([]byte, bool, error)) error {
	p := filepath.Join(tree, "_meta.b2f")
	f, err := b2.Open(p)
	if err != nil {
		return err
	}
	names := f.VLMetaNames()
	if !contains(names, "index_catalog") {
		names = append(names, "index_catalog") // so that edit may add it
	}
	var vl []b2.Metalayer
	for _, n := range names {
		c, ok, err := f.VLMeta(n)
		if err != nil {
			f.Close()
			return err
		}
		if !ok {
			c = nil
		}
		c, keep, err := edit(n, c)
		if err != nil {
			f.Close()
			return err
		}
		if keep && c != nil {
			vl = append(vl, b2.Metalayer{Name: n, Content: c})
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return err
	}
	fw, err := b2.CreateFrame(p, &b2.FrameOptions{Typesize: 1, Chunksize: 8192, VLMeta: vl})
	if err != nil {
		return err
	}
	return fw.Close()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// mpString decodes a msgpack str.
func mpString(b []byte) (string, error) {
	if len(b) == 0 {
		return "", fmt.Errorf("empty msgpack")
	}
	var n, h int
	switch c := b[0]; {
	case c >= 0xa0 && c <= 0xbf:
		n, h = int(c&0x1f), 1
	case c == 0xd9 && len(b) >= 2:
		n, h = int(b[1]), 2
	case c == 0xda && len(b) >= 3:
		n, h = int(binary.BigEndian.Uint16(b[1:])), 3
	case c == 0xdb && len(b) >= 5:
		n, h = int(binary.BigEndian.Uint32(b[1:])), 5
	default:
		return "", fmt.Errorf("msgpack type 0x%02x is not a str", c)
	}
	if len(b) != h+n {
		return "", fmt.Errorf("msgpack str of %d bytes in %d", n, len(b)-h)
	}
	return string(b[h:]), nil
}

// mpAppendString appends s as a msgpack str.
func mpAppendString(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n < 1<<8:
		b = append(b, 0xd9, byte(n))
	case n < 1<<16:
		b = append(b, 0xda)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 0xdb)
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	return append(b, s...)
}

// zipTree packs a .b2d tree into a .b2z of STORED members, which is what
// python-blosc2 writes and what b2sql reads in place.
func zipTree(tree, path string) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	err = filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(tree, p)
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Store})
		if err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(w, in)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
