package spill

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Error is a spill failure; it names the temp directory.
type Error struct {
	Dir string
	Op  string // what was being done: "create", "write", "read"
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("spill: cannot %s in temp directory %s: %v; free space there, or set temp_directory or max_temp_directory_size", e.Op, e.Dir, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrTempFull is wrapped by the error of a write that would take the temp
// directory past max_temp_directory_size.
var ErrTempFull = errors.New("max_temp_directory_size reached")

// Dir is this process's spill directory under one temp directory. It is
// shared by every query that spills there; safe for concurrent use.
type Dir struct {
	temp string // the temp directory (the setting)

	mu    sync.Mutex
	path  string // this process's directory; "" until the first file
	files int    // files open or kept in path
	seq   int

	used atomic.Int64 // bytes of the files in path

	// create opens a new file; tests inject failing writers here.
	create func(path string) (io.WriteCloser, error)
}

var dirs struct {
	sync.Mutex
	m map[string]*Dir
}

// DirFor returns this process's spill directory under temp (made on first
// use); the first call for a temp directory removes the left-overs of
// processes that are no longer running.
func DirFor(temp string) *Dir {
	abs, err := filepath.Abs(temp)
	if err == nil {
		temp = abs
	}
	dirs.Lock()
	defer dirs.Unlock()
	if d := dirs.m[temp]; d != nil {
		return d
	}
	if dirs.m == nil {
		dirs.m = map[string]*Dir{}
	}
	d := &Dir{temp: temp, create: createFile}
	dirs.m[temp] = d
	removeLeftovers(temp)
	return d
}

func createFile(path string) (io.WriteCloser, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
}

// Temp is the temp directory this Dir spills into.
func (d *Dir) Temp() string { return d.temp }

// Used is the bytes this process holds in spill files there now.
func (d *Dir) Used() int64 { return d.used.Load() }

const prefix = "b2sql-spill-"

// newPath returns the path for a new file, making the process's directory
// if it does not exist.
func (d *Dir) newPath() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.path == "" {
		if err := os.MkdirAll(d.temp, 0o755); err != nil {
			return "", &Error{Dir: d.temp, Op: "create a spill directory", Err: err}
		}
		p, err := os.MkdirTemp(d.temp, prefix+strconv.Itoa(os.Getpid())+"-")
		if err != nil {
			return "", &Error{Dir: d.temp, Op: "create a spill directory", Err: err}
		}
		d.path = p
	}
	d.seq++
	d.files++
	return filepath.Join(d.path, strconv.Itoa(d.seq)+".arrow"), nil
}

// removed accounts for a file gone; the directory goes with its last file.
func (d *Dir) removed(bytes int64) {
	d.used.Add(-bytes)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files--
	if d.files == 0 && d.path != "" {
		os.RemoveAll(d.path)
		d.path = ""
	}
}

// removeLeftovers removes spill directories under temp whose process is no
// longer running.
func removeLeftovers(temp string) {
	entries, err := os.ReadDir(temp)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || running(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(temp, e.Name()))
	}
}

// running reports whether a process with this id exists (signal 0 probes
// without sending; EPERM means it exists but is someone else's).
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
