package dict

// Remap translates the codes of successive dictionaries into ids of the
// caller's own query-wide numbering (group ids, distinct-value ids), asking
// for the id of each code once, on first sight, instead of hashing the
// string on every row. A new dictionary (the next Parquet row group)
// starts a new table; codes that never occur in live rows are never
// looked up, so no group is created for a value that only the dictionary
// holds. A Remap belongs to one goroutine.
type Remap struct {
	d   *Dict
	ids []int32 // code -> id, -1 = not looked up yet
}

// Table returns the code -> id table for d (entries -1 until set by the
// caller), starting a fresh one when d differs from the previous call's.
func (r *Remap) Table(d *Dict) []int32 {
	if d == r.d {
		return r.ids
	}
	n := d.Len()
	if cap(r.ids) < n {
		r.ids = make([]int32, n)
	}
	r.ids = r.ids[:n]
	for i := range r.ids {
		r.ids[i] = -1
	}
	r.d = d
	return r.ids
}
