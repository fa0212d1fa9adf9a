package sql

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// bytesFuncs take the bytes of a VARCHAR or BLOB: the digests, base64 and
// hex (which also takes integers).
var bytesFuncs = map[string]string{
	"md5": "md5", "sha1": "sha1", "sha256": "sha256",
	"to_base64": "to_base64", "base64": "to_base64", "hex": "to_hex", "to_hex": "to_hex",
	"bin": "bin", "to_binary": "bin", "octet_length": "octet_length",
}

// intBytesFuncs also take an integer (its 64-bit two's complement).
var intBytesFuncs = map[string]bool{"to_hex": true, "bin": true}

// bindBytesFunc binds bytesFuncs and hash(x, …); ok is false for other
// names.
func (b *binder) bindBytesFunc(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
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
func (b *binder) bindFormat(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
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

// bindConcatWS binds concat_ws(sep, …): every argument as text.
func (b *binder) bindConcatWS(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) < 2 {
		return nil, true, b.arity(at, name, "2 or more")
	}
	args, err := b.coerceAll(xs, columnar.TVarchar, srcs, c)
	if err != nil {
		return nil, true, err
	}
	return &planner.Call{Fn: "concat_ws", Args: args, T: columnar.TVarchar}, true, nil
}

// coerceAll casts every argument to t.
func (b *binder) coerceAll(xs []planner.Expr, t columnar.Type, srcs []callexpr.Expr, c ectx) ([]planner.Expr, error) {
	args := make([]planner.Expr, len(xs))
	for i, x := range xs {
		y, err := b.coerce(x, t, srcs[i], c)
		if err != nil {
			return nil, err
		}
		args[i] = y
	}
	return args, nil
}

// bindLocate binds locate(sub, s) as instr(s, sub); POSITION(sub IN s)
// parses as LOCATE(sub, s).
func (b *binder) bindLocate(name string, xs []planner.Expr, srcs []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	if len(xs) != 2 {
		return nil, true, b.arity(at, name, "2")
	}
	x, err := b.callRules("instr", []planner.Expr{xs[1], xs[0]}, []callexpr.Expr{srcs[1], srcs[0]}, at, c)
	return x, true, err
}
