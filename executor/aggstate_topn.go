package executor

import "github.com/b2sql/b2sql/columnar"

// arg_max(arg, val, n) / arg_min(arg, val, n), and max(x, n) / min(x, n)
// (Arg2 nil: the val is the arg): the LIST of the args of the n rows with
// the largest (smallest) vals, best first; rows with a NULL arg or val are
// skipped; NULL for a group without such rows. Param is planner.TopNParam's
// STRUCT (n, distinct). Numbered as the planner's AggFunc; holistic, so
// one phase (a group's rows all reach one state).
//
// Each group keeps a bounded binary heap of its best n rows, the worst on
// top, which a row replaces only when strictly better: a group holds at
// most n values, whatever its rows. The heap moves entries as the C++
// standard library's push_heap / pop_heap / sort_heap do, as DuckDB's
// heap does, so that rows tied on val come out in DuckDB's order (for
// input read in the same order).
const (
	AggArgMaxN AggKind = 104
	AggArgMinN AggKind = 105
)

func (k AggKind) topN() bool { return k == AggArgMaxN || k == AggArgMinN }

// topEntry is one kept row.
type topEntry struct{ arg, val columnar.Value }

// topHeap orders a group's entries: better(a, b) says a's val beats b's
// (larger for max, smaller for min). The worst entry is at [0].
type topHeap struct {
	max bool
}

func (h topHeap) better(a, b columnar.Value) bool {
	c := columnar.Compare(a, b)
	return c > 0 && h.max || c < 0 && !h.max
}

// siftUp puts v at hole, moving it up past parents it beats, no higher
// than top.
func (h topHeap) siftUp(es []topEntry, hole, top int, v topEntry) {
	for hole > top {
		p := (hole - 1) / 2
		if !h.better(es[p].val, v.val) {
			break
		}
		es[hole] = es[p]
		hole = p
	}
	es[hole] = v
}

// adjust fills the hole at hole of es with v: the hole first moves down to
// a leaf along the worse child, then v sifts up from there.
func (h topHeap) adjust(es []topEntry, hole int, v topEntry) {
	n, top, child := len(es), hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if h.better(es[child].val, es[child-1].val) {
			child--
		}
		es[hole] = es[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		es[hole] = es[child-1]
		hole = child - 1
	}
	h.siftUp(es, hole, top, v)
}

// pop moves the top of heap es to its last place, the rest staying a heap.
func (h topHeap) pop(es []topEntry) {
	n := len(es)
	if n < 2 {
		return
	}
	v := es[n-1]
	es[n-1] = es[0]
	h.adjust(es[:n-1], 0, v)
}

// insert offers e to a heap of at most n entries.
func (h topHeap) insert(es []topEntry, n int, e topEntry) []topEntry {
	if len(es) < n {
		es = append(es, e)
		h.siftUp(es, len(es)-1, 0, e)
		return es
	}
	if !h.better(e.val, es[0].val) {
		return es
	}
	h.pop(es)
	es[len(es)-1] = e
	h.siftUp(es, len(es)-1, 0, e)
	return es
}

// sorted orders es best first (a heap sort: the heap is spent).
func (h topHeap) sorted(es []topEntry) {
	for k := len(es); k > 1; k-- {
		h.pop(es[:k])
	}
}

// topNParams reads n and DISTINCT from the spec's Param.
func (s *aggState) topNParams() (int, bool) {
	p := s.spec.Param.Elems
	return int(p[0].I), p[1].I != 0
}

// updateTopN folds the live rows of b into the groups gids[i]; arg is the
// evaluated Arg, valExpr the spec's Arg2 (nil: arg is the val). A row is
// boxed into values only when it enters a heap.
func (s *aggState) updateTopN(b *columnar.Batch, arg *columnar.Vector, valExpr Expr, gids []int32) error {
	val := arg
	if valExpr != nil {
		v, err := valExpr.Eval(b)
		if err != nil {
			return err
		}
		val = decodeLive(v, b, &s.argScratch)
		if val.Const {
			val = expandConst(val, b.Len)
		}
	}
	if arg.Const {
		arg = expandConst(arg, b.Len)
		if valExpr == nil {
			val = arg
		}
	}
	n, distinct := s.topNParams()
	h := topHeap{max: s.spec.Kind == AggArgMaxN}
	b.ForEach(func(i int) {
		if val.IsNull(i) || arg.IsNull(i) {
			return
		}
		g := gids[i]
		es := s.tops[g]
		if len(es) == n && !h.beatsRow(val, i, es[0].val) {
			return // the common case once a group is full: no boxing
		}
		e := topEntry{arg: arg.Value(i), val: val.Value(i)}
		if valExpr == nil {
			e.val = e.arg
		}
		if distinct && heldIn(es, e) {
			return
		}
		s.tops[g] = h.insert(es, n, e)
	})
	return nil
}

// beatsRow reports whether row i of val beats x, without boxing the row
// where its physical type allows.
func (h topHeap) beatsRow(val *columnar.Vector, i int, x columnar.Value) bool {
	var c int
	switch val.Type.Phys() {
	case columnar.PhysInt, columnar.PhysUint, columnar.PhysFloat, columnar.PhysBool:
		c = compareRow(val, i, x)
	default:
		// strings compare as compareRow does, but INTERVALs and nested
		// values by their own order (columnar.Compare)
		c = columnar.Compare(val.Value(i), x)
	}
	return c > 0 && h.max || c < 0 && !h.max
}

// heldIn reports whether es has an entry equal to e (arg and val): a
// DISTINCT call keeps one. A duplicate of an entry pushed out earlier
// cannot come back in: the top only gets better than it.
func heldIn(es []topEntry, e topEntry) bool {
	for _, x := range es {
		if columnar.Compare(x.val, e.val) == 0 && x.arg.Null == e.arg.Null && columnar.Compare(x.arg, e.arg) == 0 {
			return true
		}
	}
	return false
}

// topNResult writes groups [from, to): each group's args, best first.
// Each group's heap is spent (sorted in place): a group is written once.
func (s *aggState) topNResult(out *columnar.Vector, from, to int) {
	n := to - from
	h := topHeap{max: s.spec.Kind == AggArgMaxN}
	for k := range n {
		es := s.tops[from+k]
		if len(es) == 0 {
			out.SetNull(k, n)
			continue
		}
		h.sorted(es)
		list := columnar.Value{Type: s.spec.Type, Elems: make([]columnar.Value, len(es))}
		for j, e := range es {
			list.Elems[j] = e.arg
		}
		out.SetValue(k, n, list)
	}
}
