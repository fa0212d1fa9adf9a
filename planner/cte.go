package planner

// CTEMode is how a WITH entry asked to be planned.
type CTEMode uint8

const (
	CTEAuto            CTEMode = iota // materialized when referenced twice or more
	CTEMaterialized                   // AS MATERIALIZED: always computed once
	CTENotMaterialized                // AS NOT MATERIALIZED: always inlined
)

// CTE is one non-recursive WITH entry of a query. The binder binds every
// reference of the entry on its own (fresh column IDs, as a derived table)
// and wraps it in a CTERef pointing at the shared CTE; Optimize then either
// inlines each reference (an entry used once, so that filters still reach
// its scans) or computes the entry once into Plan and turns every
// reference into a CTEScan of it (resolveCTEs).
type CTE struct {
	Name string
	Mode CTEMode
	// Set by resolveCTEs when the entry is materialized: the optimized
	// plan computed once, and how many CTEScans read it.
	Plan Node
	Uses int
}

// CTERef is one reference to a CTE before Optimize decides how to plan
// it; Input is the entry bound for this reference. Build inlines a CTERef
// that Optimize left in place.
type CTERef struct {
	CTE   *CTE
	Input Node
}

// CTEScan reads the rows of a materialized CTE: output column i is column
// i of CTE.Plan, under this reference's column IDs.
type CTEScan struct {
	CTE *CTE
	Out []Column
}

func (n *CTERef) Schema() []Column  { return n.Input.Schema() }
func (n *CTERef) Children() []Node  { return []Node{n.Input} }
func (n *CTEScan) Schema() []Column { return n.Out }
func (n *CTEScan) Children() []Node { return nil }
func (n *CTERef) WithChildren(k []Node) Node {
	c := *n
	c.Input = k[0]
	return &c
}
func (n *CTEScan) WithChildren([]Node) Node { return n }

// resolveCTEs removes the CTERefs of plan n: the references of an entry
// used once (or NOT MATERIALIZED) are replaced by their own plans, those
// of an entry used twice or more (or MATERIALIZED) by CTEScans of one plan,
// bound for the first reference and optimized on its own with opts.
//
// An entry's references may sit inside the references of a later entry
// (WITH a AS (…), b AS (SELECT … FROM a) …): inlining b copies them,
// materializing b keeps one copy. So the entries are decided outermost
// first, each counted over the plans that remain (the query and the
// materialized plans).
func resolveCTEs(n Node, opts Options) Node {
	trees := []*Node{&n}
	var done []*CTE
	for {
		refs := map[*CTE]int{}
		nested := map[*CTE]bool{}
		var order []*CTE
		for _, t := range trees {
			countRefs(*t, false, refs, nested, &order)
		}
		var x *CTE
		for _, c := range order {
			if !nested[c] {
				x = c
				break
			}
		}
		if x == nil {
			break
		}
		uses := refs[x]
		mat := x.Mode == CTEMaterialized || x.Mode == CTEAuto && uses >= 2
		if mat && readsEnclosingWork(firstRef(trees, x)) {
			// An entry inside a recursive CTE's step that reads its work
			// table changes at every iteration: computed once, the step
			// would see the first iteration's rows forever.
			mat = false
		}
		if mat {
			x.Plan, x.Uses = firstRef(trees, x), uses
		}
		for _, t := range trees {
			*t = replaceRefs(*t, x, mat)
		}
		if mat {
			trees = append(trees, &x.Plan)
			done = append(done, x)
		}
	}
	for _, c := range done {
		c.Plan, _ = Optimize(c.Plan, opts)
	}
	return n
}

// readsEnclosingWork reports whether n reads the work table of a
// recursive CTE that encloses it: a WorkScan of a RecursiveCTE not inside
// n.
func readsEnclosingWork(n Node) bool {
	own := map[*WorkTable]bool{}
	var read []*WorkTable
	var walk func(Node)
	walk = func(n Node) {
		switch x := n.(type) {
		case *RecursiveCTE:
			own[x.Work] = true
		case *WorkScan:
			read = append(read, x.Work)
		}
		for _, k := range n.Children() {
			walk(k)
		}
	}
	walk(n)
	for _, w := range read {
		if !own[w] {
			return true
		}
	}
	return false
}

// countRefs counts the CTERefs of n per entry, in walk order; nested marks
// the entries referenced inside another reference.
func countRefs(n Node, inside bool, refs map[*CTE]int, nested map[*CTE]bool, order *[]*CTE) {
	if r, ok := n.(*CTERef); ok {
		if refs[r.CTE] == 0 {
			*order = append(*order, r.CTE)
		}
		refs[r.CTE]++
		if inside {
			nested[r.CTE] = true
		}
		countRefs(r.Input, true, refs, nested, order)
		return
	}
	for _, k := range n.Children() {
		countRefs(k, inside, refs, nested, order)
	}
}

// firstRef returns the plan of the first reference of x.
func firstRef(trees []*Node, x *CTE) Node {
	var found Node
	var walk func(n Node)
	walk = func(n Node) {
		if found != nil {
			return
		}
		if r, ok := n.(*CTERef); ok && r.CTE == x {
			found = r.Input
			return
		}
		for _, k := range n.Children() {
			walk(k)
		}
	}
	for _, t := range trees {
		walk(*t)
	}
	return found
}

// replaceRefs replaces the references of x in n by their plans (inline)
// or by CTEScans (materialized).
func replaceRefs(n Node, x *CTE, mat bool) Node {
	if r, ok := n.(*CTERef); ok {
		switch {
		case r.CTE != x:
			return &CTERef{CTE: r.CTE, Input: replaceRefs(r.Input, x, mat)}
		case mat:
			return &CTEScan{CTE: x, Out: r.Input.Schema()}
		}
		return r.Input
	}
	return mapChildren(n, func(c Node) Node { return replaceRefs(c, x, mat) })
}
