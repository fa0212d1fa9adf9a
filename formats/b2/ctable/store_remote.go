package ctable

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/b2sql/b2sql/formats/b2"
	"github.com/b2sql/b2sql/index"
	"github.com/b2sql/b2sql/storage"
)

// Tables and arrays on servers (S3, HTTP), read through ranges of
// storage.Sources: a .b2z through its zip central directory (in the tail
// the source's open already fetched) and then each member's header and
// tail (b2.OpenReaderAt), a .b2d as one object per member under its
// prefix, a .b2nd as one object. Chunk bytes are fetched when a scan
// decodes them, and only the blocks it needs: a FULL-index lookup reads
// the index and the blocks it names, not the columns.

// OpenZipSource opens the CTable .b2z held in src. The table owns src:
// Close closes it, and so does a failed open.
func OpenZipSource(src storage.Source) (*Table, error) {
	members, err := readZipDir(src, src.Size(), true)
	if err != nil {
		src.Close()
		return nil, tableError(src.Name(), "", err)
	}
	z := &zipStore{file: src, members: members, release: src.Close, size: src.Size(), headers: localHeaders(src, src.Size())}
	return openStore(z, src.Name())
}

// OpenArraySource opens the b2nd array (or frame) held in src as a table.
// The table owns src.
func OpenArraySource(src storage.Source) (*ArrayTable, error) {
	f, err := b2.OpenReaderAt(src, 0, src.Size(), src.Name())
	if err != nil {
		src.Close()
		return nil, fmt.Errorf("ctable: %w", err)
	}
	f.OnClose(src.Close)
	a, err := b2.NewArray(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ctable: %s: %w", src.Name(), err)
	}
	t, err := newArrayTable(a, src.Name(), stem(src.Name()))
	if err != nil {
		a.Close()
		return nil, err
	}
	t.remote = src
	return t, nil
}

// OpenPrefix opens the CTable .b2d whose members are the objects under
// location (s3://bucket/t.b2d or https://host/t.b2d). members lists their
// names relative to location when the store can list them (S3); nil means
// it cannot (HTTP), and a member is then looked for by opening it.
func OpenPrefix(location string, members []string, cfg *storage.Config) (*Table, error) {
	p := &prefixStore{base: strings.TrimRight(location, "/"), cfg: cfg, srcs: map[string]storage.Source{}}
	if members != nil {
		p.listed = map[string]bool{}
		for _, m := range members {
			p.listed[m] = true
		}
	}
	return openStore(p, location)
}

// prefixStore is a .b2d on a server: one object per member.
type prefixStore struct {
	base   string
	cfg    *storage.Config
	listed map[string]bool // nil: the server cannot list

	mu     sync.Mutex
	srcs   map[string]storage.Source // opened members (nil: known missing)
	frames []*b2.Frame
}

// source opens member's object once; a missing one is fs.ErrNotExist.
func (p *prefixStore) source(member string) (storage.Source, error) {
	if !validMember(member) {
		return nil, corruptf("member name %q escapes the table", member)
	}
	if p.listed != nil && !p.listed[member] {
		return nil, fmt.Errorf("no member %q: %w", member, fs.ErrNotExist)
	}
	p.mu.Lock()
	src, seen := p.srcs[member]
	p.mu.Unlock()
	if seen {
		if src == nil {
			return nil, fmt.Errorf("no member %q: %w", member, fs.ErrNotExist)
		}
		return src, nil
	}
	src, err := storage.Open(context.Background(), p.base+"/"+path.Clean(member), p.cfg)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if isNotExist(err) {
			p.srcs[member] = nil
		}
		return nil, err
	}
	if old := p.srcs[member]; old != nil {
		src.Close() // another goroutine opened it meanwhile
		return old, nil
	}
	p.srcs[member] = src
	return src, nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func (p *prefixStore) frame(member string) (*b2.Frame, error) {
	src, err := p.source(member)
	if err != nil {
		return nil, err
	}
	f, err := b2.OpenReaderAt(src, 0, src.Size(), member)
	if err != nil {
		return nil, err
	}
	noIndexReadAhead(f, member)
	p.mu.Lock()
	p.frames = append(p.frames, f)
	p.mu.Unlock()
	return f, nil
}

func (p *prefixStore) has(member string) bool {
	if p.listed != nil {
		return validMember(member) && p.listed[member]
	}
	_, err := p.source(member)
	return err == nil
}

func (p *prefixStore) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.srcs {
		if s != nil {
			s.Close()
		}
	}
	p.srcs, p.frames = map[string]storage.Source{}, nil
	return nil
}

// IO reports what the table's remote sources fetched since they were
// opened (planner.IOReporter); ok is false for a local table.
func (t *Table) IO() (io index.IOStats, ok bool) {
	switch st := t.st.(type) {
	case *zipStore:
		if src, isSrc := st.file.(storage.Source); isSrc {
			return ioOf(io, src), true
		}
	case *prefixStore:
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, s := range st.srcs {
			if s != nil {
				io = ioOf(io, s)
			}
		}
		return io, true
	}
	return io, false
}

// IO reports what the array's remote object fetched since it was opened
// (planner.IOReporter); ok is false for a local array.
func (t *ArrayTable) IO() (io index.IOStats, ok bool) {
	if t.remote == nil {
		return io, false
	}
	return ioOf(io, t.remote), true
}

// ioOf adds src's counters and size to io.
func ioOf(io index.IOStats, src storage.Source) index.IOStats {
	st := src.Stats()
	io.Requests += st.Requests
	io.Bytes += st.Bytes
	io.Size += src.Size()
	return io
}
