package storage

import (
	"context"
	"os"
)

// localFile reads a file with pread; the format readers that map files keep
// doing so, this serves the ones that read ranges.
type localFile struct {
	f    *os.File
	name string
	size int64
	n    counters
}

func openLocal(path string) (Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &localFile{f: f, name: path, size: st.Size()}, nil
}

func (l *localFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := l.f.ReadAt(p, off)
	l.n.requests.Add(1)
	l.n.bytes.Add(int64(n))
	return n, err
}

func (l *localFile) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return l.ReadAt(p, off)
}

func (l *localFile) Size() int64  { return l.size }
func (l *localFile) Name() string { return l.name }
func (l *localFile) Stats() Stats { return l.n.stats() }
func (l *localFile) Close() error { return l.f.Close() }
