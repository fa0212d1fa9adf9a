package ast

// stmtUnsupported prints the statements of stmt_unsupported.go; ok is false
// for others.
func (w *writer) stmtUnsupported(st Stmt) bool {
	switch st := st.(type) {
	case *Merge:
		if st.With != nil {
			w.with(st.With)
		}
		w.s("MERGE INTO ")
		w.name(st.Table)
		if st.Alias != nil {
			w.s(" AS ")
			w.ident(st.Alias)
		}
		w.s(" USING ")
		w.table(st.Source)
		w.s(" ON ")
		w.expr(st.On)
		for _, wh := range st.Whens {
			w.mergeWhen(wh)
		}
		w.returning(st.Returning)
	case *Comment:
		w.s("COMMENT ON ", st.Kind, " ")
		w.name(st.Name)
		w.s(" IS ")
		w.expr(st.Text)
	case *CreateTrigger:
		w.s("CREATE ")
		w.flag(st.Temp, "TEMP ")
		w.s("TRIGGER ")
		w.flag(st.IfNotExists, "IF NOT EXISTS ")
		w.name(st.Name)
		if st.Time != "" {
			w.s(" ", st.Time)
		}
		w.s(" ", st.Event)
		if st.Columns != nil {
			w.s(" OF ")
			for i, c := range st.Columns {
				if i > 0 {
					w.s(", ")
				}
				w.ident(c)
			}
		}
		w.s(" ON ")
		w.name(st.Table)
		w.flag(st.ForEachRow, " FOR EACH ROW")
		if st.When != nil {
			w.s(" WHEN ")
			w.expr(st.When)
		}
		w.s(" BEGIN ")
		for _, b := range st.Body {
			w.stmt(b)
			w.s("; ")
		}
		w.s("END")
	default:
		return false
	}
	return true
}

func (w *writer) mergeWhen(wh *MergeWhen) {
	w.s(" WHEN ")
	w.flag(!wh.Matched, "NOT ")
	w.s("MATCHED")
	if wh.By != "" {
		w.s(" BY ", wh.By)
	}
	if wh.Cond != nil {
		w.s(" AND ")
		w.expr(wh.Cond)
	}
	w.s(" THEN ")
	switch wh.Action {
	case "UPDATE":
		w.s("UPDATE")
		if wh.Star {
			w.s(" SET *")
		} else if wh.Set != nil {
			w.s(" SET ")
			w.assigns(wh.Set)
		}
	case "INSERT":
		w.s("INSERT")
		switch {
		case wh.Star:
			w.s(" *")
		case wh.DefaultValues:
			w.s(" DEFAULT VALUES")
		default:
			if wh.Columns != nil {
				w.s(" ")
				w.idents(wh.Columns)
			}
			if wh.Values != nil {
				w.s(" VALUES (")
				w.exprs(wh.Values)
				w.s(")")
			}
		}
	case "ERROR":
		w.s("ERROR")
		if len(wh.Values) > 0 {
			w.s(" ")
			w.expr(wh.Values[0])
		}
	default: // DELETE, DO NOTHING
		w.s(wh.Action)
	}
}
