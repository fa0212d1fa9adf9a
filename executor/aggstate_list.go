package executor

import "github.com/b2sql/b2sql/columnar"

// listAdd appends the live values of arg, NULLs included, to their
// groups (array_agg); with DISTINCT a value is kept once. The values'
// bytes are copied: the batch's belong to its producer, which reuses them
// (a Parquet scan's next row group overwrote strings kept by reference).
func (s *aggState) listAdd(b *columnar.Batch, arg *columnar.Vector, gids []int32) error {
	v := &s.vals
	add := func(i int) {
		g := gids[i]
		v.rows[g] = append(v.rows[g], int32(v.listStore.AppendKidOwned(arg, i)))
	}
	if s.distinct != nil {
		fresh, err := s.distinct.fresh(b, arg, gids)
		for _, i := range fresh {
			add(i)
		}
		return err
	}
	b.ForEach(add)
	return nil
}

// listResult writes the lists of groups [from, to): NULL for a group
// without rows.
func (s *aggState) listResult(out *columnar.Vector, from, to int) {
	n := to - from
	kid := s.vals.listStore.Kids[0]
	for k := range n {
		rows := s.vals.rows[from+k]
		if len(rows) == 0 {
			out.SetNull(k, n)
			out.Starts[k], out.Ends[k] = int32(out.KidLen), int32(out.KidLen)
			continue
		}
		out.Starts[k] = int32(out.KidLen)
		for _, r := range rows {
			out.AppendKid(kid, int(r))
		}
		out.Ends[k] = int32(out.KidLen)
	}
}
