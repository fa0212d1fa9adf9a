package engine

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// ArgsByName orders values given by name as the parameters of st take
// them (sql.Params): names[i] is the name vals[i] was given for ($a's
// value is named "a"; $1's may be named "1"). used[i] reports whether
// vals[i] went to st (a script passes the same values to each of its
// statements). Values given without names are returned as they are;
// with names, every value must have one, and every parameter of st a
// value.
func ArgsByName(st sql.Statement, vals []columnar.Value, names []string) (out []columnar.Value, used []bool, err error) {
	named := 0
	for _, n := range names {
		if n != "" {
			named++
		}
	}
	if err := sql.ParamMarkersErr(st); err != nil {
		return nil, nil, err
	}
	ps := sql.Params(st)
	if named == 0 {
		if len(ps) > 0 && len(vals) > 0 && !isNumber(ps[0].Name) {
			return nil, nil, &sql.Error{Pos: ps[0].Pos, Kind: sql.ErrParam,
				Msg: fmt.Sprintf("no value for parameter $%s: a named parameter takes its value by name", ps[0].Name)}
		}
		return vals, nil, nil
	}
	if named < len(vals) {
		return nil, nil, &sql.Error{Kind: sql.ErrParam, Msg: "arguments cannot be both named and positional"}
	}
	used = make([]bool, len(vals))
	for _, p := range ps {
		k := -1
		for i, n := range names {
			if strings.EqualFold(strings.TrimPrefix(n, "$"), p.Name) {
				k = i
			}
		}
		if k < 0 {
			return nil, nil, &sql.Error{Pos: p.Pos, Kind: sql.ErrParam, Msg: fmt.Sprintf("no value for parameter $%s", p.Name)}
		}
		used[k] = true
		out = append(out, vals[k])
	}
	return out, used, nil
}

// UnusedArg reports the first value given by name that no statement took.
func UnusedArg(names []string, used []bool) error {
	for i, u := range used {
		if !u {
			return &sql.Error{Kind: sql.ErrParam, Msg: fmt.Sprintf("no parameter $%s in the statement", strings.TrimPrefix(names[i], "$"))}
		}
	}
	return nil
}

func isNumber(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
