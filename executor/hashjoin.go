package executor

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
)

// JoinKind says which rows a HashJoin keeps; see planner.JoinKind.
type JoinKind uint8

const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
	JoinSemi
	JoinAnti
	JoinMark
	JoinSingle
	// JoinRightSemi and JoinRightAnti are Semi and Anti with the sides
	// swapped, for when the preserved side is the smaller: it is built, the
	// other side probes and marks the build rows it matches, and at the end
	// the matched (semi) or unmatched (anti) build rows come out, build
	// columns only. Cond sees probe ++ build rows.
	JoinRightSemi
	JoinRightAnti
)

var joinKindNames = [...]string{"INNER", "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI", "MARK", "SINGLE", "RIGHT SEMI", "RIGHT ANTI"}

// HashJoin joins Left (probe side, streamed) with Right (build side, held
// in memory). LeftKeys are evaluated over left batches and RightKeys over
// right batches (same types, pairwise); a row with a NULL key never
// matches. With no keys every pair is a candidate (a nested-loop join).
// Cond, if non-nil, is evaluated over the concatenated left ++ right row of
// each candidate pair. Output: left columns then right columns; Semi and
// Anti output left columns only, Mark left columns then a BOOLEAN mark.
type HashJoin struct {
	Left, Right         Operator
	Kind                JoinKind
	LeftKeys, RightKeys []Expr
	Cond                Expr
	Desc                string // the condition, for EXPLAIN
	NullAware           bool   // Mark: IN rules (NULL when unmatched and a NULL key is involved)
	// Shared, when set, is the build side this join shares with the other
	// copies of a parallel probe pipeline (hashjoin_shared.go); Right is
	// then unused. Right and Full joins merge their marks there, and the
	// last copy to end its probe emits the unmatched build rows.
	Shared *JoinBuild
	// Filters, when set, are filled from the build keys once the build
	// side is complete, for the scans under the probe side (joinfilter.go).
	Filters []*JoinFilter
	// ProbeFilters, when set, make the join read its probe side first and
	// fill them from the probe keys (LeftKeys[f.Key]) for the scans under
	// the build side (hashjoin_probefirst.go). Not with Shared.
	ProbeFilters []*JoinFilter
	// Ranges, in a join without keys, are the conjuncts of Cond of the
	// form left < right (or <=, >, >=): the build rows are sorted by the
	// first one's right to find each probe row's candidates (rangejoin.go).
	// A second one, if any, has the same right, bounded from the other side.
	Ranges []RangeKey
	// BuildRows, when > 0, is the planner's estimate of the build side's
	// rows, to size the hash table once instead of growing it.
	BuildRows int
	// Used, when set, marks the output columns (left ++ right) the plan
	// reads; the others come out as constant NULLs, never gathered
	// (hashjoin_emit.go). nil: all of them.
	Used []bool

	mem       *memory.Manager      // the query's (SetMemory); nil: no accounting
	res       *memory.Reservation  // the build rows and table, the held probe rows
	indexSize int64                // the table's bytes reserved in res
	build     *chunkedStore        // the build rows (store_chunked.go)
	index     hashtab.Index        // the build rows by key (nil: no keys)
	probeSc   hashtab.ProbeScratch // this copy's scratch for probing index
	all       []int32              // every build row (no keys)
	rng       *rangeIndex          // the build rows sorted for Ranges, or nil
	blk       *blockLoop           // a nested loop built in blocks (nestedloop_spill.go)
	spoolRes  *memory.Reservation  // … its probe rows and their marks
	rngLeft   []*columnar.Vector   // scratch: the probe batch's Ranges values
	nested    nestedCursor         // the next pair of a nested loop (nestedloop.go)
	nextProbe int                  // the next live row of lb to probe (hashjoin_probe.go)
	probeStep int                  // live rows probed at once
	buildNull bool                 // some build row has a NULL key (Mark)
	matched   []bool               // per build row (Right, Full)

	lb        *columnar.Batch // current left batch
	lrows     []int           // its live rows
	lmatch    []bool          // per live left row
	lnull     []bool          // per live left row: NULL key
	pairL     []int32         // candidate pairs: position in lrows
	pairR     []int32         // … and build row
	pos       int             // next pair to emit
	phase     int             // 0 pairs, 1 left tail, 2 next left batch; 3 build tail, 4 done
	tailPos   int
	out       *columnar.Batch
	sel       []int
	key       []byte
	markVec   columnar.Vector
	leftTypes []columnar.Type
	out2      columnar.Batch
	markCols  []*columnar.Vector
	lidx      []int32  // scratch: left rows of the pairs being emitted
	emit      emitCols // which columns emitPairs gathers when (hashjoin_emit.go)
	keptL     []int32  // scratch: the pairs that passed Cond
	keptR     []int32
	pkeys     []*columnar.Vector // scratch: the probe keys of a batch
	tailRows  []int              // scratch: a left tail's unmatched rows

	plain       []*columnar.Vector // scratch: decoded coded keys
	decoded     []*columnar.Vector // scratch: probe columns passed through, decoded
	decodedVecs []*columnar.Vector // … their decoded vectors

	pbuf      *chunkedStore   // probe first: the held probe rows
	pbufBytes int64           // … their bytes reserved in res
	pbufPos   int             // next held row to replay
	pbufEOF   bool            // the probe side ended within the held rows
	pview     *columnar.Batch // a view of held rows

	// Spilling (hashjoin_grace.go).
	grace    *graceJoin  // the spilled build's partitions and this copy's probe
	level    int         // a partition's join: the spills above it
	outer    *graceBuild // a partition's join: the whole build (MARK's facts)
	stuck    int         // a partition's join: spills in a row that did not split its build
	subPeak  int64       // the partitions' joins' figures (MemoryUse)
	subSpill int64
}

func (j *HashJoin) Types() []columnar.Type {
	lt := j.Left.Types()
	switch j.Kind {
	case JoinSemi, JoinAnti:
		return lt
	case JoinMark:
		return append(append([]columnar.Type(nil), lt...), columnar.TBool)
	case JoinRightSemi, JoinRightAnti:
		return j.rightOp().Types()
	}
	// Each child's Types once: a chain of n joins must not ask 2^n times.
	return append(append([]columnar.Type(nil), lt...), j.rightOp().Types()...)
}

func (j *HashJoin) Children() []Operator {
	if j.Shared != nil {
		return []Operator{j.Left, j.Shared.Right}
	}
	return []Operator{j.Left, j.Right}
}

func (j *HashJoin) String() string {
	name := "HashJoin"
	if len(j.LeftKeys) == 0 {
		name = "NestedLoopJoin"
		if len(j.Ranges) > 0 {
			name = "RangeJoin"
		}
	}
	s := name + " " + joinKindNames[j.Kind]
	if j.Desc != "" {
		s += " " + j.Desc
	}
	return s
}

func (j *HashJoin) Close() error {
	err := j.Left.Close()
	right := j.Right
	if j.Shared != nil {
		right = j.Shared.Right
	}
	if e := right.Close(); err == nil {
		err = e
	}
	j.closeGrace()
	j.grace = nil
	j.closeBlocks()
	j.build, j.index, j.all, j.matched, j.rng = nil, nil, nil, nil, nil
	j.res.Free()
	j.probeSc = hashtab.ProbeScratch{}
	j.pbuf, j.pview = nil, nil
	return err
}

func (j *HashJoin) Open(ctx context.Context) error {
	j.pbuf, j.pbufBytes = nil, 0
	j.subPeak, j.subSpill = 0, 0
	j.closeGrace()
	j.grace = nil
	if j.res == nil {
		j.res = j.mem.Reserve("hash join build", len(j.RightKeys) > 0 || j.blockable())
	}
	j.closeBlocks()
	j.res.Free()
	j.probeSc = hashtab.ProbeScratch{} // a re-opened join has a new build table
	probeFirst := len(j.ProbeFilters) > 0 && j.Shared == nil
	if probeFirst {
		if err := j.openProbeFirst(ctx); err != nil {
			return err
		}
	}
	if j.Shared != nil {
		if err := j.Shared.open(ctx, j); err != nil {
			return err
		}
	} else if err := j.buildSide(ctx, j.Right); err != nil {
		return err
	}
	j.matched = nil
	switch j.Kind {
	case JoinRight, JoinFull, JoinRightSemi, JoinRightAnti:
		if j.grace == nil {
			j.matched = make([]bool, j.build.n)
		}
	}
	j.leftTypes = j.Left.Types()
	j.out = columnar.NewBatch(j.fullTypes(), columnar.MaxBatch)
	j.emit = j.emitPlan(len(j.out.Cols))
	j.phase, j.lb = 2, nil
	if probeFirst {
		return nil
	}
	return j.Left.Open(ctx)
}

// buildSide opens right and reads it all into the build store and table.
func (j *HashJoin) buildSide(ctx context.Context, right Operator) error {
	if err := right.Open(ctx); err != nil {
		return err
	}
	j.build = newChunkedStore(right.Types(), j.BuildRows)
	j.index, j.indexSize = nil, 0
	if len(j.RightKeys) > 0 {
		types := make([]columnar.Type, len(j.RightKeys))
		for i, k := range j.RightKeys {
			types[i] = k.Type()
		}
		j.index = hashtab.NewIndex(types)
	}
	j.all = j.all[:0]
	j.buildNull = false
	for _, f := range j.Filters {
		f.reset(j.mem)
	}
	keys := make([]*columnar.Vector, len(j.RightKeys))
	for {
		b, err := right.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for i, k := range j.RightKeys {
			v, err := k.Eval(b)
			if err != nil {
				return err
			}
			keys[i] = v
		}
		j.plainKeys(keys, b) // a build side never needs its codes
		base := int32(j.build.n)
		j.build.appendRows(b, b.Cols)
		for _, f := range j.Filters {
			collectKeys(f, keys[f.Key], b)
		}
		need := j.buildBytes(b)
		if err := j.res.Grow(need); err != nil && len(keys) == 0 && j.blockable() {
			// A nested loop builds in blocks (nestedloop_spill.go): this
			// batch ends the first one.
			j.res.Force(need)
			j.buildAll(b, base)
			if err := j.startBlocks(ctx, right); err != nil {
				return err
			}
			break
		} else if err != nil {
			spill, err := j.mustSpill(err, need) // hashjoin_grace.go
			if err != nil {
				return err
			}
			if spill {
				if err := j.spillBuild(ctx, right, keys, false); err != nil {
					return err
				}
				break
			}
		}
		if len(keys) == 0 {
			j.buildAll(b, base) // nestedloop.go
			continue
		}
		// The table's growth is reserved before the rows go in: a build
		// table that doubles past the limit spills (or fails, naming the
		// join) before it allocates, not after.
		if g := j.index.Growth(b.Live()); g > 0 {
			if err := j.res.Grow(g); err != nil {
				spill, err := j.mustSpill(err, g)
				if err != nil {
					return err
				}
				if spill {
					if err := j.spillBuild(ctx, right, keys, false); err != nil {
						return err
					}
					break
				}
			}
			j.indexSize += g
		}
		if j.index.Add(b, keys, base) {
			j.buildNull = true
		}
		j.settleIndex()
	}
	if j.grace != nil {
		for _, f := range j.Filters {
			f.finish()
		}
		return nil
	}
	if j.Kind == JoinSingle && len(j.RightKeys) == 0 && j.Cond == nil && j.build.n > 1 {
		return errSingleRow
	}
	if err := j.sortRanges(ctx, right.Types()); err != nil { // rangejoin.go
		return err
	}
	if err := j.finishIndex(ctx, right, keys); err != nil {
		return err
	}
	for _, f := range j.Filters {
		f.finish()
	}
	return nil
}

// buildBytes is what the build side's rows of b take: the stored rows
// and, with keys, a matched flag each (right and full joins); the keyed
// table reserves its own bytes (Growth, FinishBytes, settleIndex), so
// the per-row bookkeeping storeBytes adds for a store without one (the
// nested loop's row list, a spool's) is not counted twice: it made a
// 10M-row build of two integer columns reserve 48 bytes a row beside
// its table for 12 stored, and spill at memory_limit '1GB'.
func (j *HashJoin) buildBytes(b *columnar.Batch) int64 {
	if len(j.RightKeys) == 0 {
		return storeBytes(b, b.Cols)
	}
	return chunkBytes(b, b.Cols) + int64(b.Live())
}

// finishIndex finishes the build table. Finishing lays the table out
// beside the lists it is built from: reserved before (a refusal spills
// the build, or fails naming the join), then given back to what the
// finished table holds.
func (j *HashJoin) finishIndex(ctx context.Context, right Operator, keys []*columnar.Vector) error {
	if j.index == nil {
		return nil
	}
	need := j.index.FinishBytes()
	if err := j.res.Grow(need); err != nil {
		spill, err := j.mustSpill(err, need)
		if err != nil {
			return err
		}
		if spill {
			return j.spillBuild(ctx, right, keys, true)
		}
	}
	j.indexSize += need
	j.index.Finish()
	j.settleIndex()
	return nil
}

// settleIndex makes the build table's reservation what it holds, once
// an Add or Finish reserved ahead for it: the excess goes back; what an
// estimate missed is taken (forced: it is allocated already).
func (j *HashJoin) settleIndex() {
	n := j.index.Bytes()
	if n < j.indexSize {
		j.res.Shrink(j.indexSize - n)
	} else if n > j.indexSize {
		j.res.Force(n - j.indexSize)
	}
	j.indexSize = n
}

// SetMemory makes the join reserve its build side (and held probe rows)
// from m. A build that does not fit fails the query, naming the join.
func (j *HashJoin) SetMemory(m *memory.Manager) { j.mem = m }

// fullTypes is left ++ right: the layout Cond is evaluated over.
func (j *HashJoin) fullTypes() []columnar.Type {
	return append(append([]columnar.Type(nil), j.Left.Types()...), j.rightOp().Types()...)
}

// rightOp is the build side's operator, shared or not.
func (j *HashJoin) rightOp() Operator {
	if j.Shared != nil {
		return j.Shared.Right
	}
	return j.Right
}

func (j *HashJoin) Next(ctx context.Context) (*columnar.Batch, error) {
	if j.grace != nil {
		return j.nextGrace(ctx) // hashjoin_grace.go
	}
	for {
		switch j.phase {
		case 0:
			if j.pos >= len(j.pairL) {
				if more, err := j.morePairs(ctx); more || err != nil { // hashjoin_probe.go
					if err != nil {
						return nil, err
					}
					continue
				}
				j.phase, j.tailPos = 1, 0
				continue
			}
			b, err := j.emitPairs()
			if err != nil {
				return nil, err
			}
			if b != nil {
				return b, nil
			}
		case 1:
			j.phase = 2
			if b := j.leftTail(); b != nil {
				return b, nil
			}
		case 2:
			b, err := j.nextLeft(ctx)
			if err == io.EOF {
				j.phase, j.tailPos = 3, 0
				if j.blk != nil {
					j.endPass() // nestedloop_spill.go
				} else if j.Shared != nil && j.matched != nil {
					j.matched = j.Shared.endProbe(j.matched)
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			if err := j.probe(b); err != nil {
				return nil, err
			}
			j.phase, j.pos = 0, 0
		case 3:
			if j.matched == nil {
				j.phase = 4
				continue
			}
			if b := j.buildTail(); b != nil {
				return b, nil
			}
			j.phase = 4
		default:
			phase, more, err := j.nextBlock(ctx) // nestedloop_spill.go
			if err != nil {
				return nil, err
			}
			if more {
				j.phase, j.lb = phase, nil
				continue
			}
			return nil, io.EOF
		}
	}
}

// marksOnly reports whether the kind outputs no pairs, only rows marked
// by them.
func (j *HashJoin) marksOnly() bool {
	switch j.Kind {
	case JoinSemi, JoinAnti, JoinMark, JoinRightSemi, JoinRightAnti:
		return true
	}
	return false
}

func resetBools(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// leftTail emits what a left batch contributes after its pairs: unmatched
// rows NULL-extended (Left, Full, Single), matched rows (Semi), unmatched
// rows (Anti), every row with its mark (Mark).
func (j *HashJoin) leftTail() *columnar.Batch {
	if j.blk != nil && j.saveMarks() { // nestedloop_spill.go
		return nil
	}
	b := j.lb
	j.sel = j.sel[:0]
	switch j.Kind {
	case JoinSemi, JoinAnti:
		want := j.Kind == JoinSemi
		for k, i := range j.lrows {
			if j.lmatch[k] == want {
				j.sel = append(j.sel, i)
			}
		}
		if len(j.sel) == 0 {
			return nil
		}
		j.out2 = columnar.Batch{Cols: j.plainCols(b), Len: b.Len, Sel: j.sel}
		return &j.out2
	case JoinMark:
		m := &j.markVec
		m.Type = columnar.TBool
		m.Reset(b.Len)
		for k, i := range j.lrows {
			switch {
			case j.lmatch[k]:
				m.Bools[i] = true
			case j.NullAware && j.buildNonEmpty() && (j.lnull[k] || j.buildHasNull()):
				m.SetNull(i, b.Len)
			default:
				m.Bools[i] = false
			}
		}
		cols := append(append(j.markCols[:0], j.plainCols(b)...), m)
		j.markCols = cols
		j.out2 = columnar.Batch{Cols: cols, Len: b.Len, Sel: b.Sel}
		return &j.out2
	case JoinLeft, JoinFull, JoinSingle:
	default:
		return nil
	}
	rows := j.tailRows[:0]
	for k, i := range j.lrows {
		if !j.lmatch[k] {
			rows = append(rows, i)
		}
	}
	j.tailRows = rows
	if len(rows) == 0 {
		return nil
	}
	n := len(rows)
	out := j.out
	out.Len, out.Sel = n, nil
	nl := len(j.leftTypes)
	for c := range nl {
		dst, src := out.Cols[c], b.Cols[c]
		dst.Reset(n)
		for k, i := range rows {
			dst.CopyRow(k, src, i, n)
		}
	}
	for c := nl; c < len(out.Cols); c++ {
		setAllNull(out.Cols[c], n)
	}
	return out
}

// buildTail emits build rows no pair matched, NULL-extended on the left
// (Right, Full), one chunk per call.
func (j *HashJoin) buildTail() *columnar.Batch {
	want := j.Kind == JoinRightSemi // matched rows; else unmatched ones
	rows := j.lidx[:0]
	for len(rows) == 0 && j.tailPos < j.build.n {
		for j.tailPos < j.build.n && len(rows) < columnar.MaxBatch {
			if j.matched[j.tailPos] == want {
				rows = append(rows, int32(j.tailPos))
			}
			j.tailPos++
		}
	}
	j.lidx = rows
	if len(rows) == 0 {
		return nil
	}
	if j.Kind == JoinRightSemi || j.Kind == JoinRightAnti {
		// Build columns only: the second half of the output batch.
		nl := len(j.leftTypes)
		j.out2 = columnar.Batch{Cols: j.out.Cols[nl:], Len: len(rows)}
		for c := range j.build.cols {
			j.build.gatherCol(j.out2.Cols[c], c, rows)
		}
		return &j.out2
	}
	n := len(rows)
	out := j.out
	out.Len, out.Sel = n, nil
	nl := len(j.leftTypes)
	for c := range nl {
		setAllNull(out.Cols[c], n)
	}
	for c := range j.build.cols {
		j.build.gatherCol(out.Cols[nl+c], c, rows)
	}
	return out
}

func setAllNull(v *columnar.Vector, n int) {
	v.Reset(n)
	v.Valid = make(columnar.Bitmap, (n+63)/64)
}

var errSingleRow = errors.New("more than one row returned by a subquery used as an expression")

// JoinKindString names a kind, for EXPLAIN.
func JoinKindString(k JoinKind) string { return strings.ToLower(joinKindNames[k]) }
