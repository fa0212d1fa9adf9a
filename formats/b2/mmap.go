package b2

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps path read-only so that concurrent readers of one file share
// page-cache pages instead of each holding a private copy. Where mmap is not
// possible (empty files, special filesystems) it falls back to reading the
// file into memory. The returned release function unmaps; the slice must not
// be used after it.
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
