package ctable

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/internal/fsmode"
)

// Change is one atomic modification of an existing table: live rows
// deleted (tombstoned through _valid_rows, as python-blosc2's delete()
// does: values stay, indexes stay valid) and rows appended after the last
// physical row (as extend() does: every index goes stale, value_epoch is
// bumped), published together by Commit.
//
// The new version is built in a temporary directory next to the table
// from new versions of the members that change — _valid_rows, _meta.b2f,
// the columns appended to (whole stored chunks copied, only the last
// partial chunk recompressed), rebuilt SUMMARY sidecars — plus links to
// (or, from a .b2z, copies of) the members that do not. Commit swaps it in
// with one atomic rename: readers see the old table or the new one, never
// a mix, and an interrupted change leaves the old table as it was (plus a
// hidden ".<name>.tmp-*" directory, which no reader looks at).
//
// Every column file of the new version begins with the bytes of the old
// one's first rows, so a reader still holding the old version and opening
// a column only now reads the same values. A Change is not safe for
// concurrent use, and two Changes of one table must not overlap: callers
// serialize them (the b2sql package holds a lock file).
type Change struct {
	t      *Table
	path   string
	dir    string
	valid  []byte // _valid_rows of the old physical rows, once DeleteLive needs them
	nold   int64  // physical rows before the change
	cursor int64  // next physical row DeleteLive looks at
	delete int64  // rows tombstoned
	added  int64  // rows appended
	cols   []*colAppender
	vapp   *arrayAppender // _valid_rows, once rows are appended
	done   bool
	idx    []int
}

// Begin starts a change of the table at path (.b2d or .b2z).
func Begin(path string) (_ *Change, err error) {
	t, err := Open(path)
	if err != nil {
		return nil, err
	}
	c := &Change{t: t, path: path, nold: t.nphys}
	defer func() {
		if err != nil {
			c.Abort()
		}
	}()
	if c.dir, err = os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-"); err != nil {
		return nil, fmt.Errorf("ctable: %w", err)
	}
	return c, nil
}

// Table returns the version being changed (valid until Commit or Abort).
func (c *Change) Table() *Table { return c.t }

// Schema returns the SQL columns, as the table exposes them.
func (c *Change) Schema() columnar.Schema { return c.t.Schema() }

// Deleted and Appended count the rows changed so far.
func (c *Change) Deleted() int64  { return c.delete }
func (c *Change) Appended() int64 { return c.added }

// loadValid reads the old _valid_rows, on the first delete only: a byte
// per physical row, which an append (the common change) does not need.
func (c *Change) loadValid() error {
	if c.valid != nil {
		return nil
	}
	v, err := c.t.valid.ReadAll()
	if err != nil {
		return tableError(c.path, "_valid_rows.b2nd", err)
	}
	c.valid = v[:c.nold]
	return nil
}

// DeleteLive walks the next len(del) live rows of the old version, in
// physical order (the order a single-threaded scan returns them), and
// tombstones those whose flag is set.
func (c *Change) DeleteLive(del []bool) error {
	if err := c.loadValid(); err != nil {
		return err
	}
	for _, d := range del {
		for c.cursor < c.nold && c.valid[c.cursor] == 0 {
			c.cursor++
		}
		if c.cursor >= c.nold {
			return fmt.Errorf("ctable: %s: more rows to delete than live rows", c.path)
		}
		if d {
			c.valid[c.cursor] = 0
			c.delete++
		}
		c.cursor++
	}
	return nil
}

// Append adds the live rows of b, whose columns are Schema's, in order and
// with the same types. Values must already satisfy the column rules
// (Rules.Check); a NULL in a column without nulls, or a value a column
// cannot store (a string longer than a string(max_length) column, a
// value equal to the column's NULL sentinel), is an error.
func (c *Change) Append(b *columnar.Batch) error {
	if len(b.Cols) != c.t.nexp {
		return fmt.Errorf("ctable: %s: batch has %d columns, table has %d", c.path, len(b.Cols), c.t.nexp)
	}
	n := b.Live()
	if n == 0 {
		return nil
	}
	if c.cols == nil {
		if err := c.startAppend(); err != nil {
			return err
		}
	}
	c.idx = c.idx[:0]
	for i := 0; i < n; i++ {
		c.idx = append(c.idx, b.Row(i))
	}
	var zeros, reRows []int
	var re *columnar.Vector
	for i, v := range b.Cols {
		f := c.t.schema[i]
		if v.Type.Phys() != f.Type.Phys() {
			return fmt.Errorf("ctable: %s: column %q: batch holds %s, table has %s", c.path, f.Name, v.Type, f.Type)
		}
		rows := c.idx
		if v.Const {
			if zeros == nil {
				zeros = make([]int, n)
			}
			rows = zeros
		}
		e := c.t.cols[i]
		var err error
		switch l, leaves := c.t.srcs[e.src].parts.(*structLeaves); {
		case leaves: // a struct stored as leaf columns (leaves.go)
			for k, li := range l.idx {
				if err = c.cols[li].add(leafVector(v, l.paths[k], rows), rows); err != nil {
					break
				}
			}
		case !strings.HasPrefix(c.t.srcs[e.src].spec.Kind, "complex"):
			err = c.cols[e.src].add(v, rows)
		case e.part == 0:
			// The real half waits for the imaginary one (the next
			// column: a complex column exposes <name>_re, <name>_im).
			re, reRows = v, rows
		default:
			err = c.cols[e.src].addComplex(re, reRows, v, rows)
		}
		if err != nil {
			return fmt.Errorf("ctable: %s: column %q: %w", c.path, f.Name, err)
		}
	}
	ones := make([]byte, n)
	for i := range ones {
		ones[i] = 1
	}
	if err := c.vapp.append(ones); err != nil {
		return fmt.Errorf("ctable: %s: _valid_rows: %w", c.path, err)
	}
	c.added += int64(n)
	return nil
}

// startAppend opens every column's new version, positioned after the
// last physical row.
func (c *Change) startAppend() error {
	if len(c.t.skipped) > 0 {
		return unsupportedf("ctable: %s: column %q is of a kind rows cannot be appended to here", c.path, c.t.skipped[0])
	}
	c.cols = make([]*colAppender, len(c.t.srcs))
	for i, s := range c.t.srcs {
		if s.parts != nil {
			continue // its leaves are columns of their own
		}
		if err := s.open(c.t.st, c.t.nphys); err != nil {
			return tableError(c.path, "", err)
		}
		ca, err := newColAppender(c, s)
		if err != nil {
			return tableError(c.path, s.member(), err)
		}
		c.cols[i] = ca
	}
	var err error
	c.vapp, err = resumeArray(c.t.valid, c.nold, c.member("_valid_rows.b2nd"))
	if err != nil {
		return tableError(c.path, "_valid_rows.b2nd", err)
	}
	return nil
}

// member returns the path of a member of the new version.
func (c *Change) member(name string) string {
	return filepath.Join(c.dir, filepath.FromSlash(name))
}

// Commit publishes the new version. Without changes it does nothing. The
// Change is finished either way; on error the old table is untouched.
func (c *Change) Commit() (err error) {
	if c.done {
		return errors.New("ctable: Commit of a finished Change")
	}
	defer c.Abort()
	if c.delete == 0 && c.added == 0 {
		return nil
	}
	if err := c.build(); err != nil {
		return err
	}
	if err := c.publish(); err != nil {
		return fmt.Errorf("ctable: %s: %w", c.path, err)
	}
	return nil
}

// Stage finishes the new version as Commit does but moves it to path,
// which must not exist and must lie in the table's file system, instead
// of publishing it over the table: a transaction's pending version (b2sql
// keeps one per table a transaction changed and publishes it at COMMIT
// with PublishStaged). The table is left as it was. The Change is
// finished either way; without changes nothing is written.
func (c *Change) Stage(path string) (err error) { return c.stage(path, false) }

// StageCopy is Stage that also writes a Change without changes: a copy of
// the version it began from (links to its members for a .b2d), which the
// index statements then change in place of the table (b2sql stages a
// CTable a transaction indexes).
func (c *Change) StageCopy(path string) (err error) { return c.stage(path, true) }

func (c *Change) stage(path string, always bool) (err error) {
	if c.done {
		return errors.New("ctable: Stage of a finished Change")
	}
	defer c.Abort()
	if c.delete == 0 && c.added == 0 && !always {
		return nil
	}
	if err := c.build(); err != nil {
		return err
	}
	if strings.HasSuffix(strings.ToLower(c.path), ".b2z") {
		w := &Writer{dir: c.dir, path: path}
		if err := w.zipInto(); err != nil {
			return fmt.Errorf("ctable: %s: %w", path, err)
		}
		c.dir = "" // zipInto removed it
		return nil
	}
	if err := os.Rename(c.dir, path); err != nil {
		return fmt.Errorf("ctable: %w", err)
	}
	c.dir = ""
	return nil
}

// PublishStaged moves a version Stage wrote at staged over the table at
// path, atomically as Commit publishes (readers see the old table or the
// new one); staged is gone afterwards.
func PublishStaged(staged, path string) error {
	if fi, err := os.Stat(staged); err == nil && fi.IsDir() {
		return publishDir(staged, path)
	}
	if err := fsmode.Publish(staged, path); err != nil {
		return err
	}
	return os.Rename(staged, path)
}

// build writes every member of the new version into c.dir.
func (c *Change) build() (err error) {
	written := map[string]bool{"_valid_rows.b2nd": true, "_meta.b2f": true}
	var rebuilt map[string]mpMap
	if c.added > 0 {
		for _, ca := range c.cols {
			if ca == nil {
				continue // a struct of leaf columns
			}
			if err := ca.close(written); err != nil {
				return tableError(c.path, ca.s.member(), err)
			}
		}
		// Tombstones of old rows go into the resumed _valid_rows: rewrite
		// it from the (possibly edited) old bits plus the new ones.
		if c.delete > 0 {
			c.vapp.abort()
			if err := c.writeValid(); err != nil {
				return err
			}
		} else if err := c.vapp.close(); err != nil {
			return tableError(c.path, "_valid_rows.b2nd", err)
		}
		c.vapp = nil
		if rebuilt, err = c.rebuildSummaries(written); err != nil {
			return err
		}
	} else if err := c.writeValid(); err != nil {
		return err
	}
	if err := c.writeMeta(rebuilt); err != nil {
		return tableError(c.path, "_meta.b2f", err)
	}
	if err := c.carryOver(written); err != nil {
		return tableError(c.path, "", err)
	}
	return nil
}

// writeValid writes _valid_rows as the old bits (with tombstones) followed
// by one set bit per appended row, in the old array's geometry.
func (c *Change) writeValid() error {
	if err := c.loadValid(); err != nil {
		return err
	}
	a, err := createArray(c.member("_valid_rows.b2nd"), c.t.valid.DType.Str, c.t.valid.Meta.ChunkShape[0], c.t.valid.Meta.BlockShape[0])
	if err != nil {
		return tableError(c.path, "_valid_rows.b2nd", err)
	}
	err = a.append(c.valid)
	if err == nil && c.added > 0 {
		ones := make([]byte, c.added)
		for i := range ones {
			ones[i] = 1
		}
		err = a.append(ones)
	}
	if err != nil {
		a.abort()
		return tableError(c.path, "_valid_rows.b2nd", err)
	}
	if err := a.close(); err != nil {
		return tableError(c.path, "_valid_rows.b2nd", err)
	}
	return nil
}

// Abort discards the new version; the table is left as it was. Safe after
// Commit.
func (c *Change) Abort() {
	if c.done {
		return
	}
	c.done = true
	for _, ca := range c.cols {
		if ca != nil {
			ca.abort()
		}
	}
	if c.vapp != nil {
		c.vapp.abort()
	}
	if c.t != nil {
		c.t.Close()
	}
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// carryOver puts every member of the old version that the change did not
// rewrite into the new one: hard links for a .b2d (copies when linking
// fails), copies of the member bytes for a .b2z.
func (c *Change) carryOver(written map[string]bool) error {
	switch st := c.t.st.(type) {
	case *dirStore:
		return filepath.Walk(st.root, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			rel, err := filepath.Rel(st.root, p)
			if err != nil {
				return err
			}
			name := filepath.ToSlash(rel)
			if written[name] {
				return nil
			}
			dst := c.member(name)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if os.Link(p, dst) == nil {
				return nil
			}
			src, err := os.Open(p)
			if err != nil {
				return err
			}
			defer src.Close()
			return copyMember(dst, src, fi.Mode().Perm())
		})
	case *zipStore:
		for _, name := range st.names() {
			if written[name] {
				continue
			}
			m := st.members[name]
			if !m.stored {
				return unsupportedf("member %q is compressed", name)
			}
			dst := c.member(name)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			var src io.Reader = bytes.NewReader(st.data[m.off : m.off+m.size])
			if st.file != nil {
				// pread, not the mapping: see copyMember.
				src = io.NewSectionReader(st.file, m.off, m.size)
			}
			if err := copyMember(dst, src, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown store %T", c.t.st)
}

// copyMember writes src to a new file dst in pieces, so that carrying a
// member of any size over costs one buffer, not the member (read whole, or
// touched through the mapping, whose pages would stay in the process's
// resident set). Between two files io.Copy lets the kernel copy
// (copy_file_range).
func copyMember(dst string, src io.Reader, perm os.FileMode) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// publish moves the new version into place.
func (c *Change) publish() error {
	if strings.HasSuffix(strings.ToLower(c.path), ".b2z") {
		w := &Writer{dir: c.dir, path: c.path}
		if err := w.zipInto(); err != nil {
			return err
		}
		c.dir = "" // zipInto removed it
		return nil
	}
	if err := publishDir(c.dir, c.path); err != nil {
		return err
	}
	c.dir = ""
	return nil
}

// frameMetaRaw returns the vlmeta of a frame as raw msgpack values, in
// order.
func frameMetaRaw(f *b2.Frame) ([]b2.Metalayer, error) {
	var out []b2.Metalayer
	for _, name := range f.VLMetaNames() {
		raw, _, err := f.VLMeta(name)
		if err != nil {
			return nil, err
		}
		out = append(out, b2.Metalayer{Name: name, Content: raw})
	}
	return out, nil
}
