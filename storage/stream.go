package storage

import (
	"context"
	"io"
	"sync"
)

// Sequential reads of a Source, for the text formats' streams (a
// compressed CSV or JSON file is read from start to end): the object is
// fetched in windows, the next ones requested while the reader consumes
// the current, so a remote stream waits for the network once, not once a
// window.

// streamWindow is the size of one read of a sequential stream: one
// request of a remote source (8 MiB, as a parallel CSV range), one pread
// of a local one (1 MiB).
func streamWindow(src Source) int64 {
	if IsRemote(src.Name()) {
		return 8 << 20
	}
	return 1 << 20
}

// streamAhead is how many windows are in flight beyond the one being read.
const streamAhead = 2

// NewSequentialReader reads src from byte 0 to its end with read-ahead.
// Close stops the fetches in flight; it does not close src.
func NewSequentialReader(src Source) io.ReadCloser {
	ctx, cancel := context.WithCancel(context.Background())
	return &seqReader{src: src, ctx: ctx, cancel: cancel, window: streamWindow(src), limit: src.Size()}
}

type seqReader struct {
	src    Source
	ctx    context.Context
	cancel func()
	window int64

	limit int64 // bytes to read at most (the object's size by default)
	next  int64 // offset of the next window to request
	queue []chan fetched
	cur   []byte
	err   error
	once  sync.Once
}

type fetched struct {
	data []byte
	err  error
}

// fill requests windows until streamAhead+1 are queued or the object ends.
func (s *seqReader) fill() {
	size := s.limit
	for len(s.queue) <= streamAhead && s.next < size {
		off, n := s.next, min(s.window, size-s.next)
		s.next += n
		ch := make(chan fetched, 1)
		go func() {
			buf := make([]byte, n)
			k, err := s.src.ReadAtContext(s.ctx, buf, off)
			if err == io.EOF && int64(k) == n {
				err = nil
			}
			ch <- fetched{buf[:k], err}
		}()
		s.queue = append(s.queue, ch)
	}
}

func (s *seqReader) Read(p []byte) (int, error) {
	for len(s.cur) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.fill()
		if len(s.queue) == 0 {
			s.err = io.EOF
			return 0, io.EOF
		}
		f := <-s.queue[0]
		s.queue = s.queue[1:]
		if f.err != nil {
			s.err = f.err
			return 0, f.err
		}
		s.cur = f.data
		s.fill()
	}
	n := copy(p, s.cur)
	s.cur = s.cur[n:]
	return n, nil
}

func (s *seqReader) Close() error {
	s.once.Do(s.cancel)
	return nil
}

// OpenSourceStream is OpenStream over src, read with read-ahead; closing
// the stream leaves src open.
func OpenSourceStream(src Source, comp string) (io.ReadCloser, error) {
	seq := NewSequentialReader(src)
	d, err := Decompressor(seq, comp)
	if err != nil {
		seq.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{d, closers{d, seq}}, nil
}

// ReadPrefixSource is ReadPrefix over src. An uncompressed prefix fetches
// no more than it returns (and one byte).
func ReadPrefixSource(src Source, comp string, n int) ([]byte, bool, error) {
	seq := NewSequentialReader(src).(*seqReader)
	if comp == "" {
		seq.limit = min(seq.limit, int64(n)+1)
		seq.window = min(seq.window, seq.limit)
	}
	d, err := Decompressor(seq, comp)
	if err != nil {
		seq.Close()
		return nil, false, err
	}
	return readPrefix(struct {
		io.Reader
		io.Closer
	}{d, closers{d, seq}}, n)
}
