package executor

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/executor/spill"
)

// Grace hash join. A join's build side reserves its rows and table from
// the query's memory manager; when the manager refuses (ErrSpill), the
// join stops building: the rows held so far and the rest of the build side
// are dealt to spillParts spill files by a hash of their keys, and so,
// once the build side is read, are the probe side's rows, by the same hash
// of the probe keys. Equal keys meet in the same partition, so the join is
// the union of the partitions' joins: each is a HashJoin of its own over
// the two files, one after the other, which spills again (dealing by other
// hash bits) when its build still does not fit. Every join kind keeps its
// meaning partition by partition: a probe row's matches are all in its
// partition (LEFT, ANTI, MARK and SINGLE decide there), and so are a build
// row's (RIGHT, FULL, RIGHT SEMI/ANTI emit a partition's unmatched build
// rows after its probe). Rows with a NULL key match nothing and go to the
// partition of their hash like any other; a NULL-aware MARK join still
// reads whether the whole build side had rows and a NULL key.
//
// The copies of a parallel join share one build (JoinBuild): the first
// copy spills it, and each copy deals its own probe rows and joins them
// with every build partition, loading the partitions itself. RIGHT, FULL
// and RIGHT SEMI/ANTI joins must see every probe row of a partition
// before they know its unmatched build rows: there the copies hand their
// probe partitions to the last copy to finish dealing, which joins each
// build partition with all of them.
//
// A partition's join always takes its first build batch, and up to a
// sixteenth of the limit, past the limit if need be: copies share the
// memory, and a partition refused while another copy holds it all would
// only spill again, smaller, until its rows share one key.
//
// Files are removed as soon as they are joined (probe partitions) or when
// the last copy using the build releases it (Close), whichever way the
// query ends.

// A partition whose rows all share one key never gets smaller: a build
// that spilled graceStuck times in a row without splitting (all its rows
// in one partition) fails the query, and so does one graceMaxLevel spills
// deep. Under copies that share the memory a partition may be refused
// while others hold it, and spill again, smaller.
const (
	graceStuck    = 3
	graceMaxLevel = 16
)

// graceBuild is a spilled build side, shared by the copies of a parallel
// join.
type graceBuild struct {
	h     partHash
	types []columnar.Type
	files []*spill.File // per partition (nil: no row)
	rows  int64         // build rows in all
	null  bool          // some build row has a NULL key (MARK)

	mu     sync.Mutex
	users  int             // copies that hold the files; the last to release removes them
	probes [][]*spill.File // shared RIGHT/FULL: the probe partitions handed over
	dealt  int             // … by this many copies
}

// release drops one user of the files, removing them after the last.
func (gb *graceBuild) release() {
	gb.mu.Lock()
	gb.users--
	last := gb.users <= 0
	gb.mu.Unlock()
	if last {
		removeFiles(gb.files)
		for _, files := range gb.probes {
			removeFiles(files)
		}
	}
}

// graceJoin is one join copy's side of a spilled join: its probe
// partitions and the partition being joined.
type graceJoin struct {
	b        *graceBuild
	released bool
	pw       *partWriter     // the probe partitions being written
	probe    [][]*spill.File // … once written: per partition, its files
	parted   bool
	cur      int       // next partition to join
	sub      *HashJoin // the partition being joined
}

// buildOOM is the error of a build that cannot go on in memory.
func (j *HashJoin) buildOOM(need int64) error {
	name := "hash join build"
	if j.stuck >= graceStuck || j.level >= graceMaxLevel {
		name = "hash join build (a partition still too big after spilling; a key with too many rows)"
	}
	return &memory.OutOfMemory{Operator: name, Need: j.res.Size() + need, Limit: j.mem.Limit()}
}

// mustSpill reports whether the refusal err of a build's Grow of need
// bytes is to be answered by spilling the build; an error that is not
// is returned as the query's error, and nil means the bytes were forced.
func (j *HashJoin) mustSpill(err error, need int64) (bool, error) {
	var oom *memory.OutOfMemory
	empty := j.res.Size() <= j.pbufBytes
	spillable := errors.Is(err, memory.ErrSpill) ||
		errors.As(err, &oom) && len(j.RightKeys) > 0 && j.mem.TempDir() != "" && empty
	if !spillable {
		return false, err
	}
	if j.level > 0 && (empty || j.res.Size()+need <= j.mem.Limit()/spillParts) {
		j.res.Force(need) // a partition's minimum share
		return false, nil
	}
	if j.stuck >= graceStuck || j.level >= graceMaxLevel {
		return false, j.buildOOM(need)
	}
	return true, nil
}

// spillBuild deals the build rows held so far and the rest of right to
// partition files, and makes the join a grace join.
func (j *HashJoin) spillBuild(ctx context.Context, right Operator, keys []*columnar.Vector, rightDone bool) error {
	types := right.Types()
	gb := &graceBuild{h: newPartHash(j.level), types: types, null: j.buildNull, users: 1}
	if j.Shared != nil {
		gb.users = max(j.Shared.Probes, 1)
	}
	pw := newPartWriter(j.mem, j.res, types, gb.h)
	dec := make([]columnar.Vector, len(types))
	cols := make([]*columnar.Vector, len(types))
	deal := func(b *columnar.Batch, filters bool) error {
		for i, k := range j.RightKeys {
			v, err := k.Eval(b)
			if err != nil {
				return err
			}
			keys[i] = v
		}
		if filters {
			for _, f := range j.Filters {
				collectKeys(f, keys[f.Key], b)
			}
		}
		b.ForEach(func(i int) { gb.null = gb.null || anyKeyNull(keys, i) })
		gb.rows += int64(b.Live())
		for c, v := range b.Cols {
			cols[c] = decodeCoded(v, b, &dec[c])
		}
		return pw.add(ctx, b, cols, keys)
	}
	err := func() error {
		// The rows held so far, MaxBatch at a time (their join filter
		// keys are collected already).
		view := &columnar.Batch{Cols: make([]*columnar.Vector, len(types))}
		for c := range view.Cols {
			view.Cols[c] = &columnar.Vector{Type: types[c]}
		}
		for from := 0; from < j.build.n; from += columnar.MaxBatch {
			to := min(from+columnar.MaxBatch, j.build.n)
			view.Len, view.Sel = to-from, nil
			for c := range types {
				j.build.copyRange(view.Cols[c], c, from, to)
			}
			if err := deal(view, false); err != nil {
				return err
			}
		}
		j.build, j.index, j.indexSize, j.all = nil, nil, 0, nil
		j.res.Shrink(j.res.Size() - j.pbufBytes)
		for !rightDone {
			b, err := right.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := deal(b, true); err != nil {
				return err
			}
		}
		return nil
	}()
	if err != nil {
		pw.close()
		return err
	}
	files, err := pw.finish(ctx)
	if err != nil {
		return err
	}
	gb.files = files
	j.grace = &graceJoin{b: gb}
	return nil
}

func anyKeyNull(keys []*columnar.Vector, i int) bool {
	for _, v := range keys {
		if v.IsNull(idx(v, i)) {
			return true
		}
	}
	return false
}

// buildNonEmpty and buildHasNull are what a NULL-aware MARK join needs to
// know of the whole build side (a partition's join asks the spilled one).
func (j *HashJoin) buildNonEmpty() bool {
	if j.outer != nil {
		return j.outer.rows > 0
	}
	return j.build.n > 0 || j.blk != nil // blocks: a build over the limit
}

func (j *HashJoin) buildHasNull() bool {
	if j.outer != nil {
		return j.outer.null
	}
	return j.buildNull
}

// nextGrace is Next of a spilled join: the probe side is dealt to
// partitions first, then the partitions are joined in turn.
func (j *HashJoin) nextGrace(ctx context.Context) (*columnar.Batch, error) {
	g := j.grace
	if !g.parted {
		if err := j.partitionProbe(ctx); err != nil {
			return nil, err
		}
		g.parted = true
		if j.sharedMarks() && !j.takeProbes() {
			g.cur = spillParts // another copy joins this copy's rows
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g.sub != nil {
			b, err := g.sub.Next(ctx)
			if err != io.EOF {
				return b, err
			}
			j.endSub()
			continue
		}
		if g.cur >= spillParts {
			return nil, io.EOF
		}
		p := g.cur
		g.cur++
		bf, pfs := g.b.files[p], g.probe[p]
		g.probe[p] = nil // removed here or by the partition's join
		if bf == nil && !j.keepsProbeRows() || len(pfs) == 0 && !j.keepsBuildRows() {
			removeFiles(pfs)
			continue
		}
		g.sub = j.partitionJoin(bf, pfs)
		if err := g.sub.Open(ctx); err != nil {
			return nil, err
		}
	}
}

// takeProbes hands this copy's probe partitions to the shared build; the
// last copy to do so takes them all and reports true.
func (j *HashJoin) takeProbes() bool {
	g, gb := j.grace, j.grace.b
	gb.mu.Lock()
	defer gb.mu.Unlock()
	if gb.probes == nil {
		gb.probes = make([][]*spill.File, spillParts)
	}
	for p, files := range g.probe {
		gb.probes[p] = append(gb.probes[p], files...)
	}
	g.probe = make([][]*spill.File, spillParts)
	gb.dealt++
	if gb.dealt < max(j.Shared.Probes, 1) {
		return false
	}
	g.probe, gb.probes = gb.probes, nil
	return true
}

// keepsProbeRows reports whether probe rows with no match are output (or
// decide something), keepsBuildRows the same of build rows.
func (j *HashJoin) keepsProbeRows() bool {
	switch j.Kind {
	case JoinLeft, JoinFull, JoinAnti, JoinMark, JoinSingle:
		return true
	}
	return false
}

func (j *HashJoin) keepsBuildRows() bool {
	switch j.Kind {
	case JoinRight, JoinFull, JoinRightAnti:
		return true
	}
	return false
}

// sharedMarks reports whether the join's build rows are output from marks
// merged across the copies of a parallel join.
func (j *HashJoin) sharedMarks() bool {
	if j.Shared == nil {
		return false
	}
	switch j.Kind {
	case JoinRight, JoinFull, JoinRightSemi, JoinRightAnti:
		return true
	}
	return false
}

// partitionProbe deals this copy's probe rows to partition files.
func (j *HashJoin) partitionProbe(ctx context.Context) error {
	g := j.grace
	g.pw = newPartWriter(j.mem, j.res, j.leftTypes, g.b.h)
	keys := make([]*columnar.Vector, len(j.LeftKeys))
	dec := make([]columnar.Vector, len(j.leftTypes))
	cols := make([]*columnar.Vector, len(j.leftTypes))
	for {
		b, err := j.nextLeft(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for i, e := range j.LeftKeys {
			v, err := e.Eval(b)
			if err != nil {
				return err
			}
			keys[i] = v
		}
		for c, v := range b.Cols {
			cols[c] = decodeCoded(v, b, &dec[c])
		}
		if err := g.pw.add(ctx, b, cols, keys); err != nil {
			return err
		}
	}
	files, err := g.pw.finish(ctx)
	g.pw = nil
	g.probe = make([][]*spill.File, spillParts)
	for p, f := range files {
		if f != nil {
			g.probe[p] = []*spill.File{f}
		}
	}
	// The held probe rows are in the files now.
	j.pbuf, j.pview = nil, nil
	j.res.Shrink(j.pbufBytes)
	j.pbufBytes = 0
	return err
}

// partitionJoin is the join of one partition's build file (nil: no rows)
// and probe files, with the join's kind, keys and condition.
func (j *HashJoin) partitionJoin(bf *spill.File, pfs []*spill.File) *HashJoin {
	g := j.grace
	outer := j.outer
	if outer == nil {
		outer = g.b
	}
	var left, right Operator = &emptyOp{types: j.leftTypes}, &emptyOp{types: g.b.types}
	if len(pfs) > 0 {
		left = &spillScans{files: pfs, types: j.leftTypes}
	}
	if bf != nil {
		right = &spillScan{f: bf, types: g.b.types, keep: true}
	}
	stuck := 0
	if bf != nil && bf.Rows == g.b.rows {
		stuck = j.stuck + 1 // the spill did not split the build
	}
	return &HashJoin{Left: left, Right: right, Kind: j.Kind, LeftKeys: j.LeftKeys, RightKeys: j.RightKeys,
		Cond: j.Cond, Desc: j.Desc, NullAware: j.NullAware, Used: j.Used, mem: j.mem, level: j.level + 1, outer: outer,
		stuck: stuck}
}

// endSub closes the partition's join, keeping its figures.
func (j *HashJoin) endSub() {
	g := j.grace
	sub := g.sub
	g.sub = nil
	sub.Close()
	peak, spilled := sub.MemoryUse()
	j.subPeak = max(j.subPeak, peak)
	j.subSpill += spilled
}

// closeGrace ends a spilled join: the partition being joined, the files
// being written and this copy's probe partitions are dropped, and the
// build's files are released.
func (j *HashJoin) closeGrace() {
	g := j.grace
	if g == nil {
		return
	}
	if g.sub != nil {
		j.endSub()
	}
	if g.pw != nil {
		g.pw.close()
		g.pw = nil
	}
	for _, files := range g.probe {
		removeFiles(files)
	}
	g.probe = nil
	if !g.released {
		g.released = true
		g.b.release()
	}
}

// emptyOp is an operator with no rows (an empty partition's side).
type emptyOp struct{ types []columnar.Type }

func (e *emptyOp) Types() []columnar.Type                        { return e.types }
func (e *emptyOp) Children() []Operator                          { return nil }
func (e *emptyOp) String() string                                { return "Empty" }
func (e *emptyOp) Open(context.Context) error                    { return nil }
func (e *emptyOp) Next(context.Context) (*columnar.Batch, error) { return nil, io.EOF }
func (e *emptyOp) Close() error                                  { return nil }

// spillScans reads spill files one after the other as one operator; Close
// removes them, unless keep (files read again later).
type spillScans struct {
	files []*spill.File
	types []columnar.Type
	keep  bool
	cur   int
	r     *spill.Reader
}

func (s *spillScans) Types() []columnar.Type     { return s.types }
func (s *spillScans) Children() []Operator       { return nil }
func (s *spillScans) String() string             { return "SpillScan" }
func (s *spillScans) Open(context.Context) error { s.cur = 0; return nil }

func (s *spillScans) Next(ctx context.Context) (*columnar.Batch, error) {
	for {
		if s.r == nil {
			if s.cur >= len(s.files) {
				return nil, io.EOF
			}
			r, err := s.files[s.cur].Open()
			if err != nil {
				return nil, err
			}
			s.r = r
			s.cur++
		}
		b, err := s.r.Next(ctx)
		if err != io.EOF {
			return b, err
		}
		s.r.Close()
		s.r = nil
	}
}

func (s *spillScans) Close() error {
	if s.r != nil {
		s.r.Close()
		s.r = nil
	}
	if !s.keep {
		removeFiles(s.files)
	}
	return nil
}
