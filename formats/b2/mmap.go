package b2

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Mapping is a file mapped read-only (or, where mmap is impossible, read
// into memory). Concurrent readers of one file share page-cache pages
// instead of each holding a private copy.
type Mapping struct {
	Data []byte
	// Mapped is true when Data is a MAP_SHARED file mapping, so that pages
	// may be dropped from the process after use (see DropPages).
	Mapped bool
	unmap  bool
}

// MapFile maps path read-only. Where mmap is not possible (empty files,
// special filesystems) it falls back to reading the file into memory.
// Close the Mapping to unmap; Data must not be used after that.
func MapFile(path string) (*Mapping, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size > 0 && size == int64(int(size)) {
		data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
		if err == nil {
			return &Mapping{Data: data, Mapped: true, unmap: true}, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Mapping{Data: data}, nil
}

// Close unmaps. Safe to call twice.
func (m *Mapping) Close() error {
	if !m.unmap {
		return nil
	}
	m.unmap = false
	return unix.Munmap(m.Data)
}

// pageSize is the granularity of DropPages.
var pageSize = uintptr(os.Getpagesize())

// DropPages tells the kernel this process is done with the whole pages
// inside b, a part of a read-only MAP_SHARED file mapping: they leave the
// process's resident set (the page cache keeps them, and a later read
// faults them back in with the same bytes). A scan calls it after decoding
// a chunk, so that reading a file bigger than memory keeps the peak RSS at
// a few chunks instead of growing with every page touched. b must belong to
// a mapping with Mapped set: on ordinary memory MADV_DONTNEED zeroes pages.
func DropPages(b []byte) {
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := start + uintptr(len(b))
	lo := (start + pageSize - 1) &^ (pageSize - 1) // round inward: neighbours keep shared pages
	hi := end &^ (pageSize - 1)
	if hi <= lo {
		return
	}
	// Advice only saves memory; an error changes nothing a reader sees.
	_ = unix.Madvise(b[lo-start:hi-start], unix.MADV_DONTNEED)
}
