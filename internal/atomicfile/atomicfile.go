// Package atomicfile writes a file so that readers never see it partial:
// the bytes go to a temporary file in the target's directory, which Commit
// syncs and renames over the target; Abort removes it and leaves the
// target as it was.
package atomicfile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// File is a file being written; write through its buffered Writer.
type File struct {
	*bufio.Writer
	path string
	tmp  *os.File
	done bool
}

// Create starts writing path.
func Create(path string) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{Writer: bufio.NewWriterSize(tmp, 1<<20), path: path, tmp: tmp}, nil
}

// Commit flushes, syncs and renames the file into place. After an error
// the temporary file is gone and the target unchanged.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or aborted", f.path)
	}
	f.done = true
	fail := func(err error) error {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
		return err
	}
	if err := f.Flush(); err != nil {
		return fail(err)
	}
	if err := f.tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := f.tmp.Close(); err != nil {
		os.Remove(f.tmp.Name())
		return err
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		os.Remove(f.tmp.Name())
		return err
	}
	return nil
}

// Abort removes the temporary file; safe after Commit (then a no-op).
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}
