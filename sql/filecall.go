package sql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/parser"
)

// File table functions — read_csv('x.csv', delim = ';'),
// read_parquet(['a.parquet', 'b.parquet'], hive_partitioning = true) —
// and COPY's option lists take constant arguments (lists, structs, name
// := value), read into a FileCall (callArgs from a call's tokens,
// stmt_copy.go's argValue from COPY's option nodes); the binder hands the
// FileCall to the catalog.

// FileFuncs are the table functions that read files.
var FileFuncs = map[string]bool{
	"read_parquet": true, "parquet_scan": true, "read_b2": true,
	"read_csv": true, "read_csv_auto": true,
	"read_json": true, "read_json_auto": true, "read_ndjson": true, "read_ndjson_auto": true,
}

// ArgKind is the kind of a constant argument value.
type ArgKind uint8

const (
	ArgString ArgKind = iota // 'text'
	ArgNumber                // 12, -1.5
	ArgBool                  // true, false
	ArgNull                  // NULL
	ArgWord                  // a bare word (FORMAT csv, COMPRESSION zstd)
	ArgList                  // [a, b] or (a, b)
	ArgStruct                // {'k': v, …}
	ArgFlag                  // no value (COPY … (HEADER))
)

// ArgValue is a constant argument: Text for scalars (a string's contents,
// a number's or word's text, "true"/"false"), Elems for lists and structs
// (Keys holding a struct's keys).
type ArgValue struct {
	Kind  ArgKind
	Text  string
	Elems []ArgValue
	Keys  []string
	Pos   Pos
}

// FileArg is one name = value argument (Name lower-case).
type FileArg struct {
	Name    string
	Value   ArgValue
	NamePos Pos
}

// Err is an error of the given kind positioned at the option's name, for
// a reader or writer that refuses the option or its value.
func (a FileArg) Err(kind error, msg string) error {
	return &Error{Pos: a.NamePos, Kind: kind, Msg: msg}
}

// FileCall is a file table function with its paths (a string, or a list
// of strings; each may be a glob) and named arguments. Func is "" for
// COPY … FROM, whose format comes from the FORMAT option or the path.
type FileCall struct {
	Func    string
	Paths   []string
	PathPos Pos
	Args    []FileArg
	// Virtual lists the virtual columns of file reads (VirtualColumns)
	// that the query names: the reader adds those its files do not have
	// and reports them through VirtualTable, so that * skips them.
	Virtual []string
}

// VirtualColumns are the columns every file read has by name only, as in
// DuckDB 1.5: filename (the row's file) and file_index (that file's place
// in the list, from 0). A column of the files with the name wins.
var VirtualColumns = []string{"filename", "file_index"}

// VirtualTable is a table some of whose columns are virtual: a query
// reaches them by name, but *, COLUMNS and NATURAL JOIN do not list them.
type VirtualTable interface {
	Virtual(col int) bool
}

// FileOpener is a catalog that opens file table functions with their
// options (internal/catalog implements it). A catalog without it only
// opens calls that have one path and no options, through OpenPath.
type FileOpener interface {
	OpenFiles(call *FileCall) (planner.Table, error)
}

// String is the value as SQL would spell it in a message.
func (v ArgValue) String() string {
	switch v.Kind {
	case ArgString:
		return "'" + strings.ReplaceAll(v.Text, "'", "''") + "'"
	case ArgList:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = e.String()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ArgStruct:
		parts := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			parts[i] = "'" + v.Keys[i] + "': " + e.String()
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case ArgFlag:
		return ""
	}
	return v.Text
}

// argParser reads constant argument values from tokens.
type argParser struct {
	src  Source
	toks []token
	i    int
}

func (p *argParser) at(k int) token {
	if k < len(p.toks) {
		return p.toks[k]
	}
	return token{kind: tkOp, off: len(p.src.Text), end: len(p.src.Text)}
}

func (p *argParser) syntax() error {
	t := p.at(p.i)
	return errAt(p.src, t.off, ErrSyntax, syntaxNear(p.src, t))
}

func (p *argParser) pos(t token) Pos { return posIn(p.src.Text, t.off, Pos{p.src.Line, p.src.Col}) }

// value parses one constant at p.i: a string, a number (perhaps negative),
// TRUE/FALSE/NULL, a bare word, [list], (list) or {struct}.
func (p *argParser) value() (ArgValue, error) {
	t := p.at(p.i)
	v := ArgValue{Pos: p.pos(t)}
	switch {
	case t.kind == tkString:
		v.Kind, v.Text = ArgString, t.val
		p.i++
	case t.kind == tkNumber:
		v.Kind, v.Text = ArgNumber, t.val
		p.i++
	case t.isOp("-") && p.at(p.i+1).kind == tkNumber:
		v.Kind, v.Text = ArgNumber, "-"+p.at(p.i+1).val
		p.i += 2
	case t.is("TRUE") || t.is("FALSE"):
		v.Kind, v.Text = ArgBool, strings.ToLower(t.val)
		p.i++
	case t.is("NULL"):
		v.Kind = ArgNull
		p.i++
	case t.kind == tkIdent || t.kind == tkQIdent:
		v.Kind, v.Text = ArgWord, t.val
		p.i++
	case t.isOp("[") || t.isOp("("):
		closer := "]"
		if t.isOp("(") {
			closer = ")"
		}
		v.Kind = ArgList
		p.i++
		for !p.at(p.i).isOp(closer) {
			if len(v.Elems) > 0 {
				if !p.at(p.i).isOp(",") {
					return v, p.syntax()
				}
				p.i++
				if p.at(p.i).isOp(closer) { // a trailing comma
					break
				}
			}
			e, err := p.value()
			if err != nil {
				return v, err
			}
			v.Elems = append(v.Elems, e)
		}
		p.i++
	case t.isOp("{"):
		v.Kind = ArgStruct
		p.i++
		for !p.at(p.i).isOp("}") {
			if len(v.Elems) > 0 {
				if !p.at(p.i).isOp(",") {
					return v, p.syntax()
				}
				p.i++
			}
			k := p.at(p.i)
			if k.kind != tkString && k.kind != tkIdent && k.kind != tkQIdent || !p.at(p.i+1).isOp(":") {
				return v, p.syntax()
			}
			p.i += 2
			e, err := p.value()
			if err != nil {
				return v, err
			}
			v.Keys, v.Elems = append(v.Keys, k.val), append(v.Elems, e)
		}
		p.i++
	default:
		return v, p.syntax()
	}
	return v, nil
}

// callArgs parses the arguments of fn(…) in toks[open+1 : close]: the
// positional ones first (a path or a list of paths), then name = value,
// name := value or name => value.
func callArgs(src Source, fn string, toks []token, open, close int) (*FileCall, error) {
	p := &argParser{src: src, toks: toks[:close], i: open + 1}
	call := &FileCall{Func: fn, PathPos: p.pos(p.at(p.i))}
	first := true
	for p.i < close {
		if !first {
			if !p.at(p.i).isOp(",") {
				return nil, p.syntax()
			}
			p.i++
		}
		first = false
		name := p.at(p.i)
		if (name.kind == tkIdent || name.kind == tkQIdent) && (p.at(p.i+1).isOp("=") || p.at(p.i+1).isOp(":=") || p.at(p.i+1).isOp("=>")) {
			p.i += 2
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, FileArg{Name: strings.ToLower(name.val), Value: v, NamePos: p.pos(name)})
			continue
		}
		if len(call.Args) > 0 || call.Paths != nil {
			return nil, errAt(src, name.off, ErrSyntax, fmt.Sprintf("%s takes one path (or a list of paths) and then name = value options", fn))
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		paths, err := pathList(src, fn, v, name)
		if err != nil {
			return nil, err
		}
		call.Paths = paths
	}
	if call.Paths == nil {
		return nil, errAt(src, toks[open].off, ErrType, fmt.Sprintf("%s expects a path, a glob or a list of them", fn))
	}
	return call, nil
}

// pathList reads a path argument: a string or a non-empty list of strings.
func pathList(src Source, fn string, v ArgValue, at token) ([]string, error) {
	bad := errAt(src, at.off, ErrType, fmt.Sprintf("%s expects a path, a glob or a list of them, got %s", fn, v))
	switch v.Kind {
	case ArgString:
		return []string{v.Text}, nil
	case ArgList:
		if len(v.Elems) == 0 {
			return nil, bad
		}
		out := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			if e.Kind != ArgString {
				return nil, bad
			}
			out[i] = e.Text
		}
		return out, nil
	}
	return nil, bad
}

// openFileCall opens call through the catalog: with its options when the
// catalog is a FileOpener, else as one plain path.
func (b *binder) openFileCall(call *FileCall) (planner.Table, error) {
	if fo, ok := b.cat.(FileOpener); ok {
		return fo.OpenFiles(call)
	}
	if len(call.Paths) != 1 || len(call.Args) > 0 {
		return nil, fmt.Errorf("%s: this catalog opens one path without options", call.Func)
	}
	return b.cat.OpenPath(call.Func, call.Paths[0])
}

// ParseTypeText parses a type written as text, as read_csv's types and
// columns options give them: 'INTEGER', 'DECIMAL(10,2)', 'DOUBLE PRECISION',
// and nested types through the SQL type grammar: 'INTEGER[]',
// 'STRUCT(a INT, b VARCHAR[])', 'MAP(VARCHAR, INT)'.
func ParseTypeText(s string) (columnar.Type, error) {
	if strings.ContainsAny(s, "[]") || nestedTypeWord(s) {
		tn, err := parser.ParseType(s)
		if err != nil {
			return columnar.Type{}, fmt.Errorf("unknown type %q", s)
		}
		t, ok := astTypeName(tn)
		if !ok {
			return columnar.Type{}, fmt.Errorf("unknown type %q", s)
		}
		return t, nil
	}
	name, params := strings.TrimSpace(s), []int(nil)
	if i := strings.IndexByte(name, '('); i >= 0 {
		if !strings.HasSuffix(name, ")") {
			return columnar.Type{}, fmt.Errorf("unknown type %q", s)
		}
		for _, p := range strings.Split(name[i+1:len(name)-1], ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return columnar.Type{}, fmt.Errorf("type %q: parameters are integers", s)
			}
			params = append(params, n)
		}
		name = name[:i]
	}
	return parseTypeName(strings.Fields(strings.ToUpper(name)), params)
}

// nestedTypeWord reports a type text starting with STRUCT, ROW, MAP or
// UNION, whose parameters are types, not integers.
func nestedTypeWord(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), "(")
	switch strings.ToUpper(strings.TrimSpace(w)) {
	case "STRUCT", "ROW", "MAP", "UNION":
		return true
	}
	return false
}
