package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// String functions of DuckDB with fixed signatures (executor
// call_string_text.go, call_string_distance.go).
func init() {
	for name, sig := range map[string]moreSig{
		"repeat":                  {"repeat", []argKind{aStr, aInt}, 0, columnar.TVarchar},
		"translate":               {"translate", []argKind{aStr, aStr, aStr}, 0, columnar.TVarchar},
		"bit_length":              {"bit_length", []argKind{aStr}, 0, columnar.TInt64},
		"url_encode":              {"url_encode", []argKind{aStr}, 0, columnar.TVarchar},
		"url_decode":              {"url_decode", []argKind{aStr}, 0, columnar.TVarchar},
		"unhex":                   {"unhex", []argKind{aStr}, 0, columnar.TBlob},
		"from_hex":                {"unhex", []argKind{aStr}, 0, columnar.TBlob},
		"from_base64":             {"from_base64", []argKind{aStr}, 0, columnar.TBlob},
		"levenshtein":             {"levenshtein", []argKind{aStr, aStr}, 0, columnar.TInt64},
		"editdist3":               {"levenshtein", []argKind{aStr, aStr}, 0, columnar.TInt64},
		"damerau_levenshtein":     {"damerau_levenshtein", []argKind{aStr, aStr}, 0, columnar.TInt64},
		"hamming":                 {"hamming", []argKind{aStr, aStr}, 0, columnar.TInt64},
		"mismatches":              {"hamming", []argKind{aStr, aStr}, 0, columnar.TInt64},
		"jaro_similarity":         {"jaro_similarity", []argKind{aStr, aStr}, 0, columnar.TFloat64},
		"jaro_winkler_similarity": {"jaro_winkler_similarity", []argKind{aStr, aStr}, 0, columnar.TFloat64},
		"like_escape":             {"like_escape", []argKind{aStr, aStr, aStr}, 0, columnar.TBool},
		"not_like_escape":         {"not_like_escape", []argKind{aStr, aStr, aStr}, 0, columnar.TBool},
		"ilike_escape":            {"ilike_escape", []argKind{aStr, aStr, aStr}, 0, columnar.TBool},
		"not_ilike_escape":        {"not_ilike_escape", []argKind{aStr, aStr, aStr}, 0, columnar.TBool},
		"error":                   {"error", []argKind{aStr}, 0, columnar.TNull},
		"nfc_normalize":           {"nfc_normalize", []argKind{aStr}, 0, columnar.TVarchar},
		"strip_accents":           {"strip_accents", []argKind{aStr}, 0, columnar.TVarchar},
		"jaccard":                 {"jaccard", []argKind{aStr, aStr}, 0, columnar.TFloat64},
		"regexp_escape":           {"regexp_escape", []argKind{aStr}, 0, columnar.TVarchar},
		"to_base":                 {"to_base", []argKind{aInt, aInt, aInt}, 1, columnar.TVarchar},
	} {
		moreSigs[name] = sig
	}
}

// bytesFuncs take the bytes of a VARCHAR or BLOB: the digests, base64 and
// hex (which also takes integers).
var bytesFuncs = map[string]string{
	"md5": "md5", "sha1": "sha1", "sha256": "sha256",
	"to_base64": "to_base64", "base64": "to_base64", "hex": "to_hex", "to_hex": "to_hex",
	"bin": "bin", "to_binary": "bin", "octet_length": "octet_length",
}

// intBytesFuncs also take an integer (its 64-bit two's complement).
var intBytesFuncs = map[string]bool{"to_hex": true, "bin": true}

func bytesFuncNames() []string {
	out := []string{"hash", "printf", "format"}
	for k := range bytesFuncs {
		out = append(out, k)
	}
	return out
}

// bindBytesFunc binds bytesFuncs and hash(x, …); ok is false for other
// names.
func (b *binder) bindBytesFunc(name string, xs []planner.Expr, srcs []sqlparser.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if name == "hash" {
		if len(xs) == 0 {
			return nil, true, b.arity(at, name, "1 or more")
		}
		return &planner.Call{Fn: "hash", Args: xs, T: columnar.TUint64}, true, nil
	}
	fn, ok := bytesFuncs[name]
	if !ok {
		return nil, false, nil
	}
	if len(xs) != 1 {
		return nil, true, b.arity(at, name, "1")
	}
	x, t := xs[0], xs[0].Type()
	switch {
	case t.ID == columnar.Varchar || t.ID == columnar.Blob:
	case t.ID == columnar.Null:
		y, err := b.coerce(x, columnar.TVarchar, srcs[0], c)
		if err != nil {
			return nil, true, err
		}
		x = y
	case intBytesFuncs[fn] && t.IsInteger():
		if t.ID != columnar.Uint64 {
			y, err := b.coerce(x, columnar.TInt64, srcs[0], c)
			if err != nil {
				return nil, true, err
			}
			x = y
		}
	case intBytesFuncs[fn]:
		return nil, true, b.typeErr(srcs[0], c, "%s expects VARCHAR, BLOB or an integer, got %s", name, t)
	default:
		return nil, true, b.typeErr(srcs[0], c, "%s expects VARCHAR or BLOB, got %s", name, t)
	}
	rt := columnar.TVarchar
	if fn == "octet_length" {
		rt = columnar.TInt64
	}
	return &planner.Call{Fn: fn, Args: []planner.Expr{x}, T: rt}, true, nil
}

// bindFormat binds printf(fmt, …) and format(fmt, …): a VARCHAR format
// and arguments of any type (executor call_format.go); ok is false for
// other names.
func (b *binder) bindFormat(name string, xs []planner.Expr, srcs []sqlparser.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if name != "printf" && name != "format" {
		return nil, false, nil
	}
	if len(xs) == 0 {
		return nil, true, b.arity(at, name, "1 or more")
	}
	if t := xs[0].Type(); t.ID != columnar.Varchar && t.ID != columnar.Null {
		return nil, true, b.typeErr(srcs[0], c, "%s expects a VARCHAR format, got %s", name, t)
	}
	f, err := b.coerce(xs[0], columnar.TVarchar, srcs[0], c)
	if err != nil {
		return nil, true, err
	}
	args := append([]planner.Expr{f}, xs[1:]...)
	return &planner.Call{Fn: name, Args: args, T: columnar.TVarchar}, true, nil
}
