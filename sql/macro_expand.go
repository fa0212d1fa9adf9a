package sql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// maxMacroRounds bounds the expansion of macros whose bodies call macros:
// past it a macro calls itself, directly or through others.
const maxMacroRounds = 32

// MacroExpansion is a statement whose macro calls were replaced by what
// they stand for (ExpandMacros), with the way back from positions in the
// expanded text to the statement as written.
type MacroExpansion struct {
	// Src is the expanded statement, at the written statement's place in
	// its script.
	Src Source
	// orig is the statement as written; rounds are the pieces of each
	// round's output, the first round's first.
	orig   Source
	rounds [][]piece
}

// piece is a run of one expansion round's output text: copied from its
// input at from (positions map one to one), or written by the expansion
// (a macro's body: every position maps to from, the call).
type piece struct {
	at, n, from int
	copied      bool
}

// ExpandMacros replaces the macro calls of the statement in src: f(args)
// becomes (body) with each parameter replaced by (its argument), and a
// table macro tm(args) in FROM becomes (query) AS tm. Arguments are
// copied as written, so that an error in one still points into it, while
// errors inside a body point at the call (MapError). A select-list item
// that holds a call and has no alias keeps its written text as its name,
// as in DuckDB. Calls are expanded outermost first, in rounds, until none
// is left. ok is false when the statement calls no macro (or cat keeps
// none); src is then to be used as it is.
func ExpandMacros(src Source, cat any) (x *MacroExpansion, ok bool, err error) {
	mc, isMC := cat.(MacroCatalog)
	if !isMC || !mc.HasMacros() {
		return nil, false, nil
	}
	x = &MacroExpansion{orig: src}
	text := src.Text
	for round := 0; ; round++ {
		tree, perr := parser.Parse(text)
		if perr != nil {
			if round == 0 {
				return nil, false, nil // the caller's own parse reports it
			}
			return nil, false, x.errAt(len(text), ErrSyntax, "a macro's expansion does not parse: "+perr.Error())
		}
		if _, isCreate := tree.(*ast.CreateMacro); isCreate {
			return nil, false, nil // a body is expanded where it is called
		}
		calls := findMacroCalls(tree, mc)
		if len(calls) == 0 {
			break
		}
		if round == maxMacroRounds {
			return nil, false, x.errAt(calls[0].f.Start, ErrUnsupported,
				fmt.Sprintf("macro %s expands without end (it calls itself, directly or through other macros)", calls[0].m.Name))
		}
		var edits []edit
		for _, c := range calls {
			e, err := x.expandCall(text, c)
			if err != nil {
				return nil, false, err
			}
			edits = append(edits, e)
		}
		if round == 0 {
			edits = append(edits, nameItems(tree, text, calls)...)
		}
		var pieces []piece
		text, pieces = applyEdits(text, edits)
		x.rounds = append(x.rounds, pieces)
	}
	if len(x.rounds) == 0 {
		return nil, false, nil
	}
	x.Src = Source{Text: text, Offset: src.Offset, Line: src.Line, Col: src.Col}
	return x, true, nil
}

// macroCall is a call of macro m: f, in FROM when table.
type macroCall struct {
	f        *ast.Func
	m        *Macro
	table    bool
	hasAlias bool // in FROM with AS name, which stays after the expansion
}

// findMacroCalls returns the outermost calls of macros in tree, in text
// order. A macro's name may be qualified (main.f, temp.f) as a table's.
func findMacroCalls(tree ast.Stmt, mc MacroCatalog) []macroCall {
	var calls []macroCall
	inFrom := map[*ast.Func]bool{}
	aliased := map[*ast.Func]bool{}
	ast.WalkAll(tree, func(n ast.Node) {
		var f *ast.Func
		switch n := n.(type) {
		case *ast.TableFunc:
			f = n.Func
			inFrom[f] = true
			aliased[f] = n.Alias != nil
		case *ast.Func:
			if inFrom[n] {
				return // seen as its TableFunc
			}
			f = n
		default:
			return
		}
		parts := make([]string, len(f.Name))
		for i, p := range f.Name {
			parts[i] = p.Name
		}
		key, _, bad, _ := relKey(parts, Path{}) // macros are the default database's (macro_stmt.go)
		if bad >= 0 {
			return
		}
		if m, ok := mc.Macro(key); ok {
			calls = append(calls, macroCall{f: f, m: m, table: inFrom[f], hasAlias: aliased[f]})
		}
	})
	slices.SortFunc(calls, func(a, b macroCall) int { return a.f.Start - b.f.Start })
	var outer []macroCall
	for _, c := range calls {
		if n := len(outer); n > 0 && c.f.Start < outer[n-1].f.End {
			continue // inside an argument of the call before: a later round's
		}
		outer = append(outer, c)
	}
	return outer
}

// edit replaces text[start:end) with parts, in order: literal text
// (written by the expansion, its positions the call's) or copies of the
// input.
type edit struct {
	start, end int
	parts      []part
}

// part is written text (lit), or a copy of input[from:from+n).
type part struct {
	lit     string
	from, n int
	copied  bool
}

func lit(s string) part       { return part{lit: s} }
func copyOf(sp ast.Span) part { return part{from: sp.Start, n: sp.End - sp.Start, copied: true} }

// applyEdits returns text with edits (sorted by start, not overlapping)
// made, and its pieces.
func applyEdits(text string, edits []edit) (string, []piece) {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var out strings.Builder
	var pieces []piece
	put := func(s string, from int, copied bool) {
		if s == "" {
			return
		}
		pieces = append(pieces, piece{at: out.Len(), n: len(s), from: from, copied: copied})
		out.WriteString(s)
	}
	last := 0
	for _, e := range edits {
		put(text[last:e.start], last, true)
		for _, p := range e.parts {
			if p.copied {
				put(text[p.from:p.from+p.n], p.from, true)
			} else {
				put(p.lit, e.start, false)
			}
		}
		last = e.end
	}
	put(text[last:], last, true)
	return out.String(), pieces
}

// expandCall builds the edit that replaces call c in text.
func (x *MacroExpansion) expandCall(text string, c macroCall) (edit, error) {
	f, m := c.f, c.m
	fail := func(kind error, msg string) (edit, error) { return edit{}, x.errAt(f.Start, kind, msg) }
	switch {
	case m.Table && !c.table:
		return fail(ErrUnknownFunction, fmt.Sprintf("function %q is a table macro: call it in FROM (SELECT * FROM %s(…))", m.Name, m.Name))
	case !m.Table && c.table:
		return fail(ErrUnknownTable, fmt.Sprintf("macro %q is a scalar macro, not a table function", m.Name))
	case f.Distinct || f.Filter != nil || f.OrderBy != nil || f.WithinGroup != nil:
		return fail(ErrType, fmt.Sprintf(`function %q is a macro: DISTINCT, FILTER, ORDER BY and WITHIN GROUP apply only to aggregate functions`, m.Name))
	case f.Star || f.ExportState || f.NullsAt != (ast.Span{}):
		return fail(ErrType, fmt.Sprintf("function %q is a macro: * , EXPORT_STATE and IGNORE/RESPECT NULLS apply only to built-in functions", m.Name))
	}
	o, args, err := m.pick(f)
	if err != nil {
		return fail(ErrType, err.Error())
	}
	if f.Over != nil && o.Agg.end < 0 {
		return fail(ErrType, fmt.Sprintf("macro %s is called with OVER, so its body must hold exactly one aggregate call, which takes the window", m.Name))
	}
	if err := checkMarkers(m, o, args); err != nil {
		return fail(ErrParam, err.Error())
	}
	parts := []part{lit("(")}
	body := o.Body
	last := 0
	arg := func(k int) {
		p := o.Params[k]
		open, close := "(", ")"
		if p.Type != "" {
			open, close = "CAST((", ") AS "+p.Type+")"
		}
		parts = append(parts, lit(open))
		if a := args[k]; a != nil {
			parts = append(parts, copyOf(a.Extent()))
		} else {
			parts = append(parts, lit(p.Default))
		}
		parts = append(parts, lit(close))
	}
	over := func() {
		w := text[f.Over.Start:f.Over.End]
		if !strings.HasPrefix(strings.ToUpper(w), "OVER") {
			w = "OVER " + w
		}
		parts = append(parts, lit(body[last:o.Agg.end]+" "+w))
		last = o.Agg.end
	}
	overDone := f.Over == nil
	for _, r := range o.Refs {
		if !overDone && r.start >= o.Agg.end {
			over()
			overDone = true
		}
		parts = append(parts, lit(body[last:r.start]))
		arg(r.param)
		last = r.end
	}
	if !overDone {
		over()
	}
	parts = append(parts, lit(body[last:]+")"))
	if c.table && !c.hasAlias {
		parts = append(parts, lit(" AS "+quoteIdent(m.Name)))
	}
	return edit{start: f.Start, end: f.End, parts: parts}, nil
}

// quoteIdent quotes name as a SQL identifier.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// pick chooses the overload of m that call f's arguments fit, and
// returns each parameter's argument (nil: the default). Positional
// arguments fill the first parameters; named ones (p := v) any other;
// every parameter without a default must get one. As in DuckDB, a call
// that fits several overloads is an error.
func (m *Macro) pick(f *ast.Func) (*MacroOverload, []ast.Expr, error) {
	var pos []ast.Expr
	named := map[string]ast.Expr{}
	for _, a := range f.Args {
		if na, ok := a.(*ast.NamedArg); ok {
			named[strings.ToLower(na.Name.Name)] = na.Value
		} else {
			pos = append(pos, a)
		}
	}
	var fits []*MacroOverload
	var fitArgs [][]ast.Expr
	for _, o := range m.Overloads {
		if args, ok := o.fit(pos, named); ok {
			fits = append(fits, o)
			fitArgs = append(fitArgs, args)
		}
	}
	if len(fits) == 1 {
		return fits[0], fitArgs[0], nil
	}
	cands := fits
	msg := fmt.Sprintf("macro %s() does not take the arguments given", m.Name)
	if len(fits) == 0 {
		cands = m.Overloads
	} else {
		msg = fmt.Sprintf("macro %s() has several overloads that the arguments fit (name every argument to choose one)", m.Name)
	}
	var sigs []string
	for _, o := range cands {
		sigs = append(sigs, m.Signature(o))
	}
	return nil, nil, fmt.Errorf("%s; candidates: %s", msg, strings.Join(sigs, ", "))
}

// fit returns the argument of each of o's parameters for positional
// arguments pos and named ones (lower-case name → value), ok false when
// they do not fit o.
func (o *MacroOverload) fit(pos []ast.Expr, named map[string]ast.Expr) ([]ast.Expr, bool) {
	if len(pos) > len(o.Params) {
		return nil, false
	}
	args := make([]ast.Expr, len(o.Params))
	copy(args, pos)
	used := 0
	for k := len(pos); k < len(o.Params); k++ {
		p := o.Params[k]
		if v, ok := named[strings.ToLower(p.Name)]; ok {
			args[k] = v
			used++
		} else if p.Default == "" {
			return nil, false
		}
	}
	return args, used == len(named)
}

// checkMarkers refuses a ? marker in an argument whose parameter the body
// uses other than once: the copies would take values of their own.
func checkMarkers(m *Macro, o *MacroOverload, args []ast.Expr) error {
	for k, a := range args {
		if a == nil {
			continue
		}
		marker := false
		ast.WalkAll(a, func(n ast.Node) {
			if p, ok := n.(*ast.Param); ok && p.Index == 0 && p.Name == "" {
				marker = true
			}
		})
		if !marker {
			continue
		}
		uses := 0
		for _, r := range o.Refs {
			if r.param == k {
				uses++
			}
		}
		if uses != 1 {
			return fmt.Errorf("a ? parameter is passed to parameter %s of macro %s, whose body uses it %d times (number the parameter: $1)", o.Params[k].Name, m.Name, uses)
		}
	}
	return nil
}

// nameItems gives each select-list item that holds one of calls and has
// no alias its written text as its name, so that SELECT f(1) shows
// "f(1)" as DuckDB does, not the text of f's body.
func nameItems(tree ast.Stmt, text string, calls []macroCall) []edit {
	var edits []edit
	ast.WalkAll(tree, func(n ast.Node) {
		it, ok := n.(*ast.SelectItem)
		if !ok || it.Alias != nil || it.X == nil {
			return
		}
		if _, star := it.X.(*ast.Star); star {
			return
		}
		sp := it.X.Extent()
		for _, c := range calls {
			if c.f.Start >= sp.Start && c.f.End <= sp.End && !c.table {
				name := strings.TrimSpace(text[sp.Start:sp.End])
				edits = append(edits, edit{start: sp.End, end: sp.End, parts: []part{lit(" AS " + quoteIdent(name))}})
				return
			}
		}
	})
	return edits
}

// origOffset maps byte offset off of the last round's output back to the
// statement as written.
func (x *MacroExpansion) origOffset(off int) int {
	for r := len(x.rounds) - 1; r >= 0; r-- {
		off = mapPiece(x.rounds[r], off)
	}
	return off
}

// mapPiece maps offset off of a round's output to its input.
func mapPiece(pieces []piece, off int) int {
	i, _ := slices.BinarySearchFunc(pieces, off, func(p piece, off int) int {
		if p.at+p.n <= off {
			return -1
		}
		if p.at > off {
			return 1
		}
		return 0
	})
	if i >= len(pieces) {
		if len(pieces) == 0 {
			return off
		}
		p := pieces[len(pieces)-1]
		return p.from + p.n // past the end
	}
	p := pieces[i]
	if !p.copied {
		return p.from
	}
	return p.from + off - p.at
}

// errAt is an error at offset off of the current round's input, placed
// in the statement as written.
func (x *MacroExpansion) errAt(off int, kind error, msg string) error {
	return errAt(x.orig, x.origOffset(off), kind, msg)
}

// MapError returns err with its position moved from the expanded
// statement to the statement as written (a position inside a macro's
// body becomes the call's). Errors without a position in Src are
// returned as they are.
func (x *MacroExpansion) MapError(err error) error {
	e, ok := err.(*Error)
	if !ok || e.Pos.Line <= 0 {
		return err
	}
	off, in := offsetOf(x.Src, e.Pos)
	if !in {
		return err
	}
	c := *e
	c.Pos = posIn(x.orig.Text, x.origOffset(off), Pos{x.orig.Line, x.orig.Col})
	c.End = Pos{}
	if e.End != (Pos{}) {
		if endOff, ok := offsetOf(x.Src, e.End); ok {
			if o := x.origOffset(endOff); o > x.origOffset(off) {
				c.End = posIn(x.orig.Text, o, Pos{x.orig.Line, x.orig.Col})
			}
		}
	}
	return &c
}
