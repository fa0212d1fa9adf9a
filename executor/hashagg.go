package executor

import (
	"context"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor/hashtab"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/index"
)

// AggKind is an aggregate function.
type AggKind uint8

const (
	AggCountStar AggKind = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
	// AggAvgMerge combines partial averages: Arg is a partial sum (DOUBLE),
	// Arg2 the matching partial count (BIGINT).
	AggAvgMerge
)

// AggSpec is one compiled aggregate call.
type AggSpec struct {
	Kind     AggKind
	Arg      Expr // nil for count(*)
	Arg2     Expr // AggAvgMerge: the partial count; AggArgMax/AggArgMin: the val
	Distinct bool
	// Filter, when not nil, is the aggregate's FILTER (WHERE …): a BOOLEAN
	// over the input; the aggregate sees only the rows where it is TRUE
	// (filterRows), as if the others were not there.
	Filter Expr
	Type   columnar.Type  // result type
	Param  columnar.Value // AggQuantileCont's fraction, AggStringAgg's separator
	Name   string         // for EXPLAIN
	// Bound, for a MIN or MAX of an aggregate without groups, receives the
	// running value after every batch, so that the scan below may skip
	// units that cannot beat it (index.ScanSpec.Extremes); nil otherwise.
	Bound *index.TopKBound
}

// HashAgg groups its input by the Groups expressions and computes Aggs per
// group. Group ids come from one hashtab.Map, chosen by the key types
// (executor/hashtab: a direct or open-addressing table for one integer
// key, a string table with per-code ids for one string key, word-keyed
// composite keys for several); the aggregate states are plain slices
// indexed by group id, updated batch by batch by typed loops. With no
// Groups it emits one row even for no input.
type HashAgg struct {
	Input  Operator
	Groups []Expr
	Aggs   []AggSpec
	// Partial marks a parallel GROUP BY's per-worker aggregate, whose
	// output a PartitionMerge deals (copying it) to the finals: it may stop
	// pre-aggregating near-unique keys (hashagg_pass.go) and frees its
	// table once emitted.
	Partial bool

	mem     *memory.Manager     // the query's (SetMemory); nil: no accounting
	res     *memory.Reservation // the groups' table and states
	held    int64               // bytes reserved in res
	spill   *aggSpill           // non-nil once the table is full (hashagg_spill.go)
	level   int                 // partitioning depth of a spilled partition's aggregate
	parts   respill             // the spilled partitions, replayed (respill.go)
	groups  hashtab.Map         // nil with no Groups
	ngroups int
	gids    []int32
	states  []*aggState
	out     *columnar.Batch

	// Dictionary-coded aggregate arguments (executor/dict.go) are decoded
	// into plainArgs, except for MIN/MAX, which compare codes (dictagg.go).
	plainArgs []columnar.Vector
	minMax    []codeMinMax // per aggregate: min/max over codes (dictagg.go)
	pos       int
	done      bool
	// passing: the partial stopped building its table and passes input
	// rows on as groups (hashagg_pass.go); passRows is its scratch, passed
	// the rows passed so.
	passing  bool
	passRows []int32
	passed   int
	// kept: the table an early pass keeps (hashagg_pass.go), probed the
	// passed batches so far, revoked that passing stopped for good.
	kept    *keptTable
	probed  int
	revoked bool
	// order watches the keys of a partial for order; flushing: the table
	// is emitted before the input ends (hashagg_flush.go).
	order    keyOrder
	flushing bool

	// dres reserves each DISTINCT aggregate's pairs (nil entries for the
	// others); pairsPeak and pairsSpilled are their spilled partitions'
	// figures (aggstate_distinct.go).
	dres                    []*memory.Reservation
	pairsPeak, pairsSpilled int64

	// filtered is each FILTERed aggregate's view of the batch: its rows
	// only (aggfilter.go).
	filtered []columnar.Batch

	// spare: a parallel GROUP BY's final passes its table's arrays on to
	// the finals after it once emitted (hashtab.Spare).
	spare *hashtab.Spare
}

func (h *HashAgg) Types() []columnar.Type {
	var t []columnar.Type
	for _, g := range h.Groups {
		t = append(t, g.Type())
	}
	for _, a := range h.Aggs {
		t = append(t, a.Type)
	}
	return t
}
func (h *HashAgg) Children() []Operator { return []Operator{h.Input} }
func (h *HashAgg) String() string {
	names := make([]string, len(h.Aggs))
	for i, a := range h.Aggs {
		names[i] = a.Name
	}
	return "HashAggregate groups=" + itoa(int64(len(h.Groups))) + " aggs=[" + strings.Join(names, ", ") + "]"
}
func (h *HashAgg) Close() error {
	h.dropSpill()
	h.groups, h.states, h.gids = nil, nil, nil
	h.res.Free()
	return h.Input.Close()
}

func (h *HashAgg) Open(ctx context.Context) error {
	if err := h.Input.Open(ctx); err != nil {
		return err
	}
	gtypes := make([]columnar.Type, len(h.Groups))
	for i, g := range h.Groups {
		gtypes[i] = g.Type()
	}
	h.ngroups, h.pos, h.groups, h.passing, h.passed = 0, 0, nil, false, 0
	h.kept, h.probed, h.revoked = nil, 0, false
	h.flushing = false
	h.watchOrder()
	h.dropSpill()
	if h.res == nil {
		h.res = h.mem.Reserve("hash aggregate", memory.Spillable)
	}
	h.res.Free()
	h.held = 0
	h.parts.restart(0, nil)
	expect := 0
	if len(h.Groups) > 0 {
		h.groups = hashtab.New(gtypes)
		expect = h.reserveGroups()
	}
	h.states = make([]*aggState, len(h.Aggs))
	for i, a := range h.Aggs {
		h.states[i] = newAggState(a)
		h.states[i].reserve(expect)
	}
	shareValues(h.states)
	h.attachDistinct(ctx, expect)
	if len(h.Groups) == 0 {
		h.ngroups = 1
		for _, s := range h.states {
			s.grow(1)
			s.ungrouped = true
		}
	}
	h.plainArgs = make([]columnar.Vector, len(h.Aggs))
	h.minMax = make([]codeMinMax, len(h.Aggs))
	h.out = columnar.NewBatch(h.Types(), columnar.MaxBatch)
	if err := h.build(ctx, nil); err != nil {
		return err
	}
	if h.kept != nil {
		return nil // an early pass: no DISTINCT aggregate, no spill (shouldPass)
	}
	if err := h.finishDistinct(ctx); err != nil {
		return err
	}
	return h.finishSpill(ctx)
}

// build puts the input into the table, batch by batch, from first (a
// batch already read; nil: none) to the end of the input or until the
// partial decides to pass rows on (hashagg_pass.go).
func (h *HashAgg) build(ctx context.Context, first *columnar.Batch) error {
	keyVecs := make([]*columnar.Vector, len(h.Groups))
	rows := 0
	for !h.passing && !h.flushing {
		b := first
		first = nil
		if b == nil {
			var err error
			b, err = h.Input.Next(ctx)
			if err == ioEOF {
				break
			}
			if err != nil {
				return err
			}
		}
		for i, g := range h.Groups {
			v, err := g.Eval(b)
			if err != nil {
				return err
			}
			keyVecs[i] = v
		}
		if h.order.on {
			h.order.next(b, keyVecs[0])
		}
		if h.spill == nil && h.held > 0 && h.groups != nil {
			// Reserved before the table grows (the first batch always goes in:
			// progress): refused, the batch spills.
			// The states of the batch's new groups too (account's estimate
			// per group): left out, a refusal after the batch went in left
			// the table 16 bytes a new group past its reservation.
			ahead := h.groups.Growth(b.Live()) + int64(b.Live())*16*int64(len(h.Aggs))
			if err := h.account(ahead); err != nil {
				return err
			}
		}
		if h.spill != nil {
			if err := h.spillBatch(ctx, b, keyVecs); err != nil {
				return err
			}
			continue
		}
		h.assignGroups(b, keyVecs)
		if err := h.update(b); err != nil {
			return err
		}
		if err := h.account(0); err != nil {
			return err
		}
		rows += b.Live()
		h.passing = h.shouldPass(rows, b.Live())
		h.flushing = h.shouldFlush()
	}
	return nil
}

// update folds the live rows of b into the states of their groups (h.gids).
func (h *HashAgg) update(b *columnar.Batch) error {
	all := b
	for i, a := range h.Aggs {
		var arg *columnar.Vector
		var err error
		if a.Arg != nil {
			// Evaluated on every row, FILTER or not: DuckDB computes an
			// aggregate's arguments before it filters, so an error in a
			// row the filter leaves out is still one.
			arg, err = a.Arg.Eval(all)
			if err != nil {
				return err
			}
		}
		b := all
		if a.Filter != nil {
			if b, err = h.filterRows(i, all); err != nil {
				return err
			}
			if b == nil {
				continue // no row of this batch reaches this aggregate
			}
		}
		if a.Arg != nil {
			if arg.Dict != nil && (a.Kind == AggMin || a.Kind == AggMax) && !a.Distinct {
				if err := h.minMaxCodes(i, b, arg); err != nil {
					return err
				}
				continue
			}
			if a.Kind != AggCount || a.Distinct {
				// count(col) reads validity only; the others read values.
				arg = decodeLive(arg, b, &h.plainArgs[i])
			}
		}
		if err := h.states[i].fold(b, arg, h.gids); err != nil {
			return err
		}
		if a.Bound != nil {
			h.states[i].publish(a.Bound) // aggstate_bound.go
		}
	}
	return nil
}

// fold folds the live rows of b into the groups gids[i]: arg is the
// aggregate's argument over b (nil for count(*)), its Arg2 is evaluated
// over b. Every aggregate's input goes through here, GROUP BY's and a
// window frame's (window_agg.go).
func (s *aggState) fold(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	a := s.spec
	switch {
	case a.Kind == AggFirst || a.Kind == AggLast:
		return s.updateFirstLast(b, arg, a.Arg2, gids) // aggstate_firstlast.go
	case a.Kind.argMinMax():
		return s.updateArg(b, arg, a.Arg2, gids)
	case a.Kind.pair():
		return s.updatePair(b, arg, a.Arg2, gids)
	case a.Kind.topN():
		return s.updateTopN(b, arg, a.Arg2, gids) // aggstate_topn.go
	case a.Kind == AggAvgMerge:
		cnt, err := a.Arg2.Eval(b)
		if err != nil {
			return err
		}
		s.mergeAvg(b, arg, cnt, gids)
		return nil
	}
	return s.update(b, arg, gids)
}

// assignGroups fills h.gids[i] with the group id of each live row i,
// creating groups for new keys, and grows the aggregate states once for
// the batch's new groups.
func (h *HashAgg) assignGroups(b *columnar.Batch, keys []*columnar.Vector) {
	if cap(h.gids) < b.Len {
		h.gids = make([]int32, max(b.Len, columnar.MaxBatch))
	}
	gids := h.gids[:b.Len]
	if h.groups == nil {
		clear(gids) // one group: a memclr, not a call per row
		return
	}
	if len(h.groups.Assign(b, keys, gids)) == 0 {
		return
	}
	h.ngroups = h.groups.Len()
	for _, s := range h.states {
		s.grow(h.ngroups)
	}
}

func (h *HashAgg) Next(ctx context.Context) (*columnar.Batch, error) {
	if h.pos >= h.ngroups {
		switch {
		case h.flushing:
			return h.nextFlushed(ctx) // hashagg_flush.go
		case h.passing:
			return h.nextPassed(ctx) // hashagg_pass.go
		case h.spill != nil:
			return h.nextSpilled(ctx) // hashagg_spill.go
		case h.groups != nil:
			// Emitted, and the last batch is the consumer's no more (it
			// is valid until this call): the table can go now, before
			// Close. A parallel GROUP BY's finals opened ahead of their
			// turn then hold their output, not their tables (a final of
			// count(DISTINCT x) GROUP BY y holds y's groups, not the
			// (y, x) pairs its inner aggregate numbered). Its arrays go to the
			// finals opened after it (hashtab.Spare).
			hashtab.Release(h.groups, h.spare)
			h.groups, h.states, h.spare = nil, nil, nil
			h.res.Free()
			h.held = 0
		}
		return nil, ioEOF
	}
	if h.pos == 0 && h.groups != nil && !h.passing && h.kept == nil && h.spill == nil {
		h.seal()
	}
	end := min(h.pos+columnar.MaxBatch, h.ngroups)
	n := end - h.pos
	ng := len(h.Groups)
	if ng > 0 {
		h.groups.Keys(h.out.Cols[:ng], h.pos, end)
	}
	for i, s := range h.states {
		v := h.out.Cols[ng+i]
		v.Reset(n)
		s.result(v, h.pos, end)
	}
	h.out.Len, h.out.Sel = n, nil
	h.pos = end
	return h.out, nil
}

// seal frees the table's lookup structures before the first group is
// emitted (hashtab.Seal: only the keys are read from here on), and
// returns their bytes to the reservation.
func (h *HashAgg) seal() {
	before := h.groups.Bytes()
	hashtab.Seal(h.groups)
	if freed := before - h.groups.Bytes(); freed > 0 && h.res != nil && h.held >= freed {
		h.res.Shrink(freed)
		h.held -= freed
	}
}

// isPlainInt is hashtab.IsPlainInt under the name the window code uses.
var isPlainInt = hashtab.IsPlainInt

// reserveGroups sizes the table of a parallel GROUP BY's final for the
// distinct keys its partition was dealt, when the memory manager grants
// the bytes (else the table grows as usual), and places it on the range
// of keys the partition was dealt, if it was dealt one
// (hashagg_range.go). Only a final grouping by exactly the partition's
// keys knows its group count so (a split DISTINCT's inner final groups by
// more: its estimate would be the outer keys'). It returns the groups it
// reserved for (0: none), which the states reserve too (the 16 bytes a
// group per aggregate that account foresees). Any final is lent the
// buffers its partition's byte payloads were dealt into, where its string
// keys may stay (PartitionSource.lent), and the merge's spare tables.
func (h *HashAgg) reserveGroups() int {
	src := partitionSourceOf(h.Input)
	if h.Partial || src == nil {
		return 0
	}
	h.spare = src.spare
	lent := hashtab.Expect{Lent: src.lent(), Spare: src.spare}
	n, keys := src.distinctKeys()
	if keys != len(h.Groups) || n == 0 {
		hashtab.Reserve(h.groups, lent)
		return 0
	}
	e := lent
	e.Keys = n
	e.Lo, e.Hi, e.Ranged = src.keyRange()
	need := hashtab.ReserveBytes(h.groups, e) + int64(n)*16*int64(len(h.Aggs))
	if need > 0 {
		if h.res.Grow(need) != nil {
			hashtab.Reserve(h.groups, lent)
			return 0
		}
		if h.res != nil {
			h.held = need
		}
	}
	hashtab.Reserve(h.groups, e)
	return n
}
