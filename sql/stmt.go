package sql

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/sql/ast"
	"github.com/b2sql/b2sql/sql/parser"
)

// Parse parses one statement (see Split for scripts; a final ';' is
// allowed) with sql/parser and builds its Statement from the syntax tree.
// A Source from Split is parsed from the tokens Split lexed: a statement
// is lexed once on its way from the script to the binder. Errors are
// *Error positioned in the whole script. Unqualified names are the
// default database's (ParseIn).
func Parse(src Source) (Statement, error) { return ParseIn(src, Path{}, nil) }

// ParseIn is Parse with the unqualified names of the relations the
// statement creates or changes resolved in path (a session's USE), but
// for the temporary tables of cat (a TempCatalog; nil: none), which come
// first; the queries in it are resolved by the binder, in its catalog's
// path.
func ParseIn(src Source, path Path, cat any) (Statement, error) {
	if src.Line <= 0 {
		src.Line = 1
	}
	if src.Col <= 0 {
		src.Col = 1
	}
	piece := src.lexed()
	if err := piece.Err(); err != nil {
		return nil, syntaxError(src, err)
	}
	toks := withoutSemicolon(fromParser(piece.Tokens()))
	if st, ok, err := parseSecret(src, toks); ok {
		return st, err
	}
	tree, err := piece.Parse()
	if err != nil {
		return nil, syntaxError(src, err)
	}
	b := &stmtBuilder{src: src, toks: toks, path: path, temps: cat}
	if st, ok, err := b.statement(tree); ok {
		return st, err
	}
	return nil, b.unsupportedStmt(tree)
}

// syntaxError positions the parser's error in src.
func syntaxError(src Source, err error) error {
	var pe *parser.Error
	if errors.As(err, &pe) {
		off := pe.Offset
		if pe.Msg == "empty statement" {
			off = 0 // nothing to point at: the caret goes at the start
		}
		return errAt(src, off, ErrSyntax, pe.Msg)
	}
	return errAt(src, 0, ErrSyntax, err.Error())
}

// statement builds st; ok is false for the statements still parsed by
// parseLegacy.
func (b *stmtBuilder) statement(st ast.Stmt) (Statement, bool, error) {
	if out, ok, err := b.withWrites(st); ok { // stmt_with_writes.go
		return out, true, err
	}
	var out Statement
	var err error
	switch s := st.(type) {
	case *ast.Query:
		out, err = b.wholeQuery(s)
	case *ast.Set:
		out, err = b.set(s)
	case *ast.Pragma:
		out, err = b.pragma(s) // stmt_pragma.go
	case *ast.Reset:
		out, err = b.reset(s)
	case *ast.Show:
		out, err = b.show(s)
	case *ast.Drop:
		out, err = b.drop(s)
	case *ast.CreateIndex:
		out, err = b.createIndex(s)
	case *ast.Reindex:
		out, err = b.reindex(s)
	case *ast.Attach:
		out, err = b.attach(s)
	case *ast.Detach:
		out = &Detach{Name: s.Name.Name, NamePos: b.pos(s.Name.Start), IfExists: s.IfExists}
	case *ast.Use:
		out, err = b.use(s)
	case *ast.Truncate:
		out, err = b.truncate(s)
	case *ast.Prepare:
		out, err = b.prepare(s)
	case *ast.Execute:
		out, err = b.execute(s)
	case *ast.Deallocate:
		out, err = b.deallocate(s)
	case *ast.Explain:
		out, err = b.explain(s)
	case *ast.Describe:
		out, err = b.describe(s)
	case *ast.CreateView:
		out, err = b.createView(s)
	case *ast.CreateTable:
		out, err = b.createTable(s)
	case *ast.CreateSequence:
		out, err = b.createSequence(s)
	case *ast.CreateType:
		out, err = b.createType(s)
	case *ast.CreateSchema:
		out, err = b.createSchema(s) // schema.go
	case *ast.CreateMacro:
		out, err = b.createMacro(s) // macro_stmt.go
	case *ast.Insert:
		out, err = b.insert(s)
	case *ast.Update:
		out, err = b.update(s)
	case *ast.Delete:
		out, err = b.deleteFrom(s)
	case *ast.Copy:
		out, err = b.copyStmt(s)
	case *ast.Merge:
		err = b.errAt(s, ErrUnsupported, "MERGE is not supported (write INSERT … ON CONFLICT, UPDATE and DELETE)")
	case *ast.Comment:
		out, err = b.comment(s) // comment.go
	case *ast.Transaction:
		out = &Transaction{Kind: s.Kind, ReadOnly: s.ReadOnly, Pos: b.pos(s.Start)}
	case *ast.Simple:
		if out, ok := b.checkpoint(s); ok { // checkpoint.go
			return out, true, nil
		}
		return nil, false, nil
	case *ast.CreateTrigger:
		err = b.errAt(s, ErrUnsupported, "CREATE TRIGGER is not supported (b2sql has no triggers)")
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return out, true, nil
}

func (b *stmtBuilder) set(s *ast.Set) (Statement, error) {
	if len(s.Name) != 1 {
		return nil, b.syntax(s.Name[1])
	}
	name := strings.ToLower(s.Name[0].Name)
	if s.Default {
		return &Reset{Name: name}, nil
	}
	if s.Scope == "VARIABLE" {
		return b.setVariable(s) // variables.go
	}
	if len(s.Values) != 1 {
		return nil, b.syntax(s.Values[1])
	}
	v, err := b.setValue(s.Values[0])
	if err != nil {
		return nil, err
	}
	return &Set{Name: name, Value: v}, nil
}

func (b *stmtBuilder) reset(s *ast.Reset) (Statement, error) {
	if s.Name == nil {
		return &Reset{Name: "all"}, nil
	}
	if len(s.Name) != 1 {
		return nil, b.syntax(s.Name[1])
	}
	if s.Scope == "VARIABLE" {
		return &ResetVariable{Name: s.Name[0].Name}, nil // variables.go
	}
	return &Reset{Name: strings.ToLower(s.Name[0].Name)}, nil
}

func (b *stmtBuilder) show(s *ast.Show) (Statement, error) {
	if s.What == "TABLES" && s.From == nil {
		return &ShowTables{}, nil
	}
	if text, ok := showQueries[s.What]; ok && s.From == nil {
		return Parse(Source{Text: text, Line: 1, Col: 1}) // catalog_views.go
	}
	return nil, b.errAt(s, ErrUnsupported, "SHOW "+s.What+" is not supported")
}

func (b *stmtBuilder) drop(s *ast.Drop) (Statement, error) {
	if s.Kind == "SCHEMA" && !s.Restrict {
		return b.dropSchema(s) // schema.go
	}
	if (s.Kind == "MACRO" || s.Kind == "MACRO TABLE" || s.Kind == "FUNCTION") && !s.Cascade && !s.Restrict {
		return b.dropMacro(s) // macro_stmt.go
	}
	if s.Kind != "TABLE" && s.Kind != "VIEW" && s.Kind != "INDEX" && s.Kind != "TYPE" && s.Kind != "SEQUENCE" {
		return nil, b.errAt(s, ErrUnsupported, "DROP "+s.Kind+" is not supported")
	}
	if s.Cascade || s.Restrict {
		return nil, b.errAt(s, ErrUnsupported, "DROP "+s.Kind+" … CASCADE / RESTRICT is not supported")
	}
	if s.On != nil { // DROP INDEX ON t (col)
		t, tpos, err := b.tableName(s.On)
		if err != nil {
			return nil, err
		}
		if len(s.Columns) != 1 {
			return nil, b.errAt(s.Columns[min(1, len(s.Columns)-1)], ErrSyntax, "DROP INDEX ON names one column")
		}
		c := s.Columns[0]
		return &DropIndex{Table: t, TablePos: tpos, Column: c.Name, ColumnPos: b.pos(c.Start), IfExists: s.IfExists}, nil
	}
	if len(s.Names) != 1 {
		return nil, b.errAt(s.Names[1][0], ErrUnsupported, "DROP "+s.Kind+" takes one name")
	}
	name, catalog, pos, err := b.qualifiedName(s.Names[0])
	if err != nil {
		return nil, err
	}
	switch s.Kind {
	case "TABLE":
		return &DropTable{Name: name, NamePos: pos, Catalog: catalog, IfExists: s.IfExists}, nil
	case "VIEW":
		return &DropView{Name: name, NamePos: pos, Catalog: catalog, IfExists: s.IfExists}, nil
	case "TYPE":
		return &DropType{Name: name, NamePos: pos, IfExists: s.IfExists}, nil
	case "SEQUENCE":
		return &DropSequence{Name: name, NamePos: pos, IfExists: s.IfExists}, nil
	}
	return &DropIndex{Name: name, NamePos: pos, IfExists: s.IfExists}, nil
}

func (b *stmtBuilder) createIndex(s *ast.CreateIndex) (Statement, error) {
	if s.Unique {
		return nil, errAt(b.src, s.UniqueAt.Start, ErrUnsupported, "UNIQUE indexes are not supported (b2sql indexes speed up reads; they enforce nothing)")
	}
	if len(s.Options) > 0 {
		return nil, b.errAt(s.Options[0], ErrUnsupported, "CREATE INDEX … WITH (options) is not supported")
	}
	c := &CreateIndex{IfNotExists: s.IfNotExists}
	if s.Name != nil {
		c.Name, c.NamePos = s.Name.Name, b.pos(s.Name.Start)
	}
	var err error
	if c.Table, c.TablePos, err = b.tableName(s.Table); err != nil {
		return nil, err
	}
	if s.Using != nil {
		switch k := strings.ToLower(s.Using.Name); k {
		case "full", "summary":
			c.Kind, c.KindPos = k, b.pos(s.Using.Start)
		default:
			return nil, b.errAt(s.Using, ErrUnsupported, fmt.Sprintf("unknown index kind %q (FULL or SUMMARY)", s.Using.Name))
		}
	}
	for _, k := range s.Keys {
		ref, ok := k.X.(*ast.ColumnRef)
		if !ok || len(ref.Name) != 1 || k.Nulls != "" {
			return nil, b.errAt(k, ErrUnsupported, "an index key is a column name (expression keys are not supported)")
		}
		c.Columns = append(c.Columns, ref.Name[0].Name)
		c.ColumnPos = append(c.ColumnPos, b.pos(ref.Start))
	}
	return c, nil
}

func (b *stmtBuilder) reindex(s *ast.Reindex) (Statement, error) {
	r := &Reindex{Pos: b.pos(s.Start)}
	if s.Target == nil {
		return r, nil
	}
	var err error
	if r.Target, r.TargetPos, err = b.tableName(s.Target); err != nil {
		return nil, err
	}
	if s.Column != nil {
		r.Column, r.ColumnPos = s.Column.Name, b.pos(s.Column.Start)
	}
	return r, nil
}

// truncate builds TRUNCATE [TABLE] t: DELETE FROM t without a condition.
func (b *stmtBuilder) truncate(s *ast.Truncate) (Statement, error) {
	name, pos, err := b.tableName(s.Table)
	if err != nil {
		return nil, err
	}
	return &Delete{Table: name, TablePos: pos}, nil
}

// explain builds EXPLAIN [ANALYZE] statement: of a query, or of a
// statement that writes (its plan is that of the query producing what it
// would write; DROP TABLE has a trivial one). Other statements have
// nothing to plan.
func (b *stmtBuilder) explain(s *ast.Explain) (Statement, error) {
	if len(s.Options) > 0 {
		return nil, b.errAt(s.Options[0], ErrUnsupported, "EXPLAIN options are not supported")
	}
	sp := s.Stmt.Extent()
	inner, err := Parse(b.sub(sp))
	if err != nil {
		return nil, err
	}
	switch w := inner.(type) {
	case *Query:
		return &Explain{Analyze: s.Analyze, Query: w}, nil
	case *Insert, *Update, *Delete, *Copy, *CreateTableAs, *CreateTable, *DropTable, *WithWrites:
		if _, ok := s.Stmt.(*ast.Truncate); !ok {
			return &Explain{Analyze: s.Analyze, Write: w}, nil
		}
	}
	words := strings.Fields(strings.ToUpper(b.src.Text[sp.Start:sp.End]))[:1]
	if n := strings.Fields(b.src.Text[sp.Start:sp.End]); len(n) > 1 && isWord(n[1]) {
		words = append(words, strings.ToUpper(n[1]))
	}
	return nil, errAt(b.src, sp.Start, ErrUnsupported, fmt.Sprintf("EXPLAIN of %s is not supported (EXPLAIN takes a query, INSERT, UPDATE, DELETE, COPY, CREATE TABLE or DROP TABLE)", strings.Join(words, " ")))
}

// unsupportedStmt refuses a statement the parser reads and b2sql does not
// run, naming it by its first words (CREATE SEQUENCE, PRAGMA, …).
func (b *stmtBuilder) unsupportedStmt(st ast.Stmt) error {
	sp := st.Extent()
	var what []string
	for i, w := range strings.Fields(strings.ToUpper(b.src.Text[sp.Start:sp.End])) {
		w = strings.TrimRight(w, ";(")
		if !isWord(w) {
			break
		}
		if i > 0 && (w == "OR" || w == "REPLACE" || w == "TEMP" || w == "TEMPORARY" || w == "UNIQUE") {
			continue
		}
		what = append(what, w)
		if w != "CREATE" {
			break
		}
	}
	name := strings.Join(what, " ")
	if name == "" {
		name = "this statement"
	}
	return errAt(b.src, sp.Start, ErrUnsupported, name+" is not supported")
}

// isWord reports whether s is a bare word (letters, digits, _).
func isWord(s string) bool {
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
