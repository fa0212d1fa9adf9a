package sql

import (
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// copyOptions parses COPY's option list in toks[open+1 : close]: DuckDB's
// NAME value pairs (NAME = value too), a bare NAME meaning true (HEADER),
// values as in a file table function's arguments plus parenthesized
// lists (PARTITION_BY (a, b)); commas between options are optional.
func copyOptions(src Source, toks []token, open, close int) ([]FileArg, error) {
	p := &argParser{src: src, toks: toks[:close], i: open + 1}
	var out []FileArg
	for p.i < close {
		if p.at(p.i).isOp(",") {
			p.i++
			continue
		}
		name := p.at(p.i)
		if name.kind != tkIdent && name.kind != tkQIdent {
			return nil, p.syntax()
		}
		p.i++
		if p.at(p.i).isOp("=") {
			p.i++
		}
		arg := FileArg{Name: strings.ToLower(name.val), NamePos: p.pos(name)}
		if p.i >= close || p.at(p.i).isOp(",") {
			arg.Value = ArgValue{Kind: ArgFlag, Pos: arg.NamePos}
		} else {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			arg.Value = v
		}
		out = append(out, arg)
	}
	return out, nil
}

// copyFromFunc names COPY … FROM's source in the query it becomes.
const copyFromFunc = "b2sql_copy_from"

// copySource is SELECT * FROM the file at token i read with COPY FROM's
// options (the path's extension or FORMAT picks the reader); VALIDATE is
// an INSERT option and stays one.
func (p *stmtParser) copySource(i int, opts []FileArg) (*Query, []Option) {
	t := p.at(i)
	call := &FileCall{Paths: []string{t.val}, PathPos: p.pos(i)}
	var ins []Option
	for _, o := range opts {
		if o.Name == "validate" {
			ins = append(ins, Option{Name: o.Name, Value: strings.ToLower(o.Value.Text), Pos: o.Value.Pos})
			continue
		}
		call.Args = append(call.Args, o)
	}
	marker := &sqlparser.AliasedExpr{Expr: sqlparser.NewStrVal([]byte(markFile + strconv.Itoa(t.off)))}
	from := &sqlparser.TableFuncExpr{Name: copyFromFunc, Exprs: sqlparser.SelectExprs{marker}}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}, From: sqlparser.TableExprs{from}}
	rw := &rewritten{paths: map[string]bool{}, nulls: map[int]bool{}, fileCalls: map[int]*FileCall{t.off: call}}
	return &Query{src: p.src, toks: p.toks[i : i+1], rw: rw, sel: sel, syn: &syntaxIndex{built: true}}, ins
}

// CopySource is the file a COPY … FROM query reads (nil for any other
// query), for the caller to complete its options (the target's types).
func CopySource(q *Query) *FileCall {
	if q != nil && q.copyFrom != nil {
		return q.copyFrom
	}
	if q == nil || q.rw == nil || len(q.rw.fileCalls) != 1 {
		return nil
	}
	if f, ok := q.sel.From[0].(*sqlparser.TableFuncExpr); !ok || f.Name != copyFromFunc {
		return nil
	}
	for _, c := range q.rw.fileCalls {
		return c
	}
	return nil
}
