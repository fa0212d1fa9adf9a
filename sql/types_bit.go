package sql

import "github.com/b2sql/b2sql/columnar"

// bitCastable reports whether t casts to and from BIT (DuckDB 1.5.6):
// BIT itself, text, BLOB, BOOLEAN, the integers of every width, FLOAT and
// DOUBLE (their IEEE bits); not DECIMAL nor the temporal types
// (executor/cast_bit.go has the rules).
func bitCastable(t columnar.Type) bool {
	switch t.ID {
	case columnar.Bit, columnar.Varchar, columnar.Blob, columnar.Bool, columnar.Float32, columnar.Float64, columnar.Hugeint, columnar.Uhugeint:
		return true
	}
	return t.IsInteger()
}

// bitCompareType is the type a BIT compares with another type in: BIT,
// the other side cast to it (DuckDB 1.5.6 compares '…'::BIT = 11 as BIT,
// the integer's 32 bits), for the types that cast to BIT. Only
// comparisons: DuckDB refuses COALESCE of a BIT and an INTEGER.
func bitCompareType(a, b columnar.Type) (columnar.Type, bool) {
	if a.ID == columnar.Bit && bitCastable(b) || b.ID == columnar.Bit && bitCastable(a) {
		return columnar.TBit, true
	}
	return columnar.Type{}, false
}
