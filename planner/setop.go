package planner

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

const (
	SetUnion SetOpKind = iota
	SetIntersect
	SetExcept
)

var setOpNames = [...]string{"UNION", "INTERSECT", "EXCEPT"}

func (k SetOpKind) String() string { return setOpNames[k] }

// SetOp combines two inputs of the same column types. With All, UNION ALL
// concatenates, INTERSECT ALL keeps min(m, n) copies of a row, EXCEPT ALL
// max(m-n, 0); without All each distinct row appears at most once. Rows
// compare as in DISTINCT (NULLs equal). Out are fresh columns named after
// the left input's.
type SetOp struct {
	Left, Right Node
	Kind        SetOpKind
	All         bool
	Out         []Column
}

func (n *SetOp) Schema() []Column { return n.Out }
func (n *SetOp) Children() []Node { return []Node{n.Left, n.Right} }
func (n *SetOp) WithChildren(k []Node) Node {
	c := *n
	c.Left, c.Right = k[0], k[1]
	return &c
}
