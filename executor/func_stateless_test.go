package executor

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// TestKernelsShareNoState builds every registered scalar overload twice,
// as a query with two calls of one function does ('alan' || ' ' ||
// 'TURING' builds || twice), and evaluates them interleaved on different
// rows: the first call's result must survive the second call's
// evaluation, and each call must give its answer again after the other
// ran. A kernel registered as stateless (one kernel for every call) that
// keeps an arena fails here (a shared concat arena once turned 'alan' ||
// ' ' || 'TURING' into 'LovelTURING'); two workers then evaluate their
// calls at once, where go test -race reports a shared cache (LIKE's
// pattern cache, when it was shared).
//
// Arguments are made of each rule's type (function.Arg); overloads whose
// rules name no plain type (maps, intervals, UUIDs), volatile functions
// and calls that fail on these values are passed over (a panic is passed
// over only where the binder types the calls itself), and the test
// requires most overloads to have been checked.
func TestKernelsShareNoState(t *testing.T) {
	checked, total := 0, 0
	for _, s := range function.All() {
		if s.Kind != function.Scalar || s.Stability == function.Volatile {
			continue
		}
		for oi := range s.Overloads {
			o := &s.Overloads[oi]
			if o.Kernel == nil {
				continue
			}
			total++
			n := len(o.Args)
			if o.Variadic {
				n++
			}
			types := make([]columnar.Type, n)
			ok := n > 0
			for i := range types {
				types[i], ok = ruleType(o.Arg(i))
				if !ok {
					break
				}
			}
			if !ok {
				continue
			}
			rets := []columnar.Type{o.Returns}
			if o.SameAs > 0 {
				rets[0] = o.Derive.Of(types[o.SameAs-1])
			}
			if rets[0].ID == columnar.Null {
				// Typed by the binder alone (the operators, list_value):
				// the first result type the kernel accepts.
				rets = []columnar.Type{types[0], columnar.TBool, columnar.TVarchar, columnar.TFloat64, columnar.TInt64}
			}
			var err error
			for _, ret := range rets {
				if err = interleaved(s.Name, types, ret); err == nil || !skippable(s, err) {
					break
				}
			}
			if err != nil && skippable(s, err) {
				continue
			}
			if err != nil {
				t.Errorf("%s%v: %v", s.Name, types, err)
			}
			checked++
		}
	}
	t.Logf("%d of %d scalar overloads checked", checked, total)
	if checked < total/2 {
		t.Fatalf("only %d of %d scalar overloads checked", checked, total)
	}
}

// skippable: the call could not be made with these arguments (a
// CustomBind or Internal set's rules only describe it: its binder gives
// the kernel other argument types, constants or result types).
func skippable(s *function.Set, err error) bool {
	return strings.HasPrefix(err.Error(), "skip: ") ||
		(s.CustomBind || s.Internal) && strings.HasPrefix(err.Error(), "panic: ")
}

// interleaved evaluates two calls of fn, A on rows x and B on rows y:
// A, then B (A's result must not change), then A and B again (each must
// repeat its answer).
func interleaved(fn string, types []columnar.Type, ret columnar.Type) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	cols := make([]Expr, len(types))
	for i, ty := range types {
		cols[i] = ColumnExpr(i, ty)
	}
	a, ok, err := newRegisteredCall(fn, cols, ret)
	if !ok || err != nil {
		return fmt.Errorf("skip: %v", err)
	}
	b, _, _ := newRegisteredCall(fn, cols, ret)
	x, y := argBatch(types, 0), argBatch(types, 1)
	eval := func(e Expr, in *columnar.Batch) (*columnar.Vector, string, error) {
		v, err := e.Eval(in)
		if err != nil {
			return nil, "", err
		}
		return v, render(v, in.Len), nil
	}
	va, sa, err := eval(a, x)
	if err != nil {
		return fmt.Errorf("skip: %v", err)
	}
	_, sb, err := eval(b, y)
	if err != nil {
		return fmt.Errorf("skip: %v", err)
	}
	if got := render(va, x.Len); got != sa {
		return fmt.Errorf("the first call's result changed when the second call ran: %s, then %s", sa, got)
	}
	if _, got, err := eval(a, x); err != nil || got != sa {
		return fmt.Errorf("the first call again gave %s (%v), first %s", got, err, sa)
	}
	if _, got, err := eval(b, y); err != nil || got != sb {
		return fmt.Errorf("the second call again gave %s (%v), first %s", got, err, sb)
	}
	// Two workers evaluate their own calls at once, as parallel
	// pipelines do (go test -race sees a shared cache or arena).
	errs := make(chan error, 2)
	for _, w := range []struct {
		e    Expr
		in   *columnar.Batch
		want string
	}{{a, x, sa}, {b, y, sb}} {
		go func() {
			defer func() {
				if r := recover(); r != nil {
					errs <- fmt.Errorf("panic in a concurrent call: %v", r)
				}
			}()
			for range 50 {
				if _, got, err := eval(w.e, w.in); err != nil || got != w.want {
					errs <- fmt.Errorf("a call evaluated beside another gave %s (%v), alone %s", got, err, w.want)
					return
				}
			}
			errs <- nil
		}()
	}
	return errors.Join(<-errs, <-errs)
}

func render(v *columnar.Vector, n int) string {
	parts := make([]string, n)
	for i := range n {
		r := i
		if v.Const {
			r = 0
		}
		parts[i] = v.Value(r).String()
	}
	return strings.Join(parts, "|")
}

// ruleType is a column type an argument rule takes as it is.
func ruleType(a function.Arg) (columnar.Type, bool) {
	switch a {
	case function.Varchar, function.Text, function.Str, function.Any, function.Element:
		return columnar.TVarchar, true
	case function.Number, function.Double:
		return columnar.TFloat64, true
	case function.Integer, function.BigInt:
		return columnar.TInt64, true
	case function.Int32:
		return columnar.TInt32, true
	case function.Temporal, function.Instant:
		return columnar.TTimestamp, true
	case function.List, function.SameList, function.ListOrString:
		return columnar.ListOf(columnar.TVarchar), true
	}
	return columnar.Type{}, false
}

// argBatch is four rows of the types, set 0 or 1 (different values, with
// a NULL in set 1).
func argBatch(types []columnar.Type, set int) *columnar.Batch {
	strs := [2][]string{{"alan", "Bé%t_x", "", "a,b;c"}, {"TURING", "q", "hello world", "%"}}
	ints := [2][]int64{{1, 2, 3, 40}, {7, 0, 5, 2}}
	floats := [2][]float64{{1.5, 2.25, -3, 0.5}, {9, 0.125, 4, 2}}
	b := columnar.NewBatch(types, 4)
	for c, ty := range types {
		for r := range 4 {
			var v columnar.Value
			switch {
			case set == 1 && r == 2 && c == len(types)-1:
				v = columnar.NullValue(ty)
			case ty.ID == columnar.Varchar:
				v = columnar.StringValue(strs[set][(r+c)%4])
			case ty.ID == columnar.List:
				v = columnar.Value{Type: ty, Elems: []columnar.Value{columnar.StringValue(strs[set][r]), columnar.StringValue(strs[set][(r+1)%4])}}
			case ty.ID == columnar.Float64:
				v = columnar.FloatValue(ty, floats[set][(r+c)%4])
			case ty.ID == columnar.Timestamp:
				v = columnar.IntValue(ty, 1_700_000_000_000_000+ints[set][r]*86_400_000_000)
			default:
				v = columnar.IntValue(ty, ints[set][(r+c)%4])
			}
			b.Cols[c].SetValue(r, 4, v)
		}
	}
	b.Len = 4
	return b
}
