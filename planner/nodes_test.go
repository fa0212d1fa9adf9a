package planner

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// probe is a node kind that no rule and no Build case knows: it stands
// for one added later. Its Children counts the walks that reach it.
type probe struct {
	kids []Node
	out  []Column
	seen *int
}

func (p *probe) Schema() []Column { return p.out }
func (p *probe) Children() []Node {
	*p.seen++
	return p.kids
}
func (p *probe) WithChildren(k []Node) Node {
	c := *p
	c.kids = k
	return &c
}

var (
	colA = Column{ID: 1, Name: "a", Type: columnar.TInt64}
	colB = Column{ID: 2, Name: "b", Type: columnar.TInt64}
	colC = Column{ID: 3, Name: "c", Type: columnar.TInt64}
	colD = Column{ID: 4, Name: "d", Type: columnar.TInt64}
)

func ref(c Column) Expr { return &ColRef{Col: c} }

// nodeKind is how the tests below make one node of a kind over inputs l
// and r (columns a, b and c, d) and what they expect of it.
type nodeKind struct {
	inputs int                  // 0 (a leaf), 1 (l) or 2 (l, r)
	make   func(l, r Node) Node // l, r nil for a leaf
	order  bool                 // orderedScans: its rows keep its inputs' order
}

// nodeKinds lists every Node type of the package. A new one must be
// added here, which runs it through every rule and Build below, and says
// whether it keeps its input's row order (insertion order, order.go).
var nodeKinds = map[string]nodeKind{
	"Scan": {0, func(_, _ Node) Node {
		return &Scan{Name: "t", Cols: []Column{colA, colB}, TableCols: []int{0, 1}, Limit: -1}
	}, false},
	"Values":   {0, func(_, _ Node) Node { return &Values{Out: []Column{colA}} }, false},
	"CTEScan":  {0, func(_, _ Node) Node { return &CTEScan{CTE: &CTE{Name: "c"}, Out: []Column{colA}} }, false},
	"WorkScan": {0, func(_, _ Node) Node { return &WorkScan{Work: &WorkTable{Cols: []Column{colA}}, Out: []Column{colA}} }, false},
	"Filter": {1, func(l, _ Node) Node {
		return &Filter{Input: l, Cond: &Call{Fn: ">", Args: []Expr{ref(colA), &Const{Val: columnar.IntValue(columnar.TInt64, 1)}}, T: columnar.TBool}}
	}, true},
	"Project": {1, func(l, _ Node) Node {
		return &Project{Input: l, Exprs: []Expr{ref(colA)}, Out: []Column{{ID: 10, Name: "a", Type: columnar.TInt64}}}
	}, true},
	"Aggregate": {1, func(l, _ Node) Node {
		return &Aggregate{Input: l, Groups: []Expr{ref(colA)}, Aggs: []AggCall{{Func: AggCount, Arg: ref(colB), Type: columnar.TInt64}},
			Out: []Column{{ID: 11, Name: "a", Type: columnar.TInt64}, {ID: 12, Name: "n", Type: columnar.TInt64}}}
	}, false},
	"Sort":         {1, func(l, _ Node) Node { return &Sort{Input: l, Keys: []SortKey{{Expr: ref(colA)}}} }, false},
	"Limit":        {1, func(l, _ Node) Node { return &Limit{Input: l, Count: 5} }, true},
	"TopK":         {1, func(l, _ Node) Node { return &TopK{Input: l, Keys: []SortKey{{Expr: ref(colA)}}, Count: 5} }, false},
	"Distinct":     {1, func(l, _ Node) Node { return &Distinct{Input: l} }, false},
	"LimitPercent": {1, func(l, _ Node) Node { return &LimitPercent{Input: l, Percent: 50} }, true},
	"Sample":       {1, func(l, _ Node) Node { return &Sample{Input: l, Size: 10} }, false},
	"Unnest": {1, func(l, _ Node) Node {
		list := &Const{Val: columnar.Value{Type: columnar.ListOf(columnar.TInt64), Elems: []columnar.Value{columnar.IntValue(columnar.TInt64, 7)}}}
		return &Unnest{Input: l, Exprs: []Expr{list}, Out: []Column{{ID: 13, Name: "u", Type: columnar.TInt64}}}
	}, true},
	"Window": {1, func(l, _ Node) Node {
		return &Window{Input: l, Funcs: []WindowFunc{{Name: "row_number", Type: columnar.TInt64}}, Out: []Column{{ID: 14, Name: "rn", Type: columnar.TInt64}}}
	}, false},
	"CTERef": {1, func(l, _ Node) Node { return &CTERef{CTE: &CTE{Name: "c", Mode: CTENotMaterialized}, Input: l} }, false},
	"Join": {2, func(l, r Node) Node {
		return &Join{Left: l, Right: r, Kind: JoinInner, EquiKeys: []EquiKey{{L: ref(colA), R: ref(colC)}}}
	}, false},
	"SetOp": {2, func(l, r Node) Node {
		return &SetOp{Left: l, Right: r, Kind: SetUnion, Out: []Column{{ID: 15, Name: "a", Type: columnar.TInt64}, {ID: 16, Name: "b", Type: columnar.TInt64}}}
	}, false},
	"PositionalJoin": {2, func(l, r Node) Node { return &PositionalJoin{Left: l, Right: r} }, true},
	"LimitBy":        {2, func(l, r Node) Node { return &LimitBy{Input: l, Bounds: r} }, true},
	"AsofJoin": {2, func(l, r Node) Node {
		return &AsofJoin{Left: l, Right: r, EquiKeys: []EquiKey{{L: ref(colA), R: ref(colC)}}, L: ref(colB), R: ref(colD), Op: executor.AsofGE}
	}, false},
	"RecursiveCTE": {2, func(l, r Node) Node {
		return &RecursiveCTE{Base: l, Step: r, Work: &WorkTable{Cols: []Column{colA, colB}},
			Out: []Column{{ID: 17, Name: "a", Type: columnar.TInt64}, {ID: 18, Name: "b", Type: columnar.TInt64}}}
	}, false},
}

// TestNodeKindsListed: nodeKinds names every type of the package with a
// WithChildren method, so that none escapes the tests below.
func TestNodeKindsListed(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || fd.Name.Name != "WithChildren" {
					continue
				}
				rt := fd.Recv.List[0].Type
				if s, ok := rt.(*ast.StarExpr); ok {
					rt = s.X
				}
				types = append(types, rt.(*ast.Ident).Name)
			}
		}
	}
	if len(types) < 20 {
		t.Fatalf("found only %d node types: %v", len(types), types)
	}
	for _, name := range types {
		if _, ok := nodeKinds[name]; !ok {
			t.Errorf("node type %s is not in nodeKinds: add it, so that the rules and Build are run over it", name)
		}
	}
	for name := range nodeKinds {
		if !slices.Contains(types, name) {
			t.Errorf("nodeKinds lists %s, which is not a node type of the package", name)
		}
	}
}

// probed makes kind k over probes (unknown nodes) that each hold an
// unknown leaf, and returns the leaves' visit counters.
func probed(k nodeKind) (Node, []*int) {
	var seen []*int
	side := func(cols ...Column) Node {
		leaf, outer := new(int), new(int)
		seen = append(seen, leaf)
		return &probe{kids: []Node{&probe{out: cols, seen: leaf}}, out: cols, seen: outer}
	}
	switch k.inputs {
	case 1:
		return k.make(side(colA, colB), nil), seen
	case 2:
		return k.make(side(colA, colB), side(colC, colD)), seen
	}
	return k.make(nil, nil), nil
}

// TestRulesVisitEveryChild: every rule (and the CTE resolution before
// them) reaches the inputs of every node kind, and below an unknown node
// too: no rule passes a subtree through unvisited because it does not
// know the node above it.
func TestRulesVisitEveryChild(t *testing.T) {
	rules := append([]Rule{{Name: "resolveCTEs", Apply: func(n Node) Node { return resolveCTEs(n, Options{}) }}}, Rules...)
	for name, k := range nodeKinds {
		if k.inputs == 0 {
			continue
		}
		for _, r := range rules {
			plan, seen := probed(k)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s over %s: panic %v", r.Name, name, p)
					}
				}()
				r.Apply(plan)
			}()
			for i, s := range seen {
				if *s == 0 {
					t.Errorf("%s did not reach input %d of %s below an unknown node", r.Name, i, name)
				}
			}
		}
	}
}

// TestBuildRefusesUnknownNode: Build meets the unknown node under every
// node kind (it builds every input) and refuses it by name, never
// building around it or panicking.
func TestBuildRefusesUnknownNode(t *testing.T) {
	unknown := func() Node { return &probe{out: []Column{colA, colB}, seen: new(int)} }
	check := func(what string, n Node) {
		t.Helper()
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("Build of %s: panic %v", what, p)
			}
		}()
		_, err := Build(n, BuildOptions{Threads: 1})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("cannot build %T", unknown())) {
			t.Errorf("Build of %s: err = %v, want cannot build *planner.probe", what, err)
		}
	}
	one := func() Node { // a non-empty input Build knows (an empty one is not built at all: empty.go)
		k := func(v int64) Expr { return &Const{Val: columnar.IntValue(columnar.TInt64, v)} }
		return &Values{Rows: [][]Expr{{k(1), k(2)}}, Out: []Column{colC, colD}}
	}
	check("an unknown leaf", unknown())
	check("an unknown node with an input", &probe{kids: []Node{unknown()}, out: []Column{colA, colB}, seen: new(int)})
	for name, k := range nodeKinds {
		switch k.inputs {
		case 1:
			check(name+" over it", k.make(unknown(), nil))
		case 2:
			check(name+" with it on the left", k.make(unknown(), one()))
			check(name+" with it on the right", k.make(one(), unknown()))
		}
	}
}

// TestOrderedScansByKind: a scan keeps table order under exactly the node
// kinds that pass their inputs' rows on in order (nodeKinds' order), and
// not under an unknown node.
func TestOrderedScansByKind(t *testing.T) {
	for name, k := range nodeKinds {
		if k.inputs == 0 {
			continue
		}
		l, r := &Scan{Name: "l"}, &Scan{Name: "r"}
		got := orderedScans(k.make(l, r))
		if got[l] != k.order || k.inputs == 2 && got[r] != k.order {
			t.Errorf("%s: ordered l=%v r=%v, want %v", name, got[l], got[r], k.order)
		}
	}
	s := &Scan{Name: "s"}
	if orderedScans(&probe{kids: []Node{s}, seen: new(int)})[s] {
		t.Errorf("a scan under an unknown node is ordered")
	}
}
