package ast

import "strings"

func (w *writer) returning(items []*SelectItem) {
	if items != nil {
		w.s(" RETURNING ")
		w.items(items)
	}
}

func (w *writer) options(opts []*Option) {
	w.s("(")
	for i, o := range opts {
		if i > 0 {
			w.s(", ")
		}
		w.ident(o.Name)
		if o.Value != nil {
			w.s(" ")
			w.expr(o.Value)
		}
	}
	w.s(")")
}

func (w *writer) assigns(as []*Assign) {
	for i, a := range as {
		if i > 0 {
			w.s(", ")
		}
		w.name(a.Column)
		w.s(" = ")
		w.expr(a.Value)
	}
}

func (w *writer) flag(b bool, s string) {
	if b {
		w.s(s)
	}
}

func (w *writer) stmt(st Stmt) {
	switch st := st.(type) {
	case *Query:
		w.query(st)
	case *Insert:
		if st.With != nil {
			w.with(st.With)
		}
		w.s("INSERT ")
		if st.Or != "" {
			w.s("OR ", st.Or, " ")
		}
		w.s("INTO ")
		w.name(st.Table)
		if st.Alias != nil {
			w.s(" AS ")
			w.ident(st.Alias)
		}
		w.flag(st.ByName, " BY NAME")
		w.flag(st.ByPosition, " BY POSITION")
		if st.Columns != nil {
			w.s(" ")
			w.idents(st.Columns)
		}
		if st.DefaultValues {
			w.s(" DEFAULT VALUES")
		} else {
			w.s(" ")
			w.query(st.Query)
		}
		if oc := st.OnConflict; oc != nil {
			w.s(" ON CONFLICT")
			if oc.Columns != nil {
				w.s(" ")
				w.idents(oc.Columns)
				if oc.TargetWhere != nil {
					w.s(" WHERE ")
					w.expr(oc.TargetWhere)
				}
			}
			if oc.DoNothing {
				w.s(" DO NOTHING")
			} else {
				w.s(" DO UPDATE SET ")
				w.assigns(oc.Set)
				if oc.Where != nil {
					w.s(" WHERE ")
					w.expr(oc.Where)
				}
			}
		}
		w.returning(st.Returning)
		if st.Options != nil {
			w.s(" WITH ")
			w.options(st.Options)
		}
	case *Update:
		if st.With != nil {
			w.with(st.With)
		}
		w.s("UPDATE ")
		w.name(st.Table)
		if st.Alias != nil {
			w.s(" AS ")
			w.ident(st.Alias)
		}
		w.s(" SET ")
		w.assigns(st.Set)
		if st.From != nil {
			w.s(" FROM ")
			w.tables(st.From)
		}
		if st.Where != nil {
			w.s(" WHERE ")
			w.expr(st.Where)
		}
		w.returning(st.Returning)
	case *Delete:
		if st.With != nil {
			w.with(st.With)
		}
		w.s("DELETE FROM ")
		w.name(st.Table)
		if st.Alias != nil {
			w.s(" AS ")
			w.ident(st.Alias)
		}
		if st.Using != nil {
			w.s(" USING ")
			w.tables(st.Using)
		}
		if st.Where != nil {
			w.s(" WHERE ")
			w.expr(st.Where)
		}
		w.returning(st.Returning)
	case *Truncate:
		w.s("TRUNCATE ")
		w.name(st.Table)
	case *CreateTable:
		w.create(st.OrReplace, st.Temp, "TABLE", st.IfNotExists, st.Name)
		if st.AsColumns != nil {
			w.s(" ")
			w.idents(st.AsColumns)
		}
		if st.Columns != nil || st.Constraints != nil {
			w.s(" (")
			for i, c := range st.Columns {
				if i > 0 {
					w.s(", ")
				}
				w.columnDef(c)
			}
			for i, c := range st.Constraints {
				if i > 0 || st.Columns != nil {
					w.s(", ")
				}
				w.constraint(c)
			}
			w.s(")")
		}
		if st.Options != nil {
			w.s(" WITH ")
			w.options(st.Options)
		}
		if st.As != nil {
			w.s(" AS ")
			w.query(st.As)
			w.flag(st.WithNoData, " WITH NO DATA")
		}
	case *CreateView:
		kind := "VIEW"
		if st.Recursive {
			kind = "RECURSIVE VIEW"
		}
		w.create(st.OrReplace, st.Temp, kind, st.IfNotExists, st.Name)
		if st.Columns != nil {
			w.s(" ")
			w.idents(st.Columns)
		}
		w.s(" AS ")
		w.query(st.Query)
	case *CreateSequence:
		w.create(st.OrReplace, st.Temp, "SEQUENCE", st.IfNotExists, st.Name)
		for _, o := range st.Options {
			w.s(" ", o.Name.Name)
			if u, ok := o.Value.(*Unary); ok {
				w.s(" ", u.Op)
				w.expr(u.X)
			} else if o.Value != nil {
				w.s(" ")
				w.expr(o.Value)
			}
		}
	case *CreateSchema:
		w.create(st.OrReplace, false, "SCHEMA", st.IfNotExists, st.Name)
	case *CreateIndex:
		w.s("CREATE ")
		w.flag(st.Unique, "UNIQUE ")
		w.s("INDEX ")
		w.flag(st.IfNotExists, "IF NOT EXISTS ")
		if st.Name != nil {
			w.ident(st.Name)
			w.s(" ")
		}
		w.s("ON ")
		w.name(st.Table)
		if st.Using != nil {
			w.s(" USING ")
			w.ident(st.Using)
		}
		w.s(" (")
		w.orderItems(st.Keys)
		w.s(")")
		if st.Options != nil {
			w.s(" WITH ")
			w.options(st.Options)
		}
	case *CreateMacro:
		w.create(st.OrReplace, st.Temp, "MACRO", st.IfNotExists, st.Name)
		for i, d := range st.Overloads {
			if i > 0 {
				w.s(", ")
			}
			w.macroDef(d)
		}
	case *CreateType:
		w.s("CREATE TYPE ")
		w.name(st.Name)
		w.s(" AS ")
		w.typ(st.Type)
	case *Drop:
		w.s("DROP ", st.Kind, " ")
		w.flag(st.IfExists, "IF EXISTS ")
		if st.On != nil {
			w.s("ON ")
			w.name(st.On)
			w.s(" ")
			w.idents(st.Columns)
		}
		for i, n := range st.Names {
			if i > 0 {
				w.s(", ")
			}
			w.name(n)
		}
		w.flag(st.Cascade, " CASCADE")
		w.flag(st.Restrict, " RESTRICT")
	case *Alter:
		w.s("ALTER ", st.Kind, " ")
		w.flag(st.IfExists, "IF EXISTS ")
		w.name(st.Name)
		w.alterAction(st.Action)
	case *Copy:
		w.s("COPY ")
		if st.Database != nil {
			w.s("FROM DATABASE ")
			w.name(st.Database)
			w.s(" TO ")
			w.name(st.Table)
		} else {
			if st.Query != nil {
				w.s("(")
				w.query(st.Query)
				w.s(")")
			} else {
				w.name(st.Table)
				if st.Columns != nil {
					w.s(" ")
					w.idents(st.Columns)
				}
			}
			if st.From {
				w.s(" FROM ")
			} else {
				w.s(" TO ")
			}
			w.operand(st.Target)
		}
		if st.Options != nil {
			w.s(" ")
			w.options(st.Options)
		}
	case *Explain:
		w.s("EXPLAIN ")
		w.flag(st.Analyze, "ANALYZE ")
		if st.Options != nil {
			w.options(st.Options)
			w.s(" ")
		}
		w.stmt(st.Stmt)
	case *Set:
		w.s("SET ")
		if st.Scope != "" {
			w.s(st.Scope, " ")
		}
		w.name(st.Name)
		w.s(" = ")
		if st.Default {
			w.s("DEFAULT")
		} else {
			w.exprs(st.Values)
		}
	case *Reset:
		w.s("RESET ")
		if st.Scope != "" {
			w.s(st.Scope, " ")
		}
		if st.Name == nil {
			w.s("ALL")
		} else {
			w.name(st.Name)
		}
	case *Show:
		w.s("SHOW ", st.What)
		if st.From != nil {
			w.s(" FROM ")
			w.name(st.From)
		}
	case *Describe:
		if st.Summarize {
			w.s("SUMMARIZE ")
		} else {
			w.s("DESCRIBE ")
		}
		switch {
		case st.Query != nil:
			w.query(st.Query)
		case st.Func != nil:
			w.call(st.Func)
		case st.Table != nil:
			w.s("TABLE ")
			w.name(st.Table)
		default:
			w.s(QuoteString(st.Path))
		}
	case *Attach:
		w.s("ATTACH ")
		w.flag(st.OrReplace, "OR REPLACE ")
		w.s("DATABASE ")
		w.flag(st.IfNotExists, "IF NOT EXISTS ")
		w.operand(st.Path)
		if st.Alias != nil {
			w.s(" AS ")
			w.ident(st.Alias)
		}
		if st.Options != nil {
			w.s(" ")
			w.options(st.Options)
		}
	case *Detach:
		w.s("DETACH DATABASE ")
		w.flag(st.IfExists, "IF EXISTS ")
		w.ident(st.Name)
	case *Use:
		w.s("USE ")
		w.name(st.Name)
	case *Pragma:
		w.s("PRAGMA ")
		w.name(st.Name)
		if st.Call {
			w.s("(")
			w.exprs(st.Args)
			w.s(")")
		}
		if st.Value != nil {
			w.s(" = ")
			w.expr(st.Value)
		}
	case *Reindex:
		w.s("REINDEX")
		if st.Target != nil {
			w.s(" ")
			w.name(st.Target)
			if st.Column != nil {
				w.s(" (")
				w.ident(st.Column)
				w.s(")")
			}
		}
	case *Prepare:
		w.s("PREPARE ")
		w.ident(st.Name)
		w.s(" AS ")
		w.stmt(st.Stmt)
	case *Execute:
		w.s("EXECUTE ")
		w.ident(st.Name)
		if st.Args != nil {
			w.s("(")
			w.exprs(st.Args)
			w.s(")")
		}
	case *Deallocate:
		w.s("DEALLOCATE ")
		if st.Name == nil {
			w.s("ALL")
		} else {
			w.ident(st.Name)
		}
	case *Transaction:
		w.s(st.Kind)
		if st.ReadOnly {
			w.s(" TRANSACTION READ ONLY")
		}
	case *Simple:
		w.s(st.Kind)
		switch {
		case st.Func != nil:
			w.s(" ")
			w.call(st.Func)
		case strings.HasPrefix(st.Kind, "EXPORT") || strings.HasPrefix(st.Kind, "IMPORT"):
			w.s(" DATABASE ")
			if st.Name != nil {
				w.name(st.Name)
				w.s(" TO ")
			}
			w.expr(st.Arg)
			if st.Options != nil {
				w.s(" ")
				w.options(st.Options)
			}
		default:
			if st.Name != nil {
				w.s(" ")
				if len(st.Name) == 1 && st.Name[0].Quoted && (strings.HasSuffix(st.Kind, "INSTALL") || st.Kind == "LOAD") {
					w.s(QuoteString(st.Name[0].Name))
				} else {
					w.name(st.Name)
				}
			}
			if st.Arg != nil {
				w.s(" FROM ")
				w.expr(st.Arg)
			}
		}
	default:
		if !w.stmtUnsupported(st) {
			w.s("<?>")
		}
	}
}

// operand prints a literal or parameter as is and anything else in
// parentheses, so that what follows cannot extend it.
func (w *writer) operand(e Expr) {
	switch e.(type) {
	case *Literal, *Param:
		w.expr(e)
	default:
		w.s("(")
		w.expr(e)
		w.s(")")
	}
}

func (w *writer) create(orReplace, temp bool, kind string, ifNotExists bool, name Name) {
	w.s("CREATE ")
	w.flag(orReplace, "OR REPLACE ")
	w.flag(temp, "TEMP ")
	w.s(kind, " ")
	w.flag(ifNotExists, "IF NOT EXISTS ")
	w.name(name)
}

func (w *writer) columnDef(c *ColumnDef) {
	w.ident(c.Name)
	if c.Type != nil {
		w.s(" ")
		w.typ(c.Type)
	}
	for _, k := range c.Constraints {
		w.s(" ")
		w.constraint(k)
	}
}

func (w *writer) constraint(c *Constraint) {
	if c.Name != nil {
		w.s("CONSTRAINT ")
		w.ident(c.Name)
		w.s(" ")
	}
	switch c.Kind {
	case "CHECK":
		w.s("CHECK (")
		w.expr(c.Expr)
		w.s(")")
	case "DEFAULT":
		w.s("DEFAULT ")
		w.expr(c.Expr)
	case "REFERENCES", "FOREIGN KEY":
		if c.Kind == "FOREIGN KEY" {
			w.s("FOREIGN KEY ")
			w.idents(c.Columns)
			w.s(" ")
		}
		w.s("REFERENCES ")
		w.name(c.RefTable)
		if c.RefColumns != nil {
			w.s(" ")
			w.idents(c.RefColumns)
		}
	case "COLLATE", "USING":
		w.s(c.Kind, " ", c.Value)
	case "GENERATED":
		w.s("GENERATED ALWAYS AS (")
		w.expr(c.Expr)
		w.s(")")
		if c.Value != "" {
			w.s(" ", c.Value)
		}
	default:
		w.s(c.Kind)
		if c.Columns != nil {
			w.s(" ")
			w.idents(c.Columns)
		}
	}
}

func (w *writer) alterAction(a *AlterAction) {
	w.s(" ")
	switch a.Kind {
	case "ADD CONSTRAINT":
		w.s("ADD ")
		w.constraint(a.Constraint)
	case "ADD COLUMN":
		w.s("ADD COLUMN ")
		w.flag(a.IfNotExists, "IF NOT EXISTS ")
		w.columnDef(a.Column)
	case "DROP COLUMN":
		w.s("DROP COLUMN ")
		w.flag(a.IfExists, "IF EXISTS ")
		w.ident(a.Target)
		w.flag(a.Cascade, " CASCADE")
	case "RENAME":
		w.s("RENAME TO ")
		w.ident(a.To)
	case "RENAME COLUMN":
		w.s("RENAME COLUMN ")
		w.ident(a.Target)
		w.s(" TO ")
		w.ident(a.To)
	default:
		w.s("ALTER COLUMN ")
		w.ident(a.Target)
		switch a.Kind {
		case "ALTER TYPE":
			w.s(" TYPE ")
			w.typ(a.Type)
			if a.Using != nil {
				w.s(" USING ")
				w.expr(a.Using)
			}
		case "SET DEFAULT":
			w.s(" SET DEFAULT ")
			w.expr(a.Using)
		default:
			w.s(" ", a.Kind)
		}
	}
}

// macroDef writes one overload of CREATE MACRO: (params) AS body.
func (w *writer) macroDef(d *MacroDef) {
	w.s("(")
	for i, p := range d.Params {
		if i > 0 {
			w.s(", ")
		}
		w.ident(p.Name)
		if p.Type != nil {
			w.s(" ")
			w.typ(p.Type)
		}
		if p.Default != nil {
			w.s(" := ")
			w.expr(p.Default)
		}
	}
	w.s(") AS ")
	if d.Table != nil {
		w.s("TABLE ")
		w.query(d.Table)
	} else {
		w.expr(d.Body)
	}
}
