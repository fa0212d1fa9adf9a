package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/csv"
	"github.com/b2sql/b2sql/formats/json"
	"github.com/b2sql/b2sql/sql"
)

// Options of read_csv and read_json as the formats take them: scalars as
// text (csv.Named, json.Named), lists and structs (columns, types, names,
// nullstr lists) set on the Options directly. Every error is positioned
// at its option's name.

// scalarText is a scalar option's value as the formats read it; ok is
// false for a list or struct.
func scalarText(v sql.ArgValue) (string, bool) {
	switch v.Kind {
	case sql.ArgList, sql.ArgStruct:
		return "", false
	case sql.ArgNull:
		return "", true
	}
	return v.Text, true
}

// optionError positions a format's option error at the option.
func optionError(a sql.FileArg, err error) error {
	msg := err.Error()
	for _, p := range []string{"csv: ", "json: ", "invalid option: ", "option: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	kind := sql.ErrType
	if errors.Is(err, csv.ErrUnsupported) || errors.Is(err, json.ErrUnsupported) {
		kind = sql.ErrUnsupported
	}
	return a.Err(kind, msg)
}

// typeOf reads a type name value ('INTEGER', 'DECIMAL(10,2)').
func typeOf(a sql.FileArg, v sql.ArgValue) (columnar.Type, error) {
	if v.Kind != sql.ArgString && v.Kind != sql.ArgWord {
		return columnar.Type{}, a.Err(sql.ErrType, fmt.Sprintf("%s: expected a type name, got %s", a.Name, v))
	}
	t, err := sql.ParseTypeText(v.Text)
	if err != nil {
		return t, a.Err(sql.ErrType, fmt.Sprintf("%s: %v", a.Name, err))
	}
	return t, nil
}

// columnsOf reads columns = {'name': 'TYPE', …}.
func columnsOf(a sql.FileArg) ([]csv.Column, error) {
	if a.Value.Kind != sql.ArgStruct || len(a.Value.Elems) == 0 {
		return nil, a.Err(sql.ErrType, fmt.Sprintf("%s expects a struct of column names and types, {'a': 'INTEGER', …}", a.Name))
	}
	var out []csv.Column
	for i, e := range a.Value.Elems {
		t, err := typeOf(a, e)
		if err != nil {
			return nil, err
		}
		out = append(out, csv.Column{Name: a.Value.Keys[i], Type: t})
	}
	return out, nil
}

// stringsOf reads a list of strings (or one string).
func stringsOf(a sql.FileArg) ([]string, error) {
	v := a.Value
	if v.Kind == sql.ArgString {
		return []string{v.Text}, nil
	}
	if v.Kind != sql.ArgList {
		return nil, a.Err(sql.ErrType, fmt.Sprintf("%s expects a list of strings, got %s", a.Name, v))
	}
	out := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		if e.Kind != sql.ArgString {
			return nil, a.Err(sql.ErrType, fmt.Sprintf("%s expects a list of strings, got %s", a.Name, v))
		}
		out[i] = e.Text
	}
	return out, nil
}

// csvOptions turns read_csv's (and COPY FROM's) arguments into Options.
func csvOptions(args []sql.FileArg) (csv.Options, error) {
	var named []csv.Named
	var o csv.Options
	var columns []csv.Column
	var types map[string]columnar.Type
	var typesByPos []columnar.Type
	var names []string
	for _, a := range args {
		switch a.Name {
		case "columns":
			cols, err := columnsOf(a)
			if err != nil {
				return o, err
			}
			columns = cols
			continue
		case "types", "dtypes", "column_types":
			switch a.Value.Kind {
			case sql.ArgStruct:
				types = map[string]columnar.Type{}
				for i, e := range a.Value.Elems {
					t, err := typeOf(a, e)
					if err != nil {
						return o, err
					}
					types[a.Value.Keys[i]] = t
				}
			case sql.ArgList:
				typesByPos = nil
				for _, e := range a.Value.Elems {
					t, err := typeOf(a, e)
					if err != nil {
						return o, err
					}
					typesByPos = append(typesByPos, t)
				}
			default:
				return o, a.Err(sql.ErrType, fmt.Sprintf("%s expects a struct {'col': 'TYPE'} or a list of types", a.Name))
			}
			continue
		case "names", "column_names", "col_names":
			n, err := stringsOf(a)
			if err != nil {
				return o, err
			}
			names = n
			continue
		case "nullstr", "null":
			if a.Value.Kind == sql.ArgList {
				ss, err := stringsOf(a)
				if err != nil {
					return o, err
				}
				for _, s := range ss {
					named = append(named, csv.Named{Name: a.Name, Value: s})
				}
				continue
			}
		}
		text, ok := scalarText(a.Value)
		if !ok {
			return o, a.Err(sql.ErrType, fmt.Sprintf("%s expects a single value, got %s", a.Name, a.Value))
		}
		n := csv.Named{Name: a.Name, Value: text}
		if _, err := csv.ReadOptions([]csv.Named{n}); err != nil {
			return o, optionError(a, err)
		}
		named = append(named, n)
	}
	o, err := csv.ReadOptions(named)
	if err != nil {
		return o, err
	}
	o.Columns, o.Types, o.Names = columns, types, names
	if typesByPos != nil {
		o.TypesByPos = typesByPos
	}
	return o, nil
}

// jsonOptions turns read_json's arguments into Options.
func jsonOptions(fn string, args []sql.FileArg) (json.Options, error) {
	var named []json.Named
	var columns []json.Column
	for _, a := range args {
		if a.Name == "columns" {
			cols, err := columnsOf(a)
			if err != nil {
				return json.Options{}, err
			}
			for _, c := range cols {
				columns = append(columns, json.Column{Name: c.Name, Type: c.Type})
			}
			continue
		}
		text, ok := scalarText(a.Value)
		if !ok {
			return json.Options{}, a.Err(sql.ErrType, fmt.Sprintf("%s expects a single value, got %s", a.Name, a.Value))
		}
		n := json.Named{Name: a.Name, Value: text}
		if _, err := json.ReadOptions(fn, []json.Named{n}); err != nil {
			if a.Name == "auto_detect" && columns != nil || a.Name == "auto_detect" && hasArg(args, "columns") {
				continue // auto_detect = false with columns is what columns means
			}
			return json.Options{}, optionError(a, err)
		}
		named = append(named, n)
	}
	o, err := json.ReadOptions(fn, named)
	if err != nil {
		return o, err
	}
	o.Columns = columns
	return o, nil
}

func hasArg(args []sql.FileArg, name string) bool {
	for _, a := range args {
		if a.Name == name {
			return true
		}
	}
	return false
}
