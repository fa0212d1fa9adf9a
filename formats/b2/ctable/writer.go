package ctable

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/internal/fsmode"
)

// CreateOptions configure Create. The zero value picks defaults.
type CreateOptions struct {
	// ChunkRows and BlockRows are the table-wide grid of fixed-width
	// columns and _valid_rows (0: 65536 and 8192). BlockRows is also the
	// segment length of the SUMMARY indexes.
	ChunkRows, BlockRows int
	// DictMaxValues: a VARCHAR column whose first SampleRows values hold
	// at most this many distinct values, each repeated 4 times on average,
	// becomes dictionary() (0: 4096).
	DictMaxValues int
	// SampleRows values of each VARCHAR column are looked at before its
	// flavour is chosen (0: 65536).
	SampleRows int
	// CParams compress the column arrays (codec, level, filters; the
	// typesize is set per column). nil: package b2's defaults.
	CParams *b2.CParams
	// NoSummary skips the SUMMARY indexes built on Close.
	NoSummary bool
	// Zip writes one .b2z zip whatever the path's suffix says (COPY …
	// (FORMAT b2z) to a name without .b2z); a path ending in .b2z is one
	// anyway.
	Zip bool
	// Metadata are user attributes (t.vlmeta in python-blosc2), stored in
	// _vlmeta.b2f; values are strings.
	Metadata map[string]string
}

// writerValueEpoch is the value_epoch of a table the Writer writes, which
// its string summaries record (strsummary.go).
const writerValueEpoch = 1

// Writer creates a CTable that python-blosc2 4.x opens: a .b2d directory,
// or a .b2z zip when the path ends in ".b2z". Rows are streamed chunk by
// chunk into a temporary directory next to path; Close writes the manifest
// and the SUMMARY indexes and renames the result into place, so readers
// never see a partial table. Not safe for concurrent use.
//
// SQL types map to python-blosc2 column kinds: integers, floats and
// BOOLEAN to the same kinds; TIMESTAMP to timestamp(unit="us"),
// TIMESTAMPTZ to timestamp(unit="us", timezone="UTC"), TIMESTAMP_NS to
// timestamp(unit="ns"); DATE to
// timestamp (midnight UTC) and INTERVAL to int64 (µs), since CTable has no
// such kinds; DECIMAL to float64; BLOB to vlbytes(); VARCHAR to
// dictionary(), string(max_length) or utf8() depending on its values (see
// stringWriter). Nullable columns use mask nulls. A STRUCT column becomes
// one column per leaf, as python-blosc2's from_arrow stores one
// (leafwrite.go); LIST columns become list columns (nested.go); MAP
// columns object columns of dicts (object.go); lists of lists, which
// python-blosc2 4.11 has no kind for, are refused.
type Writer struct {
	path   string
	dir    string // temporary table directory
	zip    bool
	schema columnar.Schema
	opts   CreateOptions
	cols   []colWriter
	valid  *b2.ArrayWriter
	ones   []byte
	rows   int64
	idx    []int
	kinds  jsonObj // metadata.b2sql_kinds: columns holding an object part
	err    error
	done   bool
}

// Create starts writing a table with schema at path.
func Create(path string, schema columnar.Schema, opts CreateOptions) (_ *Writer, err error) {
	if opts.ChunkRows <= 0 {
		opts.ChunkRows = 65536
	}
	if opts.BlockRows <= 0 {
		opts.BlockRows = 8192
	}
	opts.BlockRows = min(opts.BlockRows, opts.ChunkRows)
	if opts.DictMaxValues <= 0 {
		opts.DictMaxValues = 4096
	}
	if opts.SampleRows <= 0 {
		opts.SampleRows = 65536
	}
	w := &Writer{path: path, schema: schema, opts: opts, zip: opts.Zip || strings.HasSuffix(strings.ToLower(path), ".b2z")}
	parent := filepath.Dir(path)
	if w.dir, err = os.MkdirTemp(parent, "."+filepath.Base(path)+".tmp-"); err != nil {
		return nil, fmt.Errorf("ctable: %w", err)
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if err := os.MkdirAll(filepath.Join(w.dir, "_cols"), 0o755); err != nil {
		return nil, fmt.Errorf("ctable: %w", err)
	}
	w.valid, err = b2.CreateArray1D(w.member("_valid_rows.b2nd"), "|b1", arrayOpts(opts.ChunkRows, opts.BlockRows, opts.CParams, 1))
	if err != nil {
		return nil, fmt.Errorf("ctable: %s: %w", path, err)
	}
	seen := map[string]bool{}
	for _, f := range schema {
		if seen[f.Name] {
			return nil, fmt.Errorf("ctable: %s: column %q appears twice", path, f.Name)
		}
		seen[f.Name] = true
		cw, err := w.newColWriter(f)
		if err != nil {
			return nil, fmt.Errorf("ctable: %s: column %q: %w", path, f.Name, err)
		}
		w.cols = append(w.cols, cw)
	}
	return w, nil
}

// member returns the temporary path of a member.
func (w *Writer) member(name string) string {
	return filepath.Join(w.dir, filepath.FromSlash(name))
}

// renameMember renames a member inside the temporary tree.
func renameMember(w *Writer, from, to string) error {
	return os.Rename(w.member(from), w.member(to))
}

func (w *Writer) newColWriter(f columnar.Field) (colWriter, error) {
	base, err := colPath(f.Name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(w.member(base)), 0o755); err != nil {
		return nil, err
	}
	mask := &maskWriter{path: w.member(base + ".notnull.b2nd"), chunkRows: w.opts.ChunkRows, blockRows: w.opts.BlockRows, cp: w.opts.CParams}
	switch f.Type.ID {
	case columnar.Varchar:
		return &stringWriter{cfg: w, name: f.Name, base: base, nullable: f.Nullable, mask: mask}, nil
	case columnar.Struct:
		return newLeafWriter(f, w.newColWriter) // leafwrite.go
	case columnar.List, columnar.Map:
		nw, err := newNestedWriter(w.member(base+".b2b"), f)
		if err == nil && nw.n.hasObject() {
			w.kinds = append(w.kinds, jsonKV{f.Name, nw.n.kindTree()}) // object.go
		}
		return nw, err
	case columnar.Blob:
		ba, err := newBatchArrayWriter(w.member(base+".b2b"), "bytes", f.Nullable)
		if err != nil {
			return nil, err
		}
		return &varlenWriter{ba: ba, nullable: f.Nullable}, nil
	}
	fw := &fixedWriter{root: w.dir, name: f.Name, mask: mask, nullable: f.Nullable,
		idx: indexDirOf(f.Name) + "/summary.block.b2nd"}
	switch f.Type.ID {
	case columnar.Bool:
		fw.kind, fw.dtype = "bool", "|b1"
	case columnar.Int8:
		fw.kind, fw.dtype = "int8", "|i1"
	case columnar.Int16:
		fw.kind, fw.dtype = "int16", "<i2"
	case columnar.Int32:
		fw.kind, fw.dtype = "int32", "<i4"
	case columnar.Int64, columnar.Interval:
		fw.kind, fw.dtype = "int64", "<i8"
	case columnar.Uint8:
		fw.kind, fw.dtype = "uint8", "|u1"
	case columnar.Uint16:
		fw.kind, fw.dtype = "uint16", "<u2"
	case columnar.Uint32:
		fw.kind, fw.dtype = "uint32", "<u4"
	case columnar.Uint64:
		fw.kind, fw.dtype = "uint64", "<u8"
	case columnar.Float32:
		fw.kind, fw.dtype = "float32", "<f4"
	case columnar.Float64:
		fw.kind, fw.dtype = "float64", "<f8"
	case columnar.Hugeint, columnar.Uhugeint, columnar.Decimal128:
		// float64, as a DECIMAL(≤18) is: numpy has no 128-bit integer.
		fw.kind, fw.dtype = "float64", "<f8"
		fw.scale = 1
	case columnar.Decimal:
		fw.kind, fw.dtype = "float64", "<f8"
		fw.scale = 1
		for range f.Type.Scale {
			fw.scale *= 10
		}
	case columnar.Timestamp:
		fw.kind, fw.dtype, fw.tsKeys = "timestamp", "<i8", jsonObj{{"unit", "us"}}
	case columnar.TimestampTZ:
		// An instant in UTC microseconds: an Arrow timestamp with a zone,
		// read back as TIMESTAMPTZ (schema.go timestampType).
		fw.kind, fw.dtype, fw.tsKeys = "timestamp", "<i8", jsonObj{{"unit", "us"}, {"timezone", "UTC"}}
	case columnar.TimestampNS:
		fw.kind, fw.dtype, fw.tsKeys = "timestamp", "<i8", jsonObj{{"unit", "ns"}}
	case columnar.Date:
		fw.kind, fw.dtype, fw.tsKeys = "timestamp", "<i8", jsonObj{{"unit", "us"}}
		fw.dateMul = columnar.MicrosPerDay
	default:
		return nil, unsupportedType(f.Type)
	}
	dt, _ := b2.ParseDType(fw.dtype)
	fw.size = dt.ItemSize
	fw.aw, err = b2.CreateArray1D(w.member(base+".b2nd"), fw.dtype, arrayOpts(w.opts.ChunkRows, w.opts.BlockRows, w.opts.CParams, fw.size))
	if err != nil {
		return nil, err
	}
	if !w.opts.NoSummary {
		fw.sum = newSummaryBuilder(f.Name, fw.dtype, int64(w.opts.BlockRows))
	}
	return fw, nil
}

// Write appends the live rows of b, whose columns must match the schema
// given to Create (same order, same physical types).
func (w *Writer) Write(b *columnar.Batch) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("ctable: write to a closed Writer")
	}
	if len(b.Cols) != len(w.schema) {
		return fmt.Errorf("ctable: %s: batch has %d columns, table has %d", w.path, len(b.Cols), len(w.schema))
	}
	n := b.Live()
	if n == 0 {
		return nil
	}
	w.idx = w.idx[:0]
	for i := 0; i < n; i++ {
		w.idx = append(w.idx, b.Row(i))
	}
	var zeros []int
	for i, v := range b.Cols {
		if v.Type.Phys() != w.schema[i].Type.Phys() {
			return fmt.Errorf("ctable: %s: column %q: batch holds %s, table has %s", w.path, w.schema[i].Name, v.Type, w.schema[i].Type)
		}
		rows := w.idx
		if v.Const {
			if zeros == nil {
				zeros = make([]int, n)
			}
			rows = zeros
		}
		if err := w.cols[i].write(v, rows); err != nil {
			w.err = fmt.Errorf("ctable: %s: column %q: %w", w.path, w.schema[i].Name, err)
			return w.err
		}
	}
	if len(w.ones) < n {
		w.ones = bytes.Repeat([]byte{1}, n)
	}
	if err := w.valid.Append(w.ones[:n]); err != nil {
		w.err = fmt.Errorf("ctable: %s: _valid_rows: %w", w.path, err)
		return w.err
	}
	w.rows += int64(n)
	return nil
}

// Close finishes every column, writes the SUMMARY indexes, the manifest
// and the TreeStore bookkeeping, and moves the table into place (zipped
// for .b2z). After an error the partial table is removed.
func (w *Writer) Close() (err error) {
	if w.done {
		return w.err
	}
	w.done = true
	if w.err != nil {
		w.Abort()
		return w.err
	}
	defer func() {
		if err != nil {
			w.err = err
			w.Abort()
		}
	}()
	var cols, physical []string
	var catalog mpMap
	var parents jsonObj // struct_parents
	mask := false
	add := func(name string, obj jsonObj, idx mpMap) error {
		for _, kv := range obj {
			if kv.K == "null_storage" {
				mask = true
			}
		}
		js, err := marshalObj(append(jsonObj{{"name", name}}, obj...))
		if err != nil {
			return err
		}
		cols, physical = append(cols, js), append(physical, name)
		if idx != nil {
			catalog = append(catalog, mpEntry{name, idx})
		}
		return nil
	}
	for i, c := range w.cols {
		if lw, ok := c.(*leafWriter); ok {
			spec, err := lw.finishLeaves(w.rows, add)
			if err != nil {
				return fmt.Errorf("ctable: %s: column %q: %w", w.path, w.schema[i].Name, err)
			}
			parents = append(parents, jsonKV{w.schema[i].Name, spec})
			continue
		}
		obj, idx, err := c.finish(w.rows)
		if err == nil {
			err = add(w.schema[i].Name, obj, idx)
		}
		if err != nil {
			return fmt.Errorf("ctable: %s: column %q: %w", w.path, w.schema[i].Name, err)
		}
	}
	w.cols = nil
	if err := w.valid.Close(); err != nil {
		return fmt.Errorf("ctable: %s: _valid_rows: %w", w.path, err)
	}
	w.valid = nil
	version := 1
	var md jsonObj
	if parents != nil {
		// As python-blosc2's from_arrow: the nested metadata (version 2)
		// and the structs the leaves make (leaves.go).
		version = 2
		l2p := make(jsonObj, len(physical))
		for i, p := range physical {
			l2p[i] = jsonKV{p, p}
		}
		md = jsonObj{{"nested", jsonObj{{"version", 1}, {"logical_to_physical", l2p}, {"reconstruct_rows", true}}},
			{"struct_parents", parents}}
	}
	if w.kinds != nil {
		md = append(md, jsonKV{"b2sql_kinds", w.kinds})
	}
	meta := ""
	if md != nil {
		js, err := marshalObj(md)
		if err != nil {
			return err
		}
		meta = `, "metadata": ` + js
	}
	if mask {
		version = 3
	}
	schema := fmt.Sprintf(`{"version": %d, "columns": [%s]%s, "n_rows": %d, "summary_indexes_built": %v}`,
		version, strings.Join(cols, ", "), meta, w.rows, !w.opts.NoSummary)
	vl := []b2.Metalayer{
		{Name: "kind", Content: mpAppend(nil, "ctable")},
		{Name: "version", Content: mpAppend(nil, int64(1))},
		{Name: "schema", Content: mpAppend(nil, schema)},
		{Name: "value_epoch", Content: mpAppend(nil, int64(writerValueEpoch))},
	}
	if catalog != nil {
		vl = append(vl, b2.Metalayer{Name: "index_catalog", Content: mpAppend(nil, catalog)})
	}
	if err := emptyFrame(w.member("_meta.b2f"), nil, vl); err != nil {
		return err
	}
	if len(w.opts.Metadata) > 0 {
		keys := make([]string, 0, len(w.opts.Metadata))
		for k := range w.opts.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var uvl []b2.Metalayer
		for _, k := range keys {
			uvl = append(uvl, b2.Metalayer{Name: k, Content: mpAppend(nil, w.opts.Metadata[k])})
		}
		if err := emptyFrame(w.member("_vlmeta.b2f"), nil, uvl); err != nil {
			return err
		}
	}
	tree := []b2.Metalayer{{Name: "b2tree", Content: mpAppend(nil, mpMap{{"version", int64(1)}})}}
	estore := mpMap{{"embed_map", mpMap{}}, {"current_offset", int64(0)}}
	if err := emptyFrame(w.member("embed.b2e"), tree, []b2.Metalayer{{Name: "estore_metadata", Content: mpAppend(nil, estore)}}); err != nil {
		return err
	}
	if w.zip {
		return w.zipInto()
	}
	// Replacing an existing table, as COPY TO does: one atomic exchange
	// (change.go), so that readers never find the path missing.
	if err := publishDir(w.dir, w.path); err != nil {
		return fmt.Errorf("ctable: %w", err)
	}
	return nil
}

// emptyFrame writes a frame without chunks (typesize 1, chunksize 8192, as
// python-blosc2's empty SChunks) carrying metalayers.
func emptyFrame(path string, meta, vlmeta []b2.Metalayer) error {
	fw, err := b2.CreateFrame(path, &b2.FrameOptions{Typesize: 1, Chunksize: 8192, Meta: meta, VLMeta: vlmeta})
	if err != nil {
		return err
	}
	return fw.Close()
}

// zipInto packs the temporary tree into path with STORED members, largest
// first and embed.b2e last (as TreeStore.to_b2z writes), then removes it.
func (w *Writer) zipInto() error {
	type file struct {
		name string
		size int64
	}
	var files []file
	err := filepath.Walk(w.dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(w.dir, p)
		files = append(files, file{filepath.ToSlash(rel), fi.Size()})
		return nil
	})
	if err != nil {
		return err
	}
	sort.SliceStable(files, func(i, j int) bool {
		if (files[i].name == "embed.b2e") != (files[j].name == "embed.b2e") {
			return files[j].name == "embed.b2e"
		}
		if files[i].size != files[j].size {
			return files[i].size > files[j].size
		}
		return files[i].name < files[j].name
	})
	tmp, err := os.CreateTemp(filepath.Dir(w.path), "."+filepath.Base(w.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("ctable: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	zw := zip.NewWriter(tmp)
	for _, f := range files {
		if err := zipMemberFile(zw, w.member(f.name), f.name, f.size); err != nil {
			return fmt.Errorf("ctable: %s: %s: %w", w.path, f.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := fsmode.Publish(tmp.Name(), w.path); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), w.path); err != nil {
		return err
	}
	ok = true
	os.RemoveAll(w.dir)
	return nil
}

// zipMemberFile stores one file, CRC and sizes known up front so that the
// local header is complete (no data descriptor) and the member's data
// offset is what python-blosc2 computes from it.
func zipMemberFile(zw *zip.Writer, path, name string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	out, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Store, CRC32: h.Sum32(),
		CompressedSize64: uint64(size), UncompressedSize64: uint64(size)})
	if err != nil {
		return err
	}
	_, err = io.Copy(out, f)
	return err
}

// Abort discards everything written. Safe after Close.
func (w *Writer) Abort() error {
	for _, c := range w.cols {
		c.abort()
	}
	w.cols = nil
	if w.valid != nil {
		w.valid.Abort()
		w.valid = nil
	}
	w.done = true
	if w.dir != "" {
		os.RemoveAll(w.dir)
	}
	return nil
}

// marshalObj renders an ordered JSON object as python's json.dumps does
// (", " and ": " separators).
func marshalObj(o jsonObj) (string, error) {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			sb.WriteString(", ")
		}
		k, _ := json.Marshal(kv.K)
		sb.Write(k)
		sb.WriteString(": ")
		switch v := kv.V.(type) {
		case jsonObj:
			s, err := marshalObj(v)
			if err != nil {
				return "", err
			}
			sb.WriteString(s)
		case []jsonObj: // a struct's fields
			sb.WriteByte('[')
			for j, o := range v {
				if j > 0 {
					sb.WriteString(", ")
				}
				s, err := marshalObj(o)
				if err != nil {
					return "", err
				}
				sb.WriteString(s)
			}
			sb.WriteByte(']')
		default:
			b, err := json.Marshal(v)
			if err != nil {
				return "", err
			}
			sb.Write(b)
		}
	}
	sb.WriteByte('}')
	return sb.String(), nil
}

// publishDir replaces the directory at path by dir (both in one parent):
// one atomic exchange where the system has one, then the old version
// (now at dir) is removed.
func publishDir(dir, path string) error {
	if err := fsmode.Publish(dir, path); err != nil {
		return err
	}
	if err := exchangeDirs(dir, path); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}
