package b2

import (
	"fmt"
	"strconv"
	"strings"
)

// DType describes a NumPy dtype as stored in the b2nd metalayer.
type DType struct {
	// Kind is NumPy's kind character: 'b' bool, 'i' signed, 'u' unsigned,
	// 'f' float, 'c' complex, 'S' bytes, 'U' UCS-4 string, 'M' datetime64,
	// 'm' timedelta64, 'V' structured/void.
	Kind     byte
	ItemSize int  // bytes per item
	Order    byte // '<' little, '>' big, '|' not applicable
	Unit     string
	Fields   []Field // structured dtypes only, in storage order
	Str      string  // the string this was parsed from
}

// Field is one member of a structured dtype.
type Field struct {
	Name   string
	Offset int   // byte offset inside the item
	Type   DType // element type
	Shape  []int // sub-array shape, nil for scalars
	Size   int   // Type.ItemSize × prod(Shape)
}

// BigEndian reports whether multi-byte values are stored big-endian.
func (t DType) BigEndian() bool { return t.Order == '>' }

func (t DType) String() string { return t.Str }

// ParseDType parses a NumPy dtype string: `dtype.str` for plain dtypes
// (`<f8`, `|b1`, `<U4`, `|S6`, `<M8[us]`) or the `str(dtype)` Python list
// literal written for structured dtypes (`[('min', '<i8'), ('flags', 'u1')]`).
func ParseDType(s string) (DType, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") {
		t, err := parseStructDType(s)
		if err != nil {
			return DType{}, corruptf("dtype %q: %v", s, err)
		}
		return t, nil
	}
	t, err := parseSimpleDType(s)
	if err != nil {
		return DType{}, corruptf("dtype %q: %v", s, err)
	}
	return t, nil
}

func parseSimpleDType(s string) (DType, error) {
	t := DType{Str: s, Order: '|'}
	if s == "" {
		return t, fmt.Errorf("empty")
	}
	switch s[0] {
	case '<', '>', '|', '=':
		t.Order = s[0]
		if t.Order == '=' {
			t.Order = '<'
		}
		s = s[1:]
	}
	if s == "?" || s == "b1" {
		t.Kind, t.ItemSize = 'b', 1
		return t, nil
	}
	if s == "" {
		return t, fmt.Errorf("missing kind")
	}
	t.Kind = s[0]
	rest := s[1:]
	if t.Kind == 'M' || t.Kind == 'm' {
		if i := strings.IndexByte(rest, '['); i >= 0 && strings.HasSuffix(rest, "]") {
			t.Unit = rest[i+1 : len(rest)-1]
			rest = rest[:i]
		}
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n > 1<<30 {
		return t, fmt.Errorf("bad size %q", rest)
	}
	switch t.Kind {
	case 'b':
		if n != 1 {
			return t, fmt.Errorf("bool of size %d", n)
		}
		t.ItemSize = 1
	case 'i', 'u':
		if n != 1 && n != 2 && n != 4 && n != 8 {
			return t, fmt.Errorf("integer of size %d", n)
		}
		t.ItemSize = n
	case 'f':
		if n != 2 && n != 4 && n != 8 && n != 16 {
			return t, fmt.Errorf("float of size %d", n)
		}
		t.ItemSize = n
	case 'c':
		if n != 8 && n != 16 && n != 32 {
			return t, fmt.Errorf("complex of size %d", n)
		}
		t.ItemSize = n
	case 'M', 'm':
		if n != 8 {
			return t, fmt.Errorf("datetime of size %d", n)
		}
		t.ItemSize = 8
	case 'S', 'V':
		t.ItemSize = n
	case 'U':
		if n > 1<<28 {
			return t, fmt.Errorf("string of %d code points", n)
		}
		t.ItemSize = 4 * n
	default:
		return t, fmt.Errorf("unknown kind %q", t.Kind)
	}
	if t.ItemSize == 1 || t.Kind == 'S' || t.Kind == 'V' || t.Kind == 'b' {
		t.Order = '|'
	}
	return t, nil
}

// structParser is a tiny recursive-descent parser for the Python literal
// NumPy prints for structured dtypes: a list of (name, type[, shape]).
type structParser struct {
	s string
	p int
}

func (sp *structParser) ws() {
	for sp.p < len(sp.s) && (sp.s[sp.p] == ' ' || sp.s[sp.p] == '\t' || sp.s[sp.p] == '\n') {
		sp.p++
	}
}

func (sp *structParser) eat(c byte) bool {
	sp.ws()
	if sp.p < len(sp.s) && sp.s[sp.p] == c {
		sp.p++
		return true
	}
	return false
}

func (sp *structParser) str() (string, error) {
	sp.ws()
	if sp.p >= len(sp.s) || (sp.s[sp.p] != '\'' && sp.s[sp.p] != '"') {
		return "", fmt.Errorf("expected a quoted string at %d", sp.p)
	}
	q := sp.s[sp.p]
	sp.p++
	var b strings.Builder
	for sp.p < len(sp.s) && sp.s[sp.p] != q {
		if sp.s[sp.p] == '\\' && sp.p+1 < len(sp.s) {
			sp.p++
		}
		b.WriteByte(sp.s[sp.p])
		sp.p++
	}
	if sp.p >= len(sp.s) {
		return "", fmt.Errorf("unterminated string")
	}
	sp.p++
	return b.String(), nil
}

func (sp *structParser) int() (int, error) {
	sp.ws()
	st := sp.p
	for sp.p < len(sp.s) && sp.s[sp.p] >= '0' && sp.s[sp.p] <= '9' {
		sp.p++
	}
	n, err := strconv.Atoi(sp.s[st:sp.p])
	if err != nil || n > 1<<30 {
		return 0, fmt.Errorf("expected an integer at %d", st)
	}
	return n, nil
}

// list parses `[ (name, type[, shape]) , … ]`; nested structured field
// types are themselves lists.
func (sp *structParser) list(depth int) (DType, error) {
	if depth > 8 {
		return DType{}, fmt.Errorf("nesting too deep")
	}
	t := DType{Kind: 'V', Order: '|'}
	if !sp.eat('[') {
		return t, fmt.Errorf("expected '[' at %d", sp.p)
	}
	off := 0
	for !sp.eat(']') {
		if len(t.Fields) > 0 && !sp.eat(',') {
			return t, fmt.Errorf("expected ',' at %d", sp.p)
		}
		if !sp.eat('(') {
			return t, fmt.Errorf("expected '(' at %d", sp.p)
		}
		name, err := sp.str()
		if err != nil {
			return t, err
		}
		if !sp.eat(',') {
			return t, fmt.Errorf("expected ',' at %d", sp.p)
		}
		var ft DType
		sp.ws()
		if sp.p < len(sp.s) && sp.s[sp.p] == '[' {
			ft, err = sp.list(depth + 1)
		} else {
			var ts string
			ts, err = sp.str()
			if err == nil {
				ft, err = parseSimpleDType(ts)
			}
		}
		if err != nil {
			return t, err
		}
		f := Field{Name: name, Offset: off, Type: ft, Size: ft.ItemSize}
		if sp.eat(',') {
			if !sp.eat('(') {
				return t, fmt.Errorf("expected shape tuple at %d", sp.p)
			}
			for !sp.eat(')') {
				if len(f.Shape) > 0 && !sp.eat(',') {
					return t, fmt.Errorf("expected ',' in shape at %d", sp.p)
				}
				sp.ws()
				if sp.p < len(sp.s) && sp.s[sp.p] == ')' {
					continue // trailing comma of a 1-tuple
				}
				n, err := sp.int()
				if err != nil {
					return t, err
				}
				if len(f.Shape) > 32 || n > 0 && f.Size > (1<<30)/n {
					return t, fmt.Errorf("field %q too large", name)
				}
				f.Shape = append(f.Shape, n)
				f.Size *= n
			}
		}
		if !sp.eat(')') {
			return t, fmt.Errorf("expected ')' at %d", sp.p)
		}
		if off > 1<<30-f.Size {
			return t, fmt.Errorf("struct too large")
		}
		off += f.Size
		t.Fields = append(t.Fields, f)
	}
	t.ItemSize = off
	return t, nil
}

func parseStructDType(s string) (DType, error) {
	sp := &structParser{s: s}
	t, err := sp.list(0)
	if err != nil {
		return t, err
	}
	sp.ws()
	if sp.p != len(s) {
		return t, fmt.Errorf("trailing text at %d", sp.p)
	}
	t.Str = s
	return t, nil
}
