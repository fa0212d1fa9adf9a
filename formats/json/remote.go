package json

import (
	"fmt"

	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// Remote files (s3://, https://) are opened once through Options.Open and
// read through the storage.Source: the sample and compressed files as a
// stream with read-ahead (storage.OpenSourceStream), parallel ranges of
// uncompressed ones as one ranged request each.

// openRemote opens the remote file p.
func openRemote(p string, o Options) (*file, error) {
	if o.Open == nil {
		return nil, fmt.Errorf("json: %s: remote files need the session's storage configuration", p)
	}
	src, err := o.Open(p)
	if err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	var head [4]byte
	n, _ := src.ReadAt(head[:], 0)
	comp, err := storage.CompressionOf(p, o.Compression, head[:n])
	if err != nil {
		src.Close()
		return nil, err
	}
	return &file{path: p, size: src.Size(), comp: comp, f: src}, nil
}

// stream opens the file decompressed, from its start.
func (f *file) stream() (interface {
	Read([]byte) (int, error)
	Close() error
}, error) {
	if f.f != nil && storage.IsRemote(f.path) {
		return storage.OpenSourceStream(f.f, f.comp)
	}
	return storage.OpenStream(f.path, f.comp)
}

// readPrefix reads up to n bytes of the decompressed file (see
// storage.ReadPrefix).
func (f *file) readPrefix(n int) ([]byte, bool, error) {
	if f.f != nil && storage.IsRemote(f.path) {
		return storage.ReadPrefixSource(f.f, f.comp, n)
	}
	return storage.ReadPrefix(f.path, f.comp, n)
}

// IO reports what the table's remote files fetched since they were
// opened (planner.IOReporter); ok is false when every file is local.
func (t *Table) IO() (io index.IOStats, ok bool) {
	for _, f := range t.files {
		if !storage.IsRemote(f.path) || f.f == nil {
			continue // local files' f is set lazily, by another goroutine
		}
		src := f.f
		st := src.Stats()
		io.Requests += st.Requests
		io.Bytes += st.Bytes
		io.Size += f.size
		ok = true
	}
	return io, ok
}
