package ctable

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/formats/b2"
)

// store is the tree of leaves a table is made of: a .b2d directory or the
// same tree as members of a .b2z zip. Member names use '/' and are relative
// to the table root ("_cols/id.b2nd").
type store interface {
	// frame opens a member as a Blosc2 frame. A missing member is an error
	// wrapping fs.ErrNotExist.
	frame(member string) (*b2.Frame, error)
	has(member string) bool
	close() error
}

// dirStore is a .b2d directory. Every frame is mapped on its own.
type dirStore struct {
	root string
	mu   sync.Mutex
	open []*b2.Frame
}

func (d *dirStore) frame(member string) (*b2.Frame, error) {
	if !validMember(member) {
		return nil, corruptf("member name %q escapes the table", member)
	}
	p := filepath.Join(d.root, filepath.FromSlash(member))
	if _, err := os.Stat(p); err != nil {
		return nil, err
	}
	f, err := b2.Open(p)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.open = append(d.open, f)
	d.mu.Unlock()
	return f, nil
}

func (d *dirStore) has(member string) bool {
	if !validMember(member) {
		return false
	}
	_, err := os.Stat(filepath.Join(d.root, filepath.FromSlash(member)))
	return err == nil
}

func (d *dirStore) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var first error
	for _, f := range d.open {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	d.open = nil
	return first
}

// zipStore is a .b2z read in place: one read-only mapping of the whole zip,
// each STORED member a sub-slice of it (python-blosc2 opens members the same
// way, at their data offset, and never extracts them).
type zipStore struct {
	data    []byte
	release func() error
	file    io.ReaderAt // the zip file: member frames pread chunk bytes from it; nil when data is in memory
	drop    func()      // drops the mapping's touched pages (b2.Mapping.DropResident)
	members map[string]zipMember
	size    int64      // of a zip read through ranges (data nil)
	mu      sync.Mutex // guards members of a zip read through ranges
	// headers are the members' local header offsets from the central
	// directory, for a remote zip (zip_prefetch.go); nil elsewhere.
	headers map[string]int64
}

// zipMember is a member's data range in the mapping.
type zipMember struct {
	off, size int64
	stored    bool
	zf        *zip.File // set while off is not read yet (readZipDir's lazy)
}

// openZipStore maps path and reads its central directory.
func openZipStore(path string) (*zipStore, error) {
	m, err := b2.MapFile(path)
	if err != nil {
		return nil, err
	}
	z, err := newZipStore(m.Data)
	if err != nil {
		m.Close()
		return nil, err
	}
	z.release, z.drop = m.Close, m.DropResident
	if m.File != nil {
		z.file = m.File
	}
	z.drop() // the central directory is read
	return z, nil
}

// newZipStore reads the zip held in data (which must outlive the store).
func newZipStore(data []byte) (*zipStore, error) {
	members, err := readZipDir(bytes.NewReader(data), int64(len(data)), false)
	if err != nil {
		return nil, err
	}
	return &zipStore{data: data, members: members}, nil
}

// readZipDir lists the members of the zip held in the size bytes of ra,
// and rejects member names that would escape the table. Each STORED
// member's data offset comes from its local header (archive/zip's
// DataOffset): read here, or with lazy (a remote zip, where each is a
// round trip) by the first frame() of the member, so that a query pays
// only for the members it opens.
func readZipDir(ra io.ReaderAt, size int64, lazy bool) (map[string]zipMember, error) {
	zr, err := zip.NewReader(ra, size)
	if err != nil && zr == nil {
		return nil, corruptf("zip: %v", err)
	}
	members := make(map[string]zipMember, len(zr.File))
	for _, f := range zr.File {
		name := f.Name
		if strings.HasSuffix(name, "/") {
			continue // directory entry
		}
		if !validMember(name) {
			return nil, corruptf("zip member name %q escapes the table", name)
		}
		if _, dup := members[name]; dup {
			return nil, corruptf("zip member %q appears twice", name)
		}
		m := zipMember{stored: f.Method == zip.Store}
		if m.stored {
			if f.CompressedSize64 != f.UncompressedSize64 || f.CompressedSize64 > uint64(size) {
				return nil, corruptf("zip member %q: stored with %d compressed and %d uncompressed bytes", name, f.CompressedSize64, f.UncompressedSize64)
			}
			m.size = int64(f.CompressedSize64)
			m.zf = f
			if !lazy {
				if m, err = m.locate(size); err != nil {
					return nil, err
				}
			}
		}
		members[name] = m
	}
	return members, nil
}

// locate reads the member's local header for its data offset, checking
// the data lies inside the size-byte file.
func (m zipMember) locate(size int64) (zipMember, error) {
	off, err := m.zf.DataOffset()
	if err != nil {
		return m, corruptf("zip member %q: %v", m.zf.Name, err)
	}
	if off < 0 || off > size-m.size {
		return m, corruptf("zip member %q: data [%d, +%d) outside the %d-byte file", m.zf.Name, off, m.size, size)
	}
	m.off, m.zf = off, nil
	return m, nil
}

func (z *zipStore) frame(member string) (*b2.Frame, error) {
	z.mu.Lock()
	m, ok := z.members[member]
	z.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no member %q: %w", member, fs.ErrNotExist)
	}
	if !m.stored {
		return nil, unsupportedf("member %q is compressed; only STORED members can be read in place", member)
	}
	if z.data == nil {
		// Read through ranges (a remote .b2z, store_remote.go).
		if m.zf != nil {
			z.prefetchMember(member, m)
			var err error
			if m, err = m.locate(z.size); err != nil {
				return nil, err
			}
			z.mu.Lock()
			z.members[member] = m
			z.mu.Unlock()
		}
		f, err := b2.OpenReaderAt(z.file, m.off, m.size, member)
		if err == nil {
			noIndexReadAhead(f, member)
		}
		return f, err
	}
	data := z.data[m.off : m.off+m.size : m.off+m.size]
	if z.file != nil {
		f, err := b2.NewFileFrame(data, member, z.file, m.off)
		z.drop() // the member's header, offsets and trailer are parsed
		return f, err
	}
	return b2.NewFrame(data, member)
}

func (z *zipStore) has(member string) bool {
	z.mu.Lock() // columns of one table open at once (openAtOnce) while frame records members
	_, ok := z.members[member]
	z.mu.Unlock()
	return ok
}

func (z *zipStore) close() error {
	var err error
	if z.release != nil {
		err = z.release()
	}
	z.release, z.data, z.file = nil, nil, nil
	return err
}

// names returns the member names, sorted (for tests and fuzzing).
func (z *zipStore) names() []string {
	z.mu.Lock()
	out := make([]string, 0, len(z.members))
	for n := range z.members {
		out = append(out, n)
	}
	z.mu.Unlock()
	sort.Strings(out)
	return out
}

// validMember reports whether name is a clean relative path that stays
// inside the table: no absolute paths, no "..", no backslashes or drive
// letters that another OS would read as a separator or root.
func validMember(name string) bool {
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") {
		return false
	}
	if len(name) >= 2 && name[1] == ':' {
		return false // "C:…" is a drive on Windows
	}
	if path.Clean(name) != name {
		return false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." || seg == "." {
			return false
		}
	}
	return true
}

// noIndexReadAhead turns the read-ahead off for an index sidecar: lookups
// binary-search it (b2.Frame.NoReadAhead says why); only scans read
// column data in order.
func noIndexReadAhead(f *b2.Frame, member string) {
	if strings.HasPrefix(member, "_indexes/") {
		f.NoReadAhead()
	}
}
