package sql

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// structStarItems expands s.* (or t.s.*) where s is a STRUCT column, not
// a table, as DuckDB does: one item per field, s.field, named after the
// field. EXCLUDE, RENAME and REPLACE name fields, and LIKE (and the other
// patterns) filter them. ok is false when the qualifier does not name a
// STRUCT column.
func (b *binder) structStarItems(st *ast.Star) (items []selItem, ok bool, err error) {
	ref := &ast.ColumnRef{Span: st.Span, Name: st.Qualifier}
	x, err := b.bindAST(ref, ectx{sp: b.q.spanOf(st)})
	if err != nil || x.Type().ID != columnar.Struct {
		return nil, false, nil
	}
	exclude := map[string]bool{}
	for _, n := range st.Exclude {
		exclude[strings.ToLower(n.Last().Name)] = true
	}
	rename := map[string]string{}
	for _, r := range st.Rename {
		rename[strings.ToLower(r.From.Last().Name)] = r.To.Name
	}
	replace := map[string]*ast.SelectItem{}
	for _, r := range st.Replace {
		if r.Alias == nil {
			return nil, true, b.errAt(b.q.tokAt(st.Replace[0].Start), ErrSyntax, "REPLACE expects a list of expr AS column")
		}
		replace[strings.ToLower(r.Alias.Name)] = r
	}
	for _, f := range x.Type().Fields() {
		if st.Like != nil {
			if match, err := b.starMatches(st.Like, f.Name); err != nil || !match {
				if err != nil {
					return nil, true, err
				}
				continue
			}
		}
		l := strings.ToLower(f.Name)
		if exclude[l] {
			delete(exclude, l)
			continue
		}
		it := selItem{name: f.Name, alias: f.Name, sp: b.q.spanOf(st)}
		if r, isRepl := replace[l]; isRepl {
			it.src, it.sp = astSrc(r.X), b.q.spanOf(r.X)
			delete(replace, l)
		} else {
			path := append(append(ast.Name{}, st.Qualifier...), &ast.Ident{Span: st.Span, Name: f.Name, Quoted: true})
			it.src = astSrc(&ast.ColumnRef{Span: st.Span, Name: path})
		}
		if to, isRen := rename[l]; isRen {
			it.name, it.alias = to, to
		}
		items = append(items, it)
	}
	for _, n := range st.Exclude {
		if exclude[strings.ToLower(n.Last().Name)] {
			return nil, true, b.errAt(b.q.tokAt(n.Span().Start), ErrUnknownColumn, fmt.Sprintf("field %q in EXCLUDE is not in the STRUCT", n.Last().Name))
		}
	}
	for _, r := range st.Replace {
		if _, left := replace[strings.ToLower(r.Alias.Name)]; left {
			return nil, true, b.errAt(b.q.tokAt(r.Alias.Start), ErrUnknownColumn, fmt.Sprintf("field %q in REPLACE is not in the STRUCT", r.Alias.Name))
		}
	}
	if len(items) == 0 {
		return nil, true, b.errAt(b.q.tokAt(st.Start), ErrUnknownColumn, "the STRUCT star selects no field")
	}
	return items, true, nil
}
