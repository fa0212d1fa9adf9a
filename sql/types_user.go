package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql/ast"
)

// Named types (CREATE TYPE mood AS ENUM ('sad', 'ok'), CREATE TYPE id AS
// INTEGER) live in the catalog, one set per database, as DuckDB keeps them
// in its in-memory database. A statement is parsed before the statements
// of its script run, so a column type or a CREATE TYPE's type that names
// one (m mood, mood[]) is kept as a TypeRef and resolved when the
// statement runs; a cast in a query is resolved by the binder.

// TypeCatalog is a catalog that holds named types. The binder asks for it
// with a type assertion on its catalog; a catalog without it has none.
type TypeCatalog interface {
	// UserType returns the type named name (case-insensitive).
	UserType(name string) (columnar.Type, bool)
}

// TypeRef is a type as written that names a CREATE TYPE type somewhere in
// it, resolved when its statement runs (Resolve).
type TypeRef struct {
	name *ast.TypeName
	src  Source
}

// Resolve returns the type r names with the named types of tc; an unknown
// name is a positioned ErrType.
func (r *TypeRef) Resolve(tc TypeCatalog) (columnar.Type, error) {
	if n := r.name; n.Name == "ENUM" && n.Schema == "" && len(n.Params)+len(n.Array) == 0 {
		return columnar.EnumOf(), nil // CREATE TYPE e AS ENUM (): DuckDB takes it
	}
	if t, ok := resolveTypeName(r.name, tc.UserType); ok {
		return t, nil
	}
	return columnar.Type{}, errAt(r.src, r.name.Start, ErrType, typeNameMsg(r.src.Text, r.name, tc.UserType))
}

// userTypes is the lookup of the binder's catalog, nil without one.
func (b *binder) userTypes() func(string) (columnar.Type, bool) {
	if tc, ok := b.cat.(TypeCatalog); ok {
		return tc.UserType
	}
	return nil
}

// castType is the type a CAST names, built in or named by CREATE TYPE;
// an error points at the type.
func (b *binder) castType(t *ast.TypeName) (columnar.Type, error) {
	user := b.userTypes()
	if to, ok := resolveTypeName(t, user); ok {
		return to, nil
	}
	if user == nil || !typeNameShape(t) {
		return columnar.Type{}, b.typeNameErr(t)
	}
	return columnar.Type{}, b.errAt(b.q.tokAt(t.Start), ErrType, typeNameMsg(b.q.src.Text, t, user))
}

// CreateType is CREATE TYPE name AS type.
type CreateType struct {
	Name    string
	NamePos Pos
	Type    *TypeRef
}

// DropType is DROP TYPE [IF EXISTS] name.
type DropType struct {
	Name     string
	NamePos  Pos
	IfExists bool
}

func (*CreateType) statement() {}
func (*DropType) statement()   {}

func (b *stmtBuilder) createType(s *ast.CreateType) (Statement, error) {
	name, pos, err := b.tableName(s.Name)
	if err != nil {
		return nil, err
	}
	if strings.Contains(name, ".") {
		// A type is looked up by its bare name (resolveTypeName).
		return nil, b.errAt(s.Name[0], ErrUnsupported, "CREATE TYPE in a schema other than main is not supported")
	}
	ref := &TypeRef{name: s.Type, src: b.src}
	if _, err := ref.Resolve(emptyTypes{}); err != nil && !typeNameShape(s.Type) {
		return nil, err
	}
	return &CreateType{Name: name, NamePos: pos, Type: ref}, nil
}

// columnType reads a column's type: built in now, or a TypeRef to resolve
// when the statement runs when it may name a CREATE TYPE type.
func (b *stmtBuilder) columnType(t *ast.TypeName) (columnar.Type, *TypeRef, error) {
	if _, ok := astTypeName(t); !ok && typeNameShape(t) {
		return columnar.Type{}, &TypeRef{name: t, src: b.src}, nil
	}
	typ, err := b.typeOf(t)
	return typ, nil, err
}

// ResolveColumns returns cols with the types their TypeRefs name (cols
// itself when none has one).
func ResolveColumns(cols []ColumnDef, tc TypeCatalog) ([]ColumnDef, error) {
	var out []ColumnDef
	for i, c := range cols {
		if c.TypeRef == nil {
			continue
		}
		if out == nil {
			out = append([]ColumnDef(nil), cols...)
		}
		t, err := c.TypeRef.Resolve(tc)
		if err != nil {
			return nil, err
		}
		out[i].Type = t
	}
	if out == nil {
		return cols, nil
	}
	return out, nil
}

// emptyTypes is a TypeCatalog without types.
type emptyTypes struct{}

func (emptyTypes) UserType(string) (columnar.Type, bool) { return columnar.Type{}, false }

// typeOf reads a column's type; an error points at the type's name.
func (b *stmtBuilder) typeOf(t *ast.TypeName) (columnar.Type, error) {
	if typ, ok := astTypeName(t); ok {
		return typ, nil
	}
	if _, why, is := geometryTypeName(t); is && why != "" {
		return columnar.Type{}, b.errAt(t, ErrType, why)
	}
	// Say why: parseTypeName's message for a scalar type, a plain
	// refusal for what astTypeName does not take.
	var params []int
	for _, p := range t.Params {
		l, ok := p.(*ast.Literal)
		n, err := 0, error(nil)
		if ok && l.Kind == ast.LitNumber {
			n, err = strconv.Atoi(l.Val)
		}
		if !ok || l.Kind != ast.LitNumber || err != nil {
			return columnar.Type{}, b.syntax(p)
		}
		params = append(params, n)
	}
	msg := fmt.Sprintf("type %q is not supported", b.src.Text[t.Start:t.End])
	if _, err := parseTypeName(strings.Fields(t.Name), params); err != nil {
		msg = err.Error()
	}
	return columnar.Type{}, b.errAt(t, ErrType, msg)
}
