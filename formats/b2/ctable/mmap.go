package ctable

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps path read-only. A .b2z is read in place: every STORED member
// becomes a sub-slice of this one mapping, so opening a table costs no copy
// and concurrent scans share page-cache pages. Where mmap is impossible
// (empty files, some filesystems) the file is read into memory instead.
// package b2 has the same helper unexported; this is a local copy of the
// idea, not of its code.
func mapFile(path string) ([]byte, func() error, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size > 0 && size == int64(int(size)) {
		data, err := unix.Mmap(int(fd.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
		if err == nil {
			return data, func() error { return unix.Munmap(data) }, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
