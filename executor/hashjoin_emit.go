package executor

import "github.com/b2sql/b2sql/columnar"

// A join's candidate pairs can be many more than its output rows (Cond
// refuses most), and its output often has columns nobody reads (a count
// over a join reads none). emitPairs therefore gathers in two steps: the
// columns Cond reads, for every candidate pair; then the columns the plan
// uses (Used), for the pairs that passed only. The others come out as
// constant NULLs. A self-join on user_id with a.id < b.id, counted,
// gathered both probe and both build columns for each of its 1e8
// candidate pairs at 10M rows, half its CPU; it gathers a.id and b.id.

// emitCols says which output columns emitPairs gathers at which step.
type emitCols struct {
	cond []bool // read by Cond; nil: no Cond, or one that may read any
	used []bool // read by the plan; nil: all
	rest []bool // used and not read by Cond (with cond)
}

// emitPlan works out emitCols for an output of n columns.
func (j *HashJoin) emitPlan(n int) emitCols {
	var p emitCols
	if len(j.Used) == n {
		p.used = j.Used
	}
	if j.Cond != nil {
		cond := make([]bool, n)
		if exprCols(j.Cond, cond) {
			p.cond = cond
		}
	}
	if p.cond != nil {
		p.rest = make([]bool, n)
		for c := range n {
			p.rest[c] = (p.used == nil || p.used[c]) && !p.cond[c]
		}
	}
	return p
}

// emitPairs fills the output with the next chunk of candidate pairs and
// applies Cond; it returns nil when no pair of the chunk survives or the
// kind outputs no pairs.
func (j *HashJoin) emitPairs() (*columnar.Batch, error) {
	end := min(j.pos+columnar.MaxBatch, len(j.pairL))
	ls, rs := j.pairL[j.pos:end], j.pairR[j.pos:end]
	j.pos = end
	if j.Cond == nil && j.marksOnly() {
		// Nothing to evaluate and nothing to output: only the marks.
		for k, l := range ls {
			j.lmatch[l] = true
			if j.matched != nil {
				j.matched[rs[k]] = true
			}
		}
		return nil, nil
	}
	n := len(ls)
	out := j.out
	j.sel = j.sel[:0]
	if j.Cond != nil {
		j.gatherPairs(ls, rs, j.emit.cond)
		v, err := j.Cond.Eval(out)
		if err != nil {
			return nil, err
		}
		j.sel = selectTrue(v, out, j.sel)
	} else {
		for k := range n {
			j.sel = append(j.sel, k)
		}
	}
	for _, k := range j.sel {
		if j.Kind == JoinSingle && j.lmatch[ls[k]] {
			return nil, errSingleRow
		}
		j.lmatch[ls[k]] = true
		if j.matched != nil {
			j.matched[rs[k]] = true
		}
	}
	if j.marksOnly() || len(j.sel) == 0 {
		return nil, nil
	}
	switch {
	case j.Cond == nil:
		j.gatherPairs(ls, rs, j.emit.used)
	case j.emit.cond == nil:
		// Cond may have read any column: all are there already.
		if len(j.sel) < n {
			out.Sel = j.sel
		}
		return out, nil
	case len(j.sel) == n:
		j.gatherPairs(ls, rs, j.emit.rest)
	default:
		kl, kr := j.keptL[:0], j.keptR[:0]
		for _, k := range j.sel {
			kl, kr = append(kl, ls[k]), append(kr, rs[k])
		}
		j.keptL, j.keptR = kl, kr
		j.gatherPairs(kl, kr, j.emit.used)
	}
	j.nullUnused()
	return out, nil
}

// gatherPairs makes the output the pairs ls (positions in lrows) and rs
// (build rows), filling the columns marked in cols (nil: all); the others
// are left as they are.
func (j *HashJoin) gatherPairs(ls, rs []int32, cols []bool) {
	n := len(ls)
	out := j.out
	out.Len, out.Sel = n, nil
	nl := len(j.leftTypes)
	lidx := false
	for c := range out.Cols {
		if cols != nil && !cols[c] {
			continue
		}
		dst := out.Cols[c]
		if c >= nl {
			j.build.gatherCol(dst, c-nl, rs)
			continue
		}
		if !lidx {
			j.lidx = j.lidx[:0]
			for _, l := range ls {
				j.lidx = append(j.lidx, int32(j.lrows[l]))
			}
			lidx = true
		}
		src := j.lb.Cols[c]
		if !src.Const {
			dst.Gather(src, j.lidx)
			continue
		}
		dst.Reset(n)
		for k, l := range j.lidx {
			dst.CopyRow(k, src, int(l), n)
		}
	}
}

// nullUnused makes the output columns the plan does not read constant
// NULLs: well-formed for any length, whatever a tail or Cond's step left
// in them.
func (j *HashJoin) nullUnused() {
	if j.emit.used == nil {
		return
	}
	for c, v := range j.out.Cols {
		if !j.emit.used[c] && !(v.Const && v.IsNull(0)) {
			v.Reset(1)
			v.Const = true
			v.SetNull(0, 1)
		}
	}
}
