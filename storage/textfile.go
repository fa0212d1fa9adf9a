package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/text/encoding"
)

// TextFile is one file of a text table (CSV, JSON): its location, size and
// compression, and the Source its byte ranges are read through. A remote
// file's Source is opened by OpenTextFile (through the session's open
// function, which carries its secrets and limits); a local one's on first
// use of Source. Safe for concurrent use.
type TextFile struct {
	Path string
	Size int64  // of the stored (compressed) bytes
	Comp string // "", "gzip" or "zstd"
	// Encoding, when not nil, decodes the (decompressed) text to UTF-8
	// in Stream and ReadPrefix (TextEncoding); ranges of Source are the
	// stored bytes. Set it before the first read.
	Encoding encoding.Encoding

	mu  sync.Mutex
	src Source
	err error
}

// OpenTextFile opens path, a local file or a remote location, detecting
// its compression from compression (DuckDB's option: auto, none, gzip,
// zstd), the extension or the first bytes. open opens remote locations; a
// nil open refuses them. Errors name the location and carry no format
// prefix: the format reader adds its own.
func OpenTextFile(path, compression string, open func(string) (Source, error)) (*TextFile, error) {
	var head [4]byte
	if IsRemote(path) {
		if open == nil {
			return nil, fmt.Errorf("%s: remote files need the session's storage configuration", path)
		}
		src, err := open(path)
		if err != nil {
			return nil, err
		}
		n, _ := src.ReadAt(head[:], 0)
		comp, err := CompressionOf(path, compression, head[:n])
		if err != nil {
			src.Close()
			return nil, err
		}
		return &TextFile{Path: path, Size: src.Size(), Comp: comp, src: src}, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	n, _ := io.ReadFull(f, head[:])
	f.Close()
	comp, err := CompressionOf(path, compression, head[:n])
	if err != nil {
		return nil, err
	}
	return &TextFile{Path: path, Size: st.Size(), Comp: comp}, nil
}

// Source returns the file's random-access Source, opening a local file on
// first use. It stays open until Close.
func (f *TextFile) Source() (Source, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.src == nil && f.err == nil {
		f.src, f.err = Open(context.Background(), f.Path, nil)
	}
	return f.src, f.err
}

// Stream opens the file decompressed and decoded, from its start: a
// remote file through its Source with read-ahead, a local one as a file of
// its own.
func (f *TextFile) Stream() (io.ReadCloser, error) {
	var r io.ReadCloser
	var err error
	if src := f.remote(); src != nil {
		r, err = OpenSourceStream(src, f.Comp)
	} else {
		r, err = OpenStream(f.Path, f.Comp)
	}
	if err != nil {
		return nil, err
	}
	return decoded(r, f.Encoding), nil
}

// ReadPrefix reads up to n bytes of the decompressed and decoded file;
// eof says they are the whole file.
func (f *TextFile) ReadPrefix(n int) ([]byte, bool, error) {
	if f.Encoding != nil {
		r, err := f.Stream()
		if err != nil {
			return nil, false, err
		}
		return readPrefix(r, n)
	}
	if src := f.remote(); src != nil {
		return ReadPrefixSource(src, f.Comp, n)
	}
	return ReadPrefix(f.Path, f.Comp, n)
}

// remote returns the Source of a remote file, nil for a local one.
func (f *TextFile) remote() Source {
	if !IsRemote(f.Path) {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.src
}

// RemoteStats reports what a remote file fetched since it was opened, and
// its size; ok is false for a local file.
func (f *TextFile) RemoteStats() (st Stats, size int64, ok bool) {
	if src := f.remote(); src != nil {
		return src.Stats(), f.Size, true
	}
	return Stats{}, 0, false
}

// SumRemote adds up RemoteStats over files (a text table's IO for EXPLAIN
// ANALYZE): requests, bytes fetched and the remote files' total size; ok
// is false when none is remote.
func SumRemote[F interface {
	RemoteStats() (Stats, int64, bool)
}](files []F) (total Stats, size int64, ok bool) {
	for _, f := range files {
		if st, n, remote := f.RemoteStats(); remote {
			total.Requests += st.Requests
			total.Bytes += st.Bytes
			total.Retries += st.Retries
			size += n
			ok = true
		}
	}
	return total, size, ok
}

// Close closes the Source if one is open; safe to call more than once. A
// closed local file opens again on the next use of Source; a remote one
// stays closed (its reads fail).
func (f *TextFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.src == nil {
		return nil
	}
	err := f.src.Close()
	if !IsRemote(f.Path) {
		f.src, f.err = nil, nil
	}
	return err
}
