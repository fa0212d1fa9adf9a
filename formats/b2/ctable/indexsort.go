package ctable

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// Sorting a column for a FULL index in bounded memory: entries (sort key,
// stored bits, physical row) are collected in runs of sortRunItems, each
// run sorted and spilled to a temporary file when the column holds more,
// and the runs merged. The order is numpy's stable ascending sort, the one
// python-blosc2 stores: keys compare as unsigned integers built so that
// signed ints, floats (-0 = +0, every NaN equal and last) and bools order
// like their values, and equal keys order by row.

// sortRunItems bounds the entries held in memory: 2M × 24 bytes = 48 MiB.
var sortRunItems = 1 << 21

// sortRec is one index entry.
type sortRec struct {
	key uint64 // order key (see sortKey)
	raw uint64 // the stored item bits, little-endian, zero-extended
	pos int64  // physical row
}

func cmpRec(a, b sortRec) int {
	switch {
	case a.key < b.key:
		return -1
	case a.key > b.key:
		return 1
	case a.pos < b.pos:
		return -1
	case a.pos > b.pos:
		return 1
	}
	return 0
}

// sortKey maps stored item bits of NumPy kind k and size isz to an
// unsigned key with the order of numpy's sort.
func sortKey(raw uint64, k byte, isz int) uint64 {
	switch k {
	case 'i':
		shift := uint(64 - 8*isz)
		return uint64(int64(raw<<shift)>>shift) ^ 1<<63
	case 'f':
		f := math.Float64frombits(raw)
		if isz == 4 {
			f = float64(math.Float32frombits(uint32(raw)))
		}
		if math.IsNaN(f) {
			return math.MaxUint64
		}
		if f == 0 {
			f = 0 // -0 sorts with +0
		}
		b := math.Float64bits(f)
		if b>>63 != 0 {
			return ^b
		}
		return b | 1<<63
	}
	return raw // uints, bools
}

// runSorter collects entries and yields them sorted.
type runSorter struct {
	tmpDir string // where runs are spilled
	buf    []sortRec
	files  []string
}

func (s *runSorter) add(r sortRec) error {
	s.buf = append(s.buf, r)
	if len(s.buf) >= sortRunItems {
		return s.spill()
	}
	return nil
}

// spill sorts the buffered run and writes it to a temporary file.
func (s *runSorter) spill() error {
	slices.SortFunc(s.buf, cmpRec)
	f, err := os.CreateTemp(s.tmpDir, "run-*")
	if err != nil {
		return err
	}
	s.files = append(s.files, f.Name())
	w := bufio.NewWriterSize(f, 1<<20)
	var rec [24]byte
	for _, r := range s.buf {
		binary.LittleEndian.PutUint64(rec[0:], r.key)
		binary.LittleEndian.PutUint64(rec[8:], r.raw)
		binary.LittleEndian.PutUint64(rec[16:], uint64(r.pos))
		if _, err := w.Write(rec[:]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	s.buf = s.buf[:0]
	return f.Close()
}

// each calls fn with every entry in order. The runs' files are removed by
// cleanup, not here.
func (s *runSorter) each(fn func(sortRec) error) error {
	if len(s.files) == 0 {
		slices.SortFunc(s.buf, cmpRec)
		for _, r := range s.buf {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.buf = nil
	h := &runHeap{}
	for _, name := range s.files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		rr := &runReader{r: bufio.NewReaderSize(f, 1<<18)}
		ok, err := rr.next()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if ok {
			h.rs = append(h.rs, rr)
		}
	}
	heap.Init(h)
	for len(h.rs) > 0 {
		top := h.rs[0]
		if err := fn(top.cur); err != nil {
			return err
		}
		ok, err := top.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// cleanup removes the spilled runs.
func (s *runSorter) cleanup() {
	for _, f := range s.files {
		os.Remove(f)
	}
	s.files = nil
}

// runReader reads one spilled run.
type runReader struct {
	r   *bufio.Reader
	cur sortRec
	b   [24]byte
}

func (rr *runReader) next() (bool, error) {
	if _, err := io.ReadFull(rr.r, rr.b[:]); err != nil {
		if err == io.EOF {
			return false, nil
		}
		return false, err
	}
	rr.cur = sortRec{key: binary.LittleEndian.Uint64(rr.b[0:]), raw: binary.LittleEndian.Uint64(rr.b[8:]),
		pos: int64(binary.LittleEndian.Uint64(rr.b[16:]))}
	return true, nil
}

// runHeap orders run readers by their current entry.
type runHeap struct{ rs []*runReader }

func (h *runHeap) Len() int           { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool { return cmpRec(h.rs[i].cur, h.rs[j].cur) < 0 }
func (h *runHeap) Swap(i, j int)      { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)         { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	x := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return x
}
