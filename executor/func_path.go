package executor

import (
	"runtime"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// DuckDB's path functions: the parts of a file path split at its
// separators. The separator argument names them: 'both_slash' (the
// default, / and \), 'forward_slash', 'backslash' or 'system' (the
// operating system's); any other value, NULL included, is the default.
func init() {
	s := param{"path", function.Varchar}
	sep := param{"separator", function.Varchar}
	strict := func(o function.Overload, f rowFunc) function.Overload {
		o.Kernel, o.SeesNulls = rowsNulls(f), true // a NULL separator is the default
		return o
	}
	v := columnar.TVarchar
	function.Register(
		scalar("string", "parse_path", "The parts of the path: a leading separator is a part, empty parts are dropped", ex("parse_path('/a/b/c.csv')"),
			strict(over(columnar.ListOf(v), nil, s), fnParsePath), strict(over(columnar.ListOf(v), nil, s, sep), fnParsePath)),
		scalar("string", "parse_dirname", "The top-level directory of the path ('' for a file name alone)", ex("parse_dirname('a/b/c.csv')"),
			strict(over(v, nil, s), fnParseDirname), strict(over(v, nil, s, sep), fnParseDirname)),
		scalar("string", "parse_dirpath", "The path up to its last separator ('' for a file name alone)", ex("parse_dirpath('a/b/c.csv')"),
			strict(over(v, nil, s), fnParseDirpath), strict(over(v, nil, s, sep), fnParseDirpath)),
		scalar("string", "parse_filename", "The part after the path's last separator, without its extension when trim_extension is true", ex("parse_filename('a/b/c.csv', true)"),
			strict(over(v, nil, s), fnParseFilename), strict(over(v, nil, s, param{"trim_extension_or_separator", function.Any}), fnParseFilename),
			strict(over(v, nil, s, param{"trim_extension", function.Any}, sep), fnParseFilename)),
	)
}

// pathSeparators are the separator characters a separator argument names.
func pathSeparators(a []columnar.Value, i int) string {
	if i < len(a) && !a[i].Null {
		switch strings.ToLower(a[i].S) {
		case "forward_slash":
			return "/"
		case "backslash":
			return `\`
		case "system":
			if runtime.GOOS == "windows" {
				return `\`
			}
			return "/"
		}
	}
	return `/\`
}

func fnParsePath(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	p, seps := a[0].S, pathSeparators(a, 1)
	var parts []string
	if p != "" && strings.ContainsRune(seps, rune(p[0])) {
		parts = append(parts, p[:1])
	}
	for _, f := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		parts = append(parts, f)
	}
	return stringList(t, parts), nil
}

func fnParseDirname(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return parseDir(a, t, false)
}

func fnParseDirpath(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return parseDir(a, t, true)
}

// parseDir is parse_dirname (the path before its first separator) and,
// with whole, parse_dirpath (before its last one); empty for a file name
// alone. A path that starts at the root has the root as its dirname, and
// a root alone is its own dirpath.
func parseDir(a []columnar.Value, t columnar.Type, whole bool) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	p, seps := a[0].S, pathSeparators(a, 1)
	i := strings.IndexAny(p, seps)
	if whole {
		i = strings.LastIndexAny(p, seps)
	}
	switch {
	case i < 0:
		return columnar.StringValue(""), nil
	case i == 0 && (!whole || len(p) == 1):
		return columnar.StringValue(p[:1]), nil // the root
	}
	return columnar.StringValue(p[:i]), nil
}

// fnParseFilename: parse_filename(path [, trim_extension | separator]
// [, separator]). With two arguments a BOOLEAN is trim_extension and a
// string the separator; with three the second is read as a BOOLEAN.
func fnParseFilename(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if a[0].Null {
		return columnar.NullValue(t), nil
	}
	trim, sepArg := false, 1
	if len(a) == 3 || len(a) == 2 && a[1].Type.ID == columnar.Bool {
		sepArg = 2
		if !a[1].Null {
			b, err := CastValue(a[1], columnar.TBool)
			if err != nil {
				return columnar.Value{}, errorf("parse_filename: %v", err)
			}
			trim = b.Bool()
		}
	}
	p := a[0].S
	name := p[strings.LastIndexAny(p, pathSeparators(a, sepArg))+1:]
	if trim {
		if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
			name = name[:dot]
		}
	}
	return columnar.StringValue(name), nil
}
