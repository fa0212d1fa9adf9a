package sql

// Macros (CREATE MACRO, DuckDB's user-defined functions) are syntax: a
// call f(args) stands for f's body with each parameter replaced by its
// argument, and a table macro tm(args) in FROM for its query. The catalog
// keeps them (MacroCatalog); ExpandMacros rewrites a statement's text
// before it is parsed for binding (macro_expand.go).

// Macro is a macro of the catalog: one or more overloads of one kind,
// scalar (called in expressions) or table (called in FROM).
type Macro struct {
	Name      string // as written in CREATE
	Schema    string // "" for main
	Table     bool   // AS TABLE
	Temp      bool
	Overloads []*MacroOverload
	// Text is the CREATE statement as written (duckdb_functions'
	// macro_definition); Comment is COMMENT ON MACRO's ("" for none).
	Text    string
	Comment string
}

// MacroOverload is one overload of a macro: its parameters and body.
type MacroOverload struct {
	Params []MacroParam
	// Body is the expression (or, for a table macro, the query) as
	// written; Refs are its references to parameters, in text order.
	Body string
	Refs []macroRef
	// Agg is the span in Body of the body's one aggregate call (for a call
	// with OVER, whose window that aggregate takes); Agg.end is -1 when
	// the body has no aggregate call or more than one.
	Agg struct{ start, end int }
}

// MacroParam is a macro parameter.
type MacroParam struct {
	Name    string
	Type    string // the type as written ("" for any): the argument is cast to it
	Default string // the default's text ("" for none)
}

// macroRef is a reference to parameter Param at [start, end) of a body.
// A reference s.f to a STRUCT parameter s covers only s.
type macroRef struct {
	start, end int
	param      int
}

// Signature is how errors and duckdb_functions show overload o:
// f(a, b := 5).
func (m *Macro) Signature(o *MacroOverload) string {
	s := m.Name + "("
	for i, p := range o.Params {
		if i > 0 {
			s += ", "
		}
		s += p.Name
		if p.Type != "" {
			s += " " + p.Type
		}
		if p.Default != "" {
			s += " := " + p.Default
		}
	}
	return s + ")"
}

// CreateMacro is CREATE [OR REPLACE] [TEMP] MACRO|FUNCTION [IF NOT
// EXISTS] name(params) AS body [, (params) AS body …].
type CreateMacro struct {
	Macro       *Macro
	Key         string // the catalog key of the name (relKey)
	NamePos     Pos
	Replace     bool
	IfNotExists bool
}

// DropMacro is DROP MACRO [TABLE] | DROP FUNCTION [IF EXISTS] name.
type DropMacro struct {
	Key      string
	NamePos  Pos
	IfExists bool
	Table    bool // DROP MACRO TABLE: only a table macro
}

func (*CreateMacro) statement() {}
func (*DropMacro) statement()   {}

// MacroCatalog is a catalog that keeps macros. It is the binder's side of
// CREATE MACRO, declared here (not in planner, beside ViewCatalog) because
// a macro is syntax the planner never sees.
type MacroCatalog interface {
	// Macro returns the macro under key (relKey of its name,
	// case-insensitive).
	Macro(key string) (*Macro, bool)
	// HasMacros reports whether any macro exists, so that statements are
	// not searched for calls when none can be one.
	HasMacros() bool
	// Macros returns every macro, in name order (duckdb_functions).
	Macros() []*Macro
}
