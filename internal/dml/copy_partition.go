package dml

import (
	"context"
	"crypto/rand"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// COPY … TO 'dir' (PARTITION_BY (a, b) | PER_THREAD_OUTPUT |
// FILE_SIZE_BYTES n, …) writes a directory of files instead of one file,
// as DuckDB does: with PARTITION_BY in the hive layout
// dir/a=1/b=x/data_0.parquet (the partition columns only in the path,
// unless WRITE_PARTITION_COLUMNS), a value escaped as DuckDB escapes it and
// NULL written __HIVE_DEFAULT_PARTITION__; a new file once one has
// FILE_SIZE_BYTES (see fileSizeOf). Every file is
// written to a temporary name and renamed when complete; an error aborts
// the files still open (finished ones stay, as in DuckDB). At most
// maxOpenPartitions writers are open at once — the least recently used is
// finished when another is needed, its partition continuing in a new file
// — so memory is bounded by that many writers' buffers.

// maxOpenPartitions is DuckDB's partitioned_write_max_open_files default.
const maxOpenPartitions = 100

// extOf is the file extension of a directory write's files.
func extOf(spec *copySpec) string {
	switch spec.format {
	case "ctable":
		if spec.b2z {
			return ".b2z"
		}
		return ".b2d"
	case "csv", "json":
		e := "." + spec.format
		switch spec.compression {
		case "gzip":
			e += ".gz"
		case "zstd":
			e += ".zst"
		}
		return e
	}
	return "." + spec.format
}

// hiveEscape writes a partition value as DuckDB does: letters, digits and
// - _ . ~ as they are, every other byte %XX.
func hiveEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// prepareDir makes dir ready for the write: created if missing; if it
// holds files, emptied with OVERWRITE, kept with OVERWRITE_OR_IGNORE or
// APPEND, else an error (DuckDB's rule: a write never mixes with files it
// was not told about).
func prepareDir(dir string, d *dirSpec, at sql.Pos) error {
	st, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case !st.IsDir():
		return &sql.Error{Pos: at, Kind: sql.ErrType, Msg: fmt.Sprintf("COPY TO %q writes a directory, and a file has that name", dir)}
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		return err
	}
	switch {
	case d.overwrite:
		for _, e := range ents {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	case d.ignore, d.appendTo:
	default:
		return &sql.Error{Pos: at, Kind: sql.ErrType, Msg: fmt.Sprintf("directory %q is not empty (OVERWRITE deletes its files first, OVERWRITE_OR_IGNORE replaces files of the same name, APPEND adds new ones)", dir)}
	}
	return nil
}

// openFile is one file being written in a directory write.
type openFile struct {
	w       tableWriter
	abort   func()
	path    string
	bytes   int64 // in-memory size of the rows written so far (batchBytes)
	lastUse int64
}

// partition is one output partition: its directory and next file number.
type partition struct {
	dir    string
	next   int
	thread int // PER_THREAD_OUTPUT: the thread's number, files thread+k*threads
	open   *openFile
}

// dirWriter writes the batches of a query into a directory's files.
type dirWriter struct {
	root    string
	d       *dirSpec
	spec    *copySpec
	schema  columnar.Schema // of the files
	keep    []int           // query columns written to files
	by      []int           // partition columns
	parts   map[string]*partition
	nOpen   int
	clock   int64
	threads int // PER_THREAD_OUTPUT files, dealt batches in turn
	turn    int
	sub     columnar.Batch
	rows    [][]int // per group of the current batch
	// sizes are the last two finished files' in-memory and disk bytes
	// (FILE_SIZE_BYTES, fileSizeOf).
	sizes []fileSize
}

type fileSize struct{ mem, disk float64 }

// newDirWriter resolves the partition columns in the query's schema.
func newDirWriter(root string, d *dirSpec, spec *copySpec, qs columnar.Schema) (*dirWriter, error) {
	w := &dirWriter{root: root, d: d, spec: spec, parts: map[string]*partition{}}
	for _, name := range d.by {
		i := slices.IndexFunc(qs, func(f columnar.Field) bool { return f.Name == name })
		if i < 0 {
			i = slices.IndexFunc(qs, func(f columnar.Field) bool { return strings.EqualFold(f.Name, name) })
		}
		if i < 0 {
			return nil, d.byArg.Err(sql.ErrUnknownColumn, fmt.Sprintf("PARTITION_BY: unknown column %q", name))
		}
		w.by = append(w.by, i)
	}
	for i, f := range qs {
		if d.writeCols || !slices.Contains(w.by, i) {
			w.keep = append(w.keep, i)
			w.schema = append(w.schema, f)
		}
	}
	if len(w.keep) == 0 {
		return nil, d.byArg.Err(sql.ErrType, "every column is a partition column, so the files would have none (WRITE_PARTITION_COLUMNS writes them too)")
	}
	if d.perThread && len(w.by) == 0 {
		w.threads = max(1, runtime.GOMAXPROCS(0))
	}
	w.sub.Cols = make([]*columnar.Vector, len(w.keep))
	return w, nil
}

// Write deals the batch's live rows to their partitions.
func (w *dirWriter) Write(b *columnar.Batch) error {
	n := b.Live()
	if n == 0 {
		return nil
	}
	for k, i := range w.keep {
		w.sub.Cols[k] = b.Cols[i]
	}
	w.sub.Len = b.Len
	if len(w.by) == 0 {
		key := ""
		if w.threads > 0 {
			key = strconv.Itoa(w.turn % w.threads)
			w.turn++
		}
		w.sub.Sel = b.Sel
		return w.writeTo(key, &w.sub, n)
	}
	// Group the rows by partition, in order of first appearance.
	var keys []string
	var first []int
	idx := map[string]int{}
	w.rows = w.rows[:0]
	var sb strings.Builder
	for k := range n {
		r := b.Row(k)
		sb.Reset()
		for j, c := range w.by {
			if j > 0 {
				sb.WriteByte('/')
			}
			sb.WriteString(w.d.by[j])
			sb.WriteByte('=')
			v := b.Cols[c].Value(r)
			if v.Null {
				sb.WriteString("__HIVE_DEFAULT_PARTITION__")
			} else {
				sb.WriteString(hiveEscape(v.String()))
			}
		}
		key := sb.String()
		g, ok := idx[key]
		if !ok {
			g = len(keys)
			idx[key] = g
			keys = append(keys, key)
			first = append(first, r)
			if g < len(w.rows) {
				w.rows[g] = w.rows[g][:0]
			} else {
				w.rows = append(w.rows, nil)
			}
			w.rows = w.rows[:g+1]
		}
		w.rows[g] = append(w.rows[g], r)
	}
	for g, key := range keys {
		w.sub.Sel = w.rows[g]
		if err := w.writeTo(key, &w.sub, len(w.rows[g])); err != nil {
			return err
		}
	}
	return nil
}

// writeTo writes sub's n live rows into partition key's current file.
func (w *dirWriter) writeTo(key string, sub *columnar.Batch, n int) error {
	p := w.parts[key]
	if p == nil {
		p = &partition{dir: filepath.Join(w.root, filepath.FromSlash(key))}
		if w.threads > 0 {
			p.dir = w.root
			p.thread, _ = strconv.Atoi(key)
		}
		w.parts[key] = p
	}
	if p.open == nil {
		if err := w.openFile(p); err != nil {
			return err
		}
	}
	w.clock++
	p.open.lastUse = w.clock
	if err := p.open.w.Write(sub); err != nil {
		return err
	}
	if w.d.fileSize > 0 {
		p.open.bytes += batchBytes(sub, n)
		if w.fileSizeOf(p.open) >= w.d.fileSize {
			return w.finish(p)
		}
	}
	return nil
}

// fileSizeOf estimates the size on disk of open file f, as DuckDB
// compares FILE_SIZE_BYTES with the bytes a file holds, not with its
// rows' size in memory (Parquet compresses them tenfold and more, CSV
// text is larger). A file's size is taken as a fixed part (footer,
// statistics, bloom filters) plus a part proportional to its rows'
// in-memory size, fitted to the last two files finished; with one, their
// ratio; before any, the rows' in-memory size.
func (w *dirWriter) fileSizeOf(f *openFile) int64 {
	m := float64(f.bytes)
	switch s := w.sizes; len(s) {
	case 0:
		return f.bytes
	case 2:
		// Two files of about the same size say nothing of the slope.
		if dm := s[1].mem - s[0].mem; math.Abs(dm) >= s[1].mem/4 {
			if rate := (s[1].disk - s[0].disk) / dm; rate > 0 {
				fixed := max(s[1].disk-rate*s[1].mem, 0)
				return int64(fixed + rate*m)
			}
		}
	}
	last := w.sizes[len(w.sizes)-1]
	return int64(m * last.disk / last.mem)
}

// diskSize is the bytes of the file (or, for a .b2d, the directory) at
// path; 0 when it cannot be told.
func diskSize(path string) int64 {
	var n int64
	filepath.WalkDir(path, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// openFile starts partition p's next file, first finishing the least
// recently used open file when maxOpenPartitions are open.
func (w *dirWriter) openFile(p *partition) error {
	if w.nOpen >= maxOpenPartitions {
		var lru *partition
		for _, q := range w.parts {
			if q.open != nil && (lru == nil || q.open.lastUse < lru.open.lastUse) {
				lru = q
			}
		}
		if err := w.finish(lru); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return err
	}
	i := p.next
	if w.threads > 0 {
		i = p.thread + p.next*w.threads // threads' files never share a number
	}
	name := strings.ReplaceAll(w.d.pattern, "{i}", strconv.Itoa(i))
	for strings.Contains(name, "{uuid}") {
		name = strings.Replace(name, "{uuid}", newUUID(), 1)
	}
	p.next++
	fw, abort, err := w.spec.open(filepath.Join(p.dir, name+extOf(w.spec)), w.schema)
	if err != nil {
		return err
	}
	p.open = &openFile{w: fw, abort: abort, path: filepath.Join(p.dir, name+extOf(w.spec))}
	w.nOpen++
	return nil
}

// finish closes p's open file (renaming it into place), and with
// FILE_SIZE_BYTES counts its bytes in memory and on disk.
func (w *dirWriter) finish(p *partition) error {
	f := p.open
	p.open = nil
	w.nOpen--
	if err := f.w.Close(); err != nil {
		return err
	}
	if w.d.fileSize > 0 && f.bytes > 0 {
		if n := diskSize(f.path); n > 0 {
			w.sizes = append(w.sizes, fileSize{float64(f.bytes), float64(n)})
			if len(w.sizes) > 2 {
				w.sizes = w.sizes[1:]
			}
		}
	}
	return nil
}

// Close finishes every open file.
func (w *dirWriter) Close() error {
	for _, key := range slices.Sorted(mapsKeys(w.parts)) {
		if p := w.parts[key]; p.open != nil {
			if err := w.finish(p); err != nil {
				w.Abort()
				return err
			}
		}
	}
	return nil
}

// Abort drops every open file, leaving no partial file.
func (w *dirWriter) Abort() {
	for _, p := range w.parts {
		if p.open != nil {
			p.open.abort()
			p.open = nil
		}
	}
	w.nOpen = 0
}

func mapsKeys(m map[string]*partition) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// batchBytes estimates the in-memory size of b's n live rows: fixed
// widths, and the strings' lengths.
func batchBytes(b *columnar.Batch, n int) int64 {
	var total int64
	for _, v := range b.Cols {
		if v.Type.Phys() != columnar.PhysBytes && v.Type.Phys() != columnar.PhysNested {
			total += int64(8 * n)
			continue
		}
		if v.Const {
			if !v.IsNull(0) {
				total += int64(n * (len(v.Value(0).S) + 4))
			}
			continue
		}
		for k := range n {
			if r := b.Row(k); !v.IsNull(r) {
				total += int64(len(v.Value(r).S)) + 4
			}
		}
	}
	return total
}

// newUUID is a random (version 4) UUID in its text form.
func newUUID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// copyToDir runs a directory-writing COPY … TO into dir.
func copyToDir(ctx context.Context, env *Env, c *sql.Copy, spec *copySpec, d *dirSpec, dir string, args []columnar.Value) (int64, error) {
	return writeQuery(ctx, env, c.Query, args, func(schema columnar.Schema) (tableWriter, func(), error) {
		w, err := newDirWriter(dir, d, spec, schema)
		if err != nil {
			return nil, nil, err
		}
		if err := prepareDir(dir, d, c.PathPos); err != nil {
			return nil, nil, err
		}
		return w, w.Abort, nil
	})
}
