package executor

import (
	"context"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func dec(p, s int, v int64) columnar.Value { return columnar.IntValue(columnar.DecimalType(p, s), v) }

// money: price DECIMAL(15,2), disc DECIMAL(15,2), qty BIGINT; row 3 has
// NULLs; negative values included.
func money(n int) *source {
	p, d := columnar.DecimalType(15, 2), columnar.DecimalType(15, 2)
	return &source{types: []columnar.Type{p, d, columnar.TInt64}, n: n, rows: [][]columnar.Value{
		{dec(15, 2, 10495), dec(15, 2, 6), i64(3)},    // 104.95, 0.06
		{dec(15, 2, -250), dec(15, 2, 10), i64(-2)},   // -2.50, 0.10
		{null(p), null(d), null(columnar.TInt64)},     // NULLs
		{dec(15, 2, 1), dec(15, 2, -99), i64(0)},      // 0.01, -0.99
		{dec(15, 2, 999999), dec(15, 2, 100), i64(7)}, // 9999.99, 1.00
	}}
}

// TestDecimalArith: products are exact at scale s1+s2 (DECIMAL(18,4)),
// sums at the common scale; the same answers at every batch size, with
// and without selections, for vector×vector, vector×const and const×vector.
func TestDecimalArith(t *testing.T) {
	d152, d162, d184 := columnar.DecimalType(15, 2), columnar.DecimalType(16, 2), columnar.DecimalType(18, 4)
	price, disc := ColumnExpr(0, d152), ColumnExpr(1, d152)
	runSizes(t, func(t *testing.T, n int) {
		// price * (1 - disc), price + disc, 2.00 * price (const × vector)
		oneMinus := mustCall(t, "-", d162, ConstExpr(dec(16, 2, 100)), NewCast(disc, d162, false))
		exprs := []Expr{
			mustCall(t, "*", d184, price, oneMinus),
			mustCall(t, "+", d162, NewCast(price, d162, false), NewCast(disc, d162, false)),
			mustCall(t, "*", columnar.DecimalType(17, 4), ConstExpr(dec(2, 2, 200)), price),
			mustCall(t, "*", d184, price, ConstExpr(dec(3, 2, -1))),
		}
		got := drain(t, &Project{Input: money(n), Exprs: exprs})
		want := []string{
			// 104.95 * 0.94 = 98.6530; 104.95 + 0.06; 2 * 104.95; 104.95 * -0.01
			"98.6530|105.01|209.9000|-1.0495",
			// -2.50 * 0.90 = -2.2500; -2.50 + 0.10 = -2.40
			"-2.2500|-2.40|-5.0000|0.0250",
			"NULL|NULL|NULL|NULL",
			// 0.01 * 1.99 = 0.0199; 0.01 - 0.99 = -0.98
			"0.0199|-0.98|0.0200|-0.0001",
			// 9999.99 * 0 = 0; 9999.99 + 1.00
			"0.0000|10000.99|19999.9800|-99.9999",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got  %v\nwant %v", got, want)
		}
	})
}

// TestDecimalProductOverflow: a product past int64 is an error naming the
// result type and the operands, whichever loop (vector or per-row) ran; a
// NULL row's garbage never overflows.
func TestDecimalProductOverflow(t *testing.T) {
	d, d18 := columnar.DecimalType(18, 2), columnar.DecimalType(18, 4)
	big := dec(18, 2, 1_000_000_000_000_000_000)
	for _, n := range batchSizes {
		src := &source{types: []columnar.Type{d}, n: n, rows: [][]columnar.Value{{dec(18, 2, 1)}, {big}}}
		e := mustCall(t, "*", d18, ColumnExpr(0, d), ConstExpr(dec(2, 0, 10)))
		p := &Project{Input: src, Exprs: []Expr{e}}
		err := drainErr(p)
		want := "overflow in multiplication of DECIMAL(18,4): " + decimalAdvice
		if err == nil || err.Error() != want {
			t.Fatalf("batch=%d: got %v, want %s", n, err, want)
		}
	}
	src := &source{types: []columnar.Type{d}, n: 1024, rows: [][]columnar.Value{{dec(18, 2, 1)}, {null(d)}}}
	p := &Project{Input: src, Exprs: []Expr{mustCall(t, "*", d18, ColumnExpr(0, d), ConstExpr(dec(2, 0, 10)))}}
	if got := drain(t, p); !equalStrings(got, []string{"0.0010", "NULL"}) {
		t.Fatalf("got %v", got)
	}
}

func TestMulOverflow(t *testing.T) {
	cases := []struct {
		p, q int64
		ok   bool
	}{
		{3, 4, true}, {-3, 4, true}, {math.MaxInt64, 1, true}, {math.MinInt64, 1, true},
		{math.MinInt64, -1, false}, {math.MaxInt64, 2, false}, {1 << 32, 1 << 31, false},
		{1 << 31, 1 << 31, true}, {-(1 << 31), 1 << 32, true}, {-(1 << 32), 1 << 32, false},
		{math.MaxInt64 / 2, -2, true}, {0, math.MinInt64, true},
	}
	for _, c := range cases {
		v, o := mulOverflow(c.p, c.q)
		if (o >= 0) != c.ok || c.ok && v != c.p*c.q {
			t.Errorf("mulOverflow(%d, %d) = %d, %d; want ok=%v", c.p, c.q, v, o, c.ok)
		}
	}
}

// drainErr runs op to the end and returns its first error.
func drainErr(op Operator) error {
	ctx := context.Background()
	if err := op.Open(ctx); err != nil {
		return err
	}
	defer op.Close()
	for {
		_, err := op.Next(ctx)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestCastToDecimal: rescaling up multiplies, down rounds half away from
// zero; a value that does not fit is the usual cast error, or NULL for
// TRY_CAST.
func TestCastToDecimal(t *testing.T) {
	d153 := columnar.DecimalType(15, 3)
	src := func(n int) *source {
		return &source{types: []columnar.Type{d153, columnar.TInt32}, n: n, rows: [][]columnar.Value{
			{dec(15, 3, 1250), columnar.IntValue(columnar.TInt32, 12)},   // 1.250
			{dec(15, 3, -1250), columnar.IntValue(columnar.TInt32, -7)},  // -1.250
			{dec(15, 3, 1249), null(columnar.TInt32)},                    // 1.249
			{dec(15, 3, -1249), columnar.IntValue(columnar.TInt32, 999)}, // -1.249
			{null(d153), columnar.IntValue(columnar.TInt32, 0)},
		}}
	}
	runSizes(t, func(t *testing.T, n int) {
		exprs := []Expr{
			NewCast(ColumnExpr(0, d153), columnar.DecimalType(16, 1), false), // round to 1 digit
			NewCast(ColumnExpr(0, d153), columnar.DecimalType(18, 5), false), // scale up
			NewCast(ColumnExpr(0, d153), columnar.DecimalType(18, 3), false), // same scale: passthrough
			NewCast(ColumnExpr(1, columnar.TInt32), columnar.DecimalType(5, 2), false),
		}
		got := drain(t, &Project{Input: src(n), Exprs: exprs})
		want := []string{
			"1.3|1.25000|1.250|12.00",
			"-1.3|-1.25000|-1.250|-7.00",
			"1.2|1.24900|1.249|NULL",
			"-1.2|-1.24900|-1.249|999.00",
			"NULL|NULL|NULL|0.00",
		}
		if !equalStrings(got, want) {
			t.Fatalf("got  %v\nwant %v", got, want)
		}
	})
	tooBig := &source{types: []columnar.Type{columnar.TInt32}, n: 1024, rows: [][]columnar.Value{{columnar.IntValue(columnar.TInt32, 5)}, {columnar.IntValue(columnar.TInt32, 1000)}}}
	err := drainErr(&Project{Input: tooBig, Exprs: []Expr{NewCast(ColumnExpr(0, columnar.TInt32), columnar.DecimalType(5, 2), false)}})
	if err == nil || !strings.Contains(err.Error(), "could not cast 1000 to DECIMAL(5,2)") {
		t.Fatalf("got %v", err)
	}
	tooBig.pos = 0
	got := drain(t, &Project{Input: tooBig, Exprs: []Expr{NewCast(ColumnExpr(0, columnar.TInt32), columnar.DecimalType(5, 2), true)}})
	if !equalStrings(got, []string{"5.00", "NULL"}) {
		t.Fatalf("TRY_CAST: got %v", got)
	}
}

// TestSumOverflow: an exact SUM past int64 is an error at every batch
// size, grouped or not, and a sum that comes back into range on the way
// is not.
func TestSumOverflow(t *testing.T) {
	big := int64(math.MaxInt64 - 10)
	for _, n := range batchSizes {
		src := &source{types: []columnar.Type{columnar.TInt64}, n: n, rows: [][]columnar.Value{{i64(big)}, {i64(5)}, {i64(6)}}}
		agg := &HashAgg{Input: src, Aggs: []AggSpec{{Kind: AggSum, Arg: ColumnExpr(0, columnar.TInt64), Type: columnar.TInt64}}}
		if err := drainErr(agg); err == nil || err.Error() != "overflow in SUM of BIGINT" {
			t.Fatalf("batch=%d: got %v", n, err)
		}
		d := columnar.DecimalType(18, 2)
		src = &source{types: []columnar.Type{d}, n: n, rows: [][]columnar.Value{{dec(18, 2, big)}, {dec(18, 2, -20)}, {dec(18, 2, 15)}}}
		agg = &HashAgg{Input: src, Aggs: []AggSpec{{Kind: AggSum, Arg: ColumnExpr(0, d), Type: d}}}
		if got := drain(t, agg); !equalStrings(got, []string{"92233720368547757.92"}) {
			t.Fatalf("batch=%d: got %v", n, got)
		}
	}
}
