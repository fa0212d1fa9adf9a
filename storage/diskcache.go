package storage

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The on-disk cache keeps the byte ranges remote sources fetch, so that a
// later query (in this process or another) reads them from local disk
// instead of the network. It is optional (Config.DiskCacheDir) and bounded
// in bytes (Config.DiskCacheBytes); the least recently used ranges go
// first.
//
// Layout: one directory per object version, named by a hash of the
// location, the object's validator (its strong ETag, else Last-Modified)
// and its size, so a replaced object never serves its old bytes; in it one
// file per fetched range, named <offset>-<length> in hex, holding a
// CRC-32C of the bytes and the bytes. Files are written under a temporary
// name and renamed into place, so another process sees a whole range or
// none; a file whose size or checksum is wrong (a crash before the data
// reached the disk) is removed and its range fetched again. Directories
// and files are private to the user (0700/0600): ranges fetched with one
// user's credentials are not readable by another.
//
// Cached ranges are found by listing the object's directory once, when the
// source opens; ranges another process writes later are not seen until
// the next open. A range evicted by another process is a miss: its bytes
// are fetched again.

// diskCache is one cache directory, shared by the sources of a process
// that name it.
type diskCache struct {
	dir   string
	limit int64
	// written counts bytes written since the last sweep; a sweep runs
	// when it passes a tenth of the limit (and on the first write).
	written  atomic.Int64
	swept    atomic.Bool
	sweeping sync.Mutex
}

var (
	diskCachesMu sync.Mutex
	diskCaches   = map[string]*diskCache{}
)

// DefaultDiskCacheBytes bounds a cache directory when Config gives no size.
const DefaultDiskCacheBytes = 1 << 30

// openDiskCache returns the process's cache of dir with the given bound.
func openDiskCache(dir string, limit int64) *diskCache {
	dir = filepath.Clean(dir)
	diskCachesMu.Lock()
	defer diskCachesMu.Unlock()
	c := diskCaches[dir]
	if c == nil {
		c = &diskCache{dir: dir}
		diskCaches[dir] = c
	}
	c.limit = limit
	return c
}

// diskObject is the cached ranges of one object version.
type diskObject struct {
	c    *diskCache
	dir  string
	mu   sync.Mutex
	segs []diskSeg // sorted by off
}

type diskSeg struct{ off, n int64 }

// object opens the cache of the object at location with validator and
// size, listing what earlier runs left; nil when validator is empty (an
// object that cannot be told from its replacement is not cached).
func (c *diskCache) object(location, validator string, size int64) *diskObject {
	if validator == "" {
		return nil
	}
	h := sha256.Sum256([]byte(location + "\x00" + validator + "\x00" + fmt.Sprint(size)))
	o := &diskObject{c: c, dir: filepath.Join(c.dir, hex.EncodeToString(h[:16]))}
	ents, _ := os.ReadDir(o.dir)
	for _, e := range ents {
		var s diskSeg
		if _, err := fmt.Sscanf(e.Name(), "%x-%x", &s.off, &s.n); err == nil && s.n > 0 && s.off >= 0 && s.off+s.n <= size &&
			e.Name() == segName(s) {
			o.segs = append(o.segs, s)
		}
	}
	sort.Slice(o.segs, func(i, j int) bool { return o.segs[i].off < o.segs[j].off })
	return o
}

func segName(s diskSeg) string { return fmt.Sprintf("%x-%x", s.off, s.n) }

// covering returns the segment holding byte off that reaches furthest.
func (o *diskObject) covering(off int64) (diskSeg, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	i := sort.Search(len(o.segs), func(i int) bool { return o.segs[i].off > off })
	var best diskSeg
	ok := false
	for j := i - 1; j >= 0; j-- {
		if s := o.segs[j]; s.off+s.n > off && (!ok || s.off+s.n > best.off+best.n) {
			best, ok = s, true
		}
	}
	return best, ok
}

// nextStart returns the smallest segment start in (off, limit), or limit.
func (o *diskObject) nextStart(off, limit int64) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	i := sort.Search(len(o.segs), func(i int) bool { return o.segs[i].off > off })
	if i < len(o.segs) && o.segs[i].off < limit {
		return o.segs[i].off
	}
	return limit
}

// read fills p (the bytes at off) from the cache where it can, and returns
// the ranges it could not, in order.
func (o *diskObject) read(p []byte, off int64) (gaps []Range) {
	end := off + int64(len(p))
	for pos := off; pos < end; {
		if s, ok := o.covering(pos); ok {
			to := min(end, s.off+s.n)
			if o.readSeg(s, p[pos-off:to-off], pos) {
				pos = to
				continue
			}
			o.drop(s)
			continue // another segment may still cover pos
		}
		to := o.nextStart(pos, end)
		gaps = append(gaps, Range{Off: pos, Len: to - pos})
		pos = to
	}
	return gaps
}

// readSeg copies the bytes of segment s at off into p, checking the
// whole segment's checksum.
func (o *diskObject) readSeg(s diskSeg, p []byte, off int64) bool {
	path := filepath.Join(o.dir, segName(s))
	data, err := os.ReadFile(path)
	if err != nil || int64(len(data)) != 4+s.n || crc32.Checksum(data[4:], castagnoli) != binary.LittleEndian.Uint32(data) {
		if err == nil {
			os.Remove(path) // torn or damaged: fetched again
		}
		return false
	}
	copy(p, data[4+off-s.off:])
	// Reads keep a range young for eviction (mtime, at most once a minute).
	if st, err := os.Stat(path); err == nil && time.Since(st.ModTime()) > time.Minute {
		now := time.Now()
		os.Chtimes(path, now, now)
	}
	return true
}

func (o *diskObject) drop(s diskSeg) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i, t := range o.segs {
		if t == s {
			o.segs = append(o.segs[:i], o.segs[i+1:]...)
			return
		}
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// write stores data fetched at off. Failures (a full disk, a directory
// removed by another process's sweep) only cost the cache: they are
// ignored.
func (o *diskObject) write(off int64, data []byte) {
	if len(data) == 0 || int64(len(data)) > o.c.limit/4 {
		return
	}
	s := diskSeg{off, int64(len(data))}
	if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return
	}
	f, err := os.CreateTemp(o.dir, ".tmp-*")
	if err != nil {
		return
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(data, castagnoli))
	_, err1 := f.Write(sum[:])
	_, err2 := f.Write(data)
	err3 := f.Close()
	if err := errors.Join(err1, err2, err3); err != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), filepath.Join(o.dir, segName(s))); err != nil {
		os.Remove(f.Name())
		return
	}
	o.mu.Lock()
	i := sort.Search(len(o.segs), func(i int) bool { return o.segs[i].off > off })
	o.segs = append(o.segs, diskSeg{})
	copy(o.segs[i+1:], o.segs[i:])
	o.segs[i] = s
	o.mu.Unlock()
	c := o.c
	if c.written.Add(int64(len(data))) > c.limit/10 || c.swept.CompareAndSwap(false, true) {
		c.written.Store(0)
		go c.sweep()
	}
}

// sweep removes the least recently used range files until the directory
// holds at most three quarters of the limit, once it holds more than the
// limit; and temporary files older than an hour (left by a crash).
// Processes sharing the directory may sweep at once: a file removed
// twice is no error.
func (c *diskCache) sweep() {
	if !c.sweeping.TryLock() {
		return
	}
	defer c.sweeping.Unlock()
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(path)
			}
			return nil
		}
		files = append(files, file{path, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= c.limit {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= c.limit/4*3 {
			break
		}
		os.Remove(f.path)
		total -= f.size
		os.Remove(filepath.Dir(f.path)) // only succeeds once it is empty
	}
}
