package tests

// The CTable side of the data directives: the same rows a table/generate
// directive writes as Parquet are written as a python-blosc2 CTable (.b2d
// directory or .b2z zip) with b2sql's ctable writer, SUMMARY indexes
// included, so that every query of a .test file runs over three storages
// and must give one answer.
//
// Two table states a fresh write does not produce are made afterwards:
//
//   - deleted rows (delete=E): every row is written, then the rows where E
//     is non-zero are tombstoned with ctable.Change (the path of SQL
//     DELETE). The Parquet copy simply lacks those rows.
//   - a stale index (stale=N): the SUMMARY sidecars and the index catalog
//     are those of the same table holding only its first N rows, as after
//     an index build followed by appends. Nothing marks the catalog entry
//     stale, so only its row count (N < rows) tells the reader.

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

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
	case "TIME":
		return columnar.TTime
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
		case "TIME":
			return "", fmt.Errorf("column %s: CTable has no TIME kind (b2sql refuses to write one): give the table formats=parquet, or the file an only directive", c.name)
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
	if ds.stale < 0 {
		// The writer's own paths, .b2z included, as COPY … TO uses them.
		if err := ds.createCTable(path, ds.rows); err != nil {
			return "", err
		}
	} else {
		tree := path
		if ext == fmtB2Z {
			tree = filepath.Join(sub, ds.name+".tree.b2d")
		}
		if err := ds.createCTable(tree, ds.rows); err != nil {
			return "", err
		}
		if err := ds.staleIndexes(tree, sub); err != nil {
			return "", fmt.Errorf("stale=%d: %w", ds.stale, err)
		}
		if ext == fmtB2Z {
			if err := zipTree(tree, path); err != nil {
				return "", err
			}
			if err := os.RemoveAll(tree); err != nil {
				return "", err
			}
		}
	}
	if ds.deleteWhen != nil {
		if err := ds.deleteRows(path); err != nil {
			return "", fmt.Errorf("delete=: %w", err)
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
	if err := w.Close(); err != nil {
		return err
	}
	for _, col := range ds.fullIndex {
		if err := ctable.CreateIndex(path, ctable.IndexOptions{Column: col, Kind: ctable.IndexFull}); err != nil {
			return fmt.Errorf("full=%s: %w", col, err)
		}
	}
	return nil
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

// deleteRows tombstones the rows where delete= holds through ctable.Change,
// the code path of SQL DELETE: _valid_rows cleared, n_rows updated, column
// data and indexes left as they are (as python-blosc2's delete does).
func (ds *dataSpec) deleteRows(path string) error {
	c, err := ctable.Begin(path)
	if err != nil {
		return err
	}
	del := make([]bool, ds.rows)
	for i := range del {
		del[i] = ds.deleted(i)
	}
	if err := c.DeleteLive(del); err != nil {
		c.Abort()
		return err
	}
	return c.Commit()
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
