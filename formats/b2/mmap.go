package b2

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Mapping is a file mapped read-only (or, where mmap is impossible, read
// into memory). Concurrent readers of one file share page-cache pages
// instead of each holding a private copy.
type Mapping struct {
	Data []byte
	// File is the mapped file, kept open so that bulk reads can use pread
	// instead of the mapping (see chunkread.go); nil when Data was read
	// into memory. Close closes it.
	File  *os.File
	unmap bool
}

// MapFile maps path read-only. Where mmap is not possible (empty files,
// special filesystems) it falls back to reading the file into memory.
// Close the Mapping to unmap; Data must not be used after that.
func MapFile(path string) (*Mapping, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fd.Stat()
	if err != nil {
		fd.Close()
		return nil, err
	}
	size := st.Size()
	if size > 0 && size == int64(int(size)) {
		data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
		if err == nil {
			// One open file serves the mapping and pread: both see the
			// same inode even if the path is replaced meanwhile.
			return &Mapping{Data: data, File: fd, unmap: true}, nil
		}
	}
	defer fd.Close()
	data, err := io.ReadAll(fd)
	if err != nil {
		return nil, err
	}
	return &Mapping{Data: data}, nil
}

// Close unmaps and closes the file. Safe to call twice.
func (m *Mapping) Close() error {
	var errs []error
	if m.unmap {
		m.unmap = false
		errs = append(errs, unix.Munmap(m.Data))
	}
	if m.File != nil {
		errs = append(errs, m.File.Close())
		m.File = nil
	}
	return errors.Join(errs...)
}

// DropResident tells the kernel the process is done, for now, with the
// pages of the mapping it has touched: they leave its resident set (the
// page cache keeps them; a later touch maps them again with the same
// bytes). Openers call it after parsing headers and metadata, which on
// filesystems with large folios map up to a megabyte around each touch.
// A no-op for data read into memory, where MADV_DONTNEED would zero it.
func (m *Mapping) DropResident() {
	if m.unmap && len(m.Data) > 0 {
		// Advice only saves memory; an error changes nothing a reader sees.
		_ = unix.Madvise(m.Data, unix.MADV_DONTNEED)
	}
}
