package planner

// Insertion order, as DuckDB keeps it (preserve_insertion_order, on by
// default): rows that reach the result, a COPY target or a new table
// without passing an operator that reorders them (ORDER BY, GROUP BY,
// DISTINCT, a join, a window, a set operation) come in the order of the
// file or table they were read from. SELECT * FROM 'x.parquet' lists rows
// as the file holds them, and COPY (SELECT … WHERE …) TO 'y.csv' writes
// them in that order, although the scan decodes row groups on several
// threads: such scans are asked for their units in order
// (index.ScanSpec.Ordered), which costs a window of decoded units, not
// parallelism.

// orderedScans returns the scans of plan n whose row order the result
// shows: those reached from the root through operators that pass rows on
// in order.
func orderedScans(n Node) map[*Scan]bool {
	out := map[*Scan]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		switch x := n.(type) {
		case *Scan:
			out[x] = true
		case *Project, *Filter, *Limit, *LimitPercent, *LimitBy, *Unnest:
			for _, c := range n.Children() {
				walk(c)
			}
		case *PositionalJoin:
			// Rows pair up by position: both sides in order.
			walk(x.Left)
			walk(x.Right)
		}
	}
	walk(n)
	return out
}
