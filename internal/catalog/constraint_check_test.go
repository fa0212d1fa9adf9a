package catalog

import (
	"math"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// TestColumnConstraintsCheck checks each kind of constraint on values
// chosen at and beside its limit; the expected verdicts are by hand.
func TestColumnConstraintsCheck(t *testing.T) {
	i64 := func(x int64) columnar.Value { return columnar.IntValue(columnar.TInt64, x) }
	f64 := func(x float64) columnar.Value { return columnar.FloatValue(columnar.TFloat64, x) }
	between := []sql.Check{{Op: "ge", Val: i64(0)}, {Op: "lt", Val: f64(2.5)}}
	cases := []struct {
		name string
		c    ColumnConstraints
		v    columnar.Value // Null: the row is NULL
		want string
	}{
		{"null allowed", ColumnConstraints{Nullable: true}, columnar.Value{Type: columnar.TInt64, Null: true}, ""},
		{"not null", ColumnConstraints{}, columnar.Value{Type: columnar.TInt64, Null: true}, "NOT NULL"},
		{"ge at bound", ColumnConstraints{Checks: between}, i64(0), ""},
		{"ge below", ColumnConstraints{Checks: between}, i64(-1), "ge=0"},
		{"lt int under float bound", ColumnConstraints{Checks: between}, i64(2), ""},
		{"lt float at bound", ColumnConstraints{Checks: between}, f64(2.5), "lt=2.5"},
		{"NaN meets no bound", ColumnConstraints{Checks: between}, f64(math.NaN()), "ge=0"},
		{"decimal 2.49 under 2.5", ColumnConstraints{Checks: between}, columnar.Value{Type: columnar.DecimalType(9, 2), I: 249}, ""},
		{"decimal 2.50 at 2.5", ColumnConstraints{Checks: between}, columnar.Value{Type: columnar.DecimalType(9, 2), I: 250}, "lt=2.5"},
		{"uint above negative ge", ColumnConstraints{Checks: []sql.Check{{Op: "ge", Val: i64(-5)}}}, columnar.UintValue(math.MaxUint64), ""},
		{"uint above le", ColumnConstraints{Checks: []sql.Check{{Op: "le", Val: i64(10)}}}, columnar.UintValue(11), "le=10"},
		{"max_length counts characters", ColumnConstraints{MaxLength: 3}, columnar.StringValue("äöü"), ""},
		{"max_length exceeded", ColumnConstraints{MaxLength: 3}, columnar.StringValue("abcd"), "max_length=3"},
		{"bounds ignore strings", ColumnConstraints{Checks: between}, columnar.StringValue("zzz"), ""},
	}
	for _, c := range cases {
		v := columnar.NewVector(c.v.Type, 1)
		if c.v.Null {
			v.SetNull(0, 1)
		} else {
			v.SetValue(0, 1, c.v)
		}
		if got := c.c.Check(v, 0); got != c.want {
			t.Errorf("%s: Check = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestColumnConstraintsCTableRules checks that the conversion to a CTable
// schema's rules keeps every field, bounds in their order.
func TestColumnConstraintsCTableRules(t *testing.T) {
	d := columnar.StringValue("x")
	c := ColumnConstraints{Nullable: true, MaxLength: 8, Default: &d,
		Checks: []sql.Check{{Op: "gt", Val: columnar.IntValue(columnar.TInt64, 1)}, {Op: "le", Val: columnar.FloatValue(columnar.TFloat64, 9.5)}}}
	r := c.CTableRules()
	if !r.Nullable || r.MaxLength != 8 || r.Default != &d || len(r.Bounds) != 2 ||
		r.Bounds[0].String() != "gt=1" || r.Bounds[1].String() != "le=9.5" {
		t.Fatalf("CTableRules = %+v", r)
	}
}
