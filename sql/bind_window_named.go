package sql

import (
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// windowSpec is a window's definition after named windows are resolved:
// OVER w, OVER (w ORDER BY …) and WINDOW w AS (v …) all copy from the
// named definition what the referring one leaves out, as in SQL:2003 and
// DuckDB. orderParen is the token index of the "(" of the definition
// whose ORDER BY is used (the key of its NULLS FIRST/LAST flags).
type windowSpec struct {
	partition  sqlparser.Exprs
	order      sqlparser.OrderBy
	orderParen int
	frame      *sqlparser.Frame
	frameParen int // the "(" of the definition whose frame is used (rewritten.winFrame's key)
}

// resolveWindow resolves the OVER clause of a call; over is the token
// index of OVER.
func (b *binder) resolveWindow(o *sqlparser.Over, over int) (windowSpec, error) {
	spec := windowSpec{partition: o.PartitionBy, order: o.OrderBy, orderParen: over + 1, frame: o.Frame, frameParen: over + 1}
	ref := o.NameRef
	defAt := len(b.q.sel.Window) // a definition sees only those before it
	for seen := 0; !ref.IsEmpty(); seen++ {
		def, paren := b.namedWindow(ref.Lowered())
		if at := windowIndex(b.q.sel.Window, def); def != nil && at >= defAt {
			at := b.q.findName("", ref.String(), span{over, len(b.q.toks)})
			return spec, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("window %q does not exist before its use in the WINDOW clause", ref.String()))
		} else if def != nil {
			defAt = at
		}
		if def == nil && paren < 0 {
			return spec, b.errAt(-paren-1, ErrSyntax, fmt.Sprintf("window %q is defined twice", ref.String()))
		}
		if def == nil {
			at := b.q.findName("", ref.String(), span{over, len(b.q.toks)})
			return spec, b.errAt(at, ErrUnknownColumn, fmt.Sprintf("unknown window %q", ref.String()))
		}
		if seen > len(b.q.sel.Window) {
			return spec, b.errAt(over, ErrSyntax, fmt.Sprintf("window %q is defined in terms of itself", ref.String()))
		}
		if len(def.PartitionBy) > 0 {
			if len(spec.partition) > 0 {
				return spec, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override PARTITION BY of window %q", ref.String()))
			}
			spec.partition = def.PartitionBy
		}
		if len(def.OrderBy) > 0 {
			if len(spec.order) > 0 {
				return spec, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot override ORDER BY of window %q", ref.String()))
			}
			spec.order, spec.orderParen = def.OrderBy, paren
		}
		if def.Frame != nil && seen == 0 && over+1 < len(b.q.toks) && b.q.toks[over+1].isOp("(") {
			// OVER (w …) copies w, and a window with a frame cannot be
			// copied (DuckDB, PostgreSQL); OVER w uses it as it is.
			return spec, b.errAt(over, ErrSyntax, fmt.Sprintf("cannot copy window %q because it has a frame clause", ref.String()))
		}
		if spec.frame == nil {
			spec.frame, spec.frameParen = def.Frame, paren
		}
		ref = def.NameRef
	}
	return spec, nil
}

// namedWindow returns the definition of window name in this query's
// WINDOW clause and the token index of the "(" that opens it.
func (b *binder) namedWindow(name string) (*sqlparser.WindowDef, int) {
	if b.q.sel == nil {
		return nil, 0
	}
	for _, d := range b.q.sel.Window {
		if d.Name.Lowered() != name {
			continue
		}
		if paren, dup := b.duplicateWindow(name); dup {
			return nil, paren
		}
		toks := b.q.toks
		for i := 0; i+2 < len(toks); i++ {
			if (toks[i].kind == tkIdent || toks[i].kind == tkQIdent) && strings.EqualFold(toks[i].val, name) &&
				toks[i+1].is("AS") && toks[i+2].isOp("(") {
				return d, i + 2
			}
		}
		return d, 0
	}
	return nil, 0
}

// duplicateWindow reports whether this query's WINDOW clause defines name
// twice; the int is then the negated token index of the second
// definition's name plus one (resolveWindow reports it there).
func (b *binder) duplicateWindow(name string) (int, bool) {
	defs := 0
	for _, d := range b.q.sel.Window {
		if d.Name.Lowered() == name {
			defs++
		}
	}
	if defs < 2 {
		return 0, false
	}
	n, first := 0, 0
	toks := b.q.toks
	for i := 0; i+2 < len(toks); i++ {
		if (toks[i].kind == tkIdent || toks[i].kind == tkQIdent) && strings.EqualFold(toks[i].val, name) &&
			toks[i+1].is("AS") && toks[i+2].isOp("(") {
			if n++; n == 2 {
				return -(i + 1), true
			}
			first = i
		}
	}
	return -(first + 1), true
}

// windowIndex is the position of def in the WINDOW clause, -1 if absent.
func windowIndex(defs sqlparser.Window, def *sqlparser.WindowDef) int {
	for i, d := range defs {
		if d == def {
			return i
		}
	}
	return -1
}
