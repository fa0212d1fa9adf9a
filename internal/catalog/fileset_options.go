package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/internal/catalog/fileset"
	"github.com/b2sql/b2sql/sql"
)

// The options of every file table function that are about the set of
// files rather than one file's format: filename, union_by_name,
// hive_partitioning, hive_types, hive_types_autocast (DuckDB's names).

// setOptions takes the many-file options out of args, returning the rest
// for the format.
func setOptions(args []sql.FileArg) (fileset.Options, []sql.FileArg, error) {
	var o fileset.Options
	var rest []sql.FileArg
	for _, a := range args {
		switch a.Name {
		case "filename":
			if a.Value.Kind == sql.ArgString {
				if a.Value.Text == "" {
					return o, nil, a.Err(sql.ErrType, "filename: the column name is empty")
				}
				o.Filename = a.Value.Text
				continue
			}
			on, err := BoolOption(a)
			if err != nil {
				return o, nil, err
			}
			o.Filename = ""
			if on {
				o.Filename = "filename"
			}
		case "union_by_name":
			on, err := BoolOption(a)
			if err != nil {
				return o, nil, err
			}
			o.UnionByName = on
		case "hive_partitioning":
			on, err := BoolOption(a)
			if err != nil {
				return o, nil, err
			}
			o.Hive = fileset.HiveOff
			if on {
				o.Hive = fileset.HiveOn
			}
		case "hive_types_autocast":
			on, err := BoolOption(a)
			if err != nil {
				return o, nil, err
			}
			o.NoHiveAutocast = !on
		case "hive_types":
			if a.Value.Kind != sql.ArgStruct {
				return o, nil, a.Err(sql.ErrType, fmt.Sprintf("hive_types expects a struct of partition names and types, {'year': 'INTEGER', …}, got %s", a.Value))
			}
			o.HiveTypes = map[string]columnar.Type{}
			for i, e := range a.Value.Elems {
				t, err := typeOf(a, e)
				if err != nil {
					return o, nil, err
				}
				o.HiveTypes[a.Value.Keys[i]] = t
			}
		default:
			rest = append(rest, a)
		}
	}
	if len(o.HiveTypes) > 0 && o.Hive == fileset.HiveAuto {
		o.Hive = fileset.HiveOn // naming partition types asks for partitions
	}
	return o, rest, nil
}

// BoolOption reads a boolean option: true/false, 1/0, 'true'/'false', or
// the bare name (COPY's flag form); an error is positioned at its name.
func BoolOption(a sql.FileArg) (bool, error) {
	switch a.Value.Kind {
	case sql.ArgFlag:
		return true, nil
	case sql.ArgBool, sql.ArgString, sql.ArgWord, sql.ArgNumber:
		switch strings.ToLower(a.Value.Text) {
		case "true", "1", "on", "t", "yes":
			return true, nil
		case "false", "0", "off", "f", "no":
			return false, nil
		}
	}
	return false, a.Err(sql.ErrType, fmt.Sprintf("%s expects a boolean, got %s", a.Name, a.Value))
}
