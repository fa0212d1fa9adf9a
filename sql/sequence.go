package sql

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// Sequences: CREATE [OR REPLACE] [TEMP] SEQUENCE [IF NOT EXISTS] s
// [INCREMENT [BY] n] [MINVALUE n | NO MINVALUE] [MAXVALUE n | NO
// MAXVALUE] [START [WITH] n] [[NO] CYCLE], DROP SEQUENCE [IF EXISTS] s,
// and nextval('s') / currval('s'), as in DuckDB. The engine keeps the
// sequences (executor.Sequence); the binder binds nextval('s') to
// nextval_seq(token) through SequenceCatalog.

// CreateSequence is CREATE SEQUENCE, its options checked and defaulted as
// DuckDB does (an increment of 0, a start outside the bounds and bounds
// out of order are errors).
type CreateSequence struct {
	Name                   string
	NamePos                Pos
	OrReplace, IfNotExists bool
	Temp                   bool // CREATE TEMP SEQUENCE (duckdb_sequences().temporary)
	Start, Incr, Min, Max  int64
	Cycle                  bool
}

// DropSequence is DROP SEQUENCE [IF EXISTS] s.
type DropSequence struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

func (*CreateSequence) statement() {}
func (*DropSequence) statement()   {}

// SequenceCatalog is a catalog with sequences: the token of the one
// named name (any case), for nextval and currval.
type SequenceCatalog interface {
	SequenceToken(name string) (int64, bool)
}

func (b *stmtBuilder) createSequence(s *ast.CreateSequence) (Statement, error) {
	name, pos, err := b.tableName(s.Name)
	if err != nil {
		return nil, err
	}
	out := &CreateSequence{Name: name, NamePos: pos, OrReplace: s.OrReplace, IfNotExists: s.IfNotExists, Temp: s.Temp, Incr: 1}
	given := map[string]bool{}
	var minSet, maxSet, startSet bool
	for _, o := range s.Options {
		key := strings.TrimPrefix(o.Name.Name, "NO ")
		if given[key] {
			return nil, b.errAt(o, ErrSyntax, fmt.Sprintf("%s is given twice", strings.ToLower(key)))
		}
		given[key] = true
		var v int64
		if o.Value != nil {
			if v, err = b.seqNumber(o.Value); err != nil {
				return nil, err
			}
		}
		switch o.Name.Name {
		case "INCREMENT":
			if v == 0 {
				return nil, b.errAt(o, ErrSyntax, "Increment must not be zero")
			}
			out.Incr = v
		case "MINVALUE":
			out.Min, minSet = v, true
		case "MAXVALUE":
			out.Max, maxSet = v, true
		case "START":
			out.Start, startSet = v, true
		case "CYCLE":
			out.Cycle = true
		}
	}
	// DuckDB's defaults: 1 … max int64 from 1 counting up, min int64 …
	// -1 from -1 counting down.
	lo, hi := int64(1), int64(math.MaxInt64)
	if out.Incr < 0 {
		lo, hi = math.MinInt64, -1
	}
	if !minSet {
		out.Min = lo
	}
	if !maxSet {
		out.Max = hi
	}
	if !startSet {
		out.Start = out.Min
		if out.Incr < 0 {
			out.Start = out.Max
		}
	}
	switch {
	case out.Min >= out.Max:
		return nil, b.errAt(s, ErrSyntax, fmt.Sprintf("MINVALUE (%d) must be less than MAXVALUE (%d)", out.Min, out.Max))
	case out.Start < out.Min:
		return nil, b.errAt(s, ErrSyntax, fmt.Sprintf("START value (%d) cannot be less than MINVALUE (%d)", out.Start, out.Min))
	case out.Start > out.Max:
		return nil, b.errAt(s, ErrSyntax, fmt.Sprintf("START value (%d) cannot be greater than MAXVALUE (%d)", out.Start, out.Max))
	}
	return out, nil
}

// seqNumber reads a sequence option's [-]number.
func (b *stmtBuilder) seqNumber(x ast.Expr) (int64, error) {
	neg := false
	for {
		u, ok := x.(*ast.Unary)
		if !ok {
			break
		}
		neg = neg != (u.Op == "-")
		x = u.X
	}
	lit, ok := x.(*ast.Literal)
	if ok && lit.Kind == ast.LitNumber {
		text := lit.Val
		if neg {
			text = "-" + text
		}
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return v, nil
		}
	}
	return 0, b.errAt(x, ErrSyntax, "a sequence's option takes a BIGINT")
}

// bindSequenceCall binds nextval('s') and currval('s') to the engine's
// sequence s (bind_func_hooks.go).
func bindSequenceCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(args) != 1 {
		return nil, true, b.arity(at, name, "1")
	}
	x, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, true, err
	}
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok || !k.Val.Null && k.Val.Type.ID != columnar.Varchar {
		return nil, true, b.typeErr(args[0], c, "%s takes the sequence's name as a constant string", name)
	}
	if k.Val.Null {
		return &planner.Const{Val: columnar.NullValue(columnar.TInt64)}, true, nil
	}
	// The string is the sequence's name as written in SQL: s, main.s,
	// sch.s (relKey).
	seq, _, bad, _ := relKey(strings.Split(k.Val.S, "."), pathOf(b.cat))
	sc, ok := b.cat.(SequenceCatalog)
	var token int64
	if ok && bad < 0 {
		token, ok = sc.SequenceToken(seq)
	}
	if !ok {
		return nil, true, b.errAt(b.leafTok(args[0], c.sp), ErrUnknownTable, fmt.Sprintf("sequence %q does not exist", k.Val.S))
	}
	tok := &planner.Const{Val: columnar.IntValue(columnar.TInt64, token)}
	return &planner.Call{Fn: name + "_seq", Args: []planner.Expr{tok}, T: columnar.TInt64}, true, nil
}
