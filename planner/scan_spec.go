package planner

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/index"
)

func scanString(n *Scan, spec index.ScanSpec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scan %s", n.Name)
	names := make([]string, len(n.Cols))
	for i, c := range n.Cols {
		names[i] = c.Name
	}
	fmt.Fprintf(&b, " cols=[%s]", strings.Join(names, " "))
	if len(n.Filter) > 0 {
		schema := scanSchema(n.Table)
		parts := make([]string, len(n.Filter))
		for i, p := range n.Filter {
			sup := index.Unsupported
			if i < len(n.Support) {
				sup = n.Support[i]
			}
			parts[i] = fmt.Sprintf("%s (%s)", p.String(schema), sup)
		}
		fmt.Fprintf(&b, " pred=[%s]", strings.Join(parts, ", "))
	}
	if spec.Limit >= 0 {
		fmt.Fprintf(&b, " limit=%d", spec.Limit)
	}
	if k := spec.TopK; k != nil && spec.On(index.TopKPruning) {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		fmt.Fprintf(&b, " topk=%s %s (%s)", scanSchema(n.Table)[k.Col].Name, dir, index.TopKPruning)
	}
	if len(spec.Extremes) > 0 && spec.On(index.TopKPruning) {
		parts := make([]string, len(spec.Extremes))
		for i, k := range spec.Extremes {
			fn := "min"
			if k.Desc {
				fn = "max"
			}
			parts[i] = fn + "(" + scanSchema(n.Table)[k.Col].Name + ")"
		}
		fmt.Fprintf(&b, " extremes=[%s] (%s)", strings.Join(parts, " "), index.TopKPruning)
	}
	// What SET switched off: every rule (SET pruning = off), and the scan
	// rules switched off one by one.
	if spec.NoPrune {
		b.WriteString(" rules=off")
	}
	if spec.Off != 0 {
		fmt.Fprintf(&b, " off=[%s]", strings.Join(spec.Off.Names(), " "))
	}
	b.WriteString(dictString(n, spec))
	if d, ok := n.Table.(ScanDescriber); ok {
		if s := d.DescribeScan(spec); s != "" {
			b.WriteString(" " + s)
		}
	}
	return b.String()
}

// scanSpec is the scan request for n with this build's options; Stats is
// fresh, TopK the bound a TopK above registered for n (if any).
func (bd *builder) scanSpec(n *Scan) index.ScanSpec {
	spec := index.ScanSpec{
		Cols:     n.TableCols,
		Filter:   n.Filter,
		Limit:    n.Limit,
		Threads:  bd.opts.Threads,
		Ordered:  bd.ordered[n],
		NoPrune:  bd.opts.NoPrune,
		Off:      bd.opts.ScanRulesOff,
		Stats:    &index.ScanStats{},
		TopK:     bd.bounds[n],
		Extremes: bd.extremes[n],
	}
	if r, ok := n.Table.(IOReporter); ok {
		if _, remote := r.IO(); remote {
			bd.built.remote[spec.Stats] = r
		}
	}
	return spec
}

// warm has the query start fetching, when it opens, what a scan of a
// remote table with spec reads first (Warmer).
func (bd *builder) warm(t Table, spec index.ScanSpec) {
	w, ok := t.(Warmer)
	if !ok {
		return
	}
	if r, ok := t.(IOReporter); ok {
		if _, remote := r.IO(); !remote {
			return
		}
	}
	bd.built.warm = append(bd.built.warm, func() { w.Warm(spec) })
}
