package hashtab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// batchSizes are the sizes every table is tested at (as the executor's
// operator tests): boundary bugs hide at 1 and 2, 7 splits runs unevenly.
var batchSizes = []int{1, 2, 7, columnar.MaxBatch}

// refKey renders a row the way SQL compares keys, independently of the
// tables' encodings: NULL, -0 = 0, one NaN.
func refKey(row []columnar.Value) string {
	var sb strings.Builder
	for _, v := range row {
		switch {
		case v.Null:
			sb.WriteString("N|")
		case v.Type.Phys() == columnar.PhysFloat:
			f := v.F
			switch {
			case f != f:
				sb.WriteString("NaN|")
			case f == 0:
				sb.WriteString("f0|")
			default:
				fmt.Fprintf(&sb, "f%v|", f)
			}
		case v.Type.Phys() == columnar.PhysBytes:
			fmt.Fprintf(&sb, "s%q|", v.S)
		default:
			fmt.Fprintf(&sb, "i%d|", v.I)
		}
	}
	return sb.String()
}

// render is a value's exact text, -0 and NaN kept apart from 0 (Keys must
// give back the first row's value, not its folded word).
func render(v columnar.Value) string {
	if v.Null {
		return "NULL"
	}
	switch v.Type.Phys() {
	case columnar.PhysFloat:
		if v.F == 0 && math.Signbit(v.F) {
			return "-0"
		}
		return fmt.Sprint(v.F)
	case columnar.PhysBytes:
		return fmt.Sprintf("%q", v.S)
	}
	return fmt.Sprint(v.I)
}

// batchOf builds a batch of rows at types. odd batches get a poisoned row
// first that a selection hides; coded columns come dictionary-coded, const
// columns as Const vectors when every row has one value.
func batchOf(types []columnar.Type, rows [][]columnar.Value, odd bool, coded []bool) *columnar.Batch {
	extra := 0
	if odd {
		extra = 1
	}
	n := len(rows) + extra
	b := columnar.NewBatch(types, n)
	b.Len = n
	for c, t := range types {
		v := b.Cols[c]
		if extra == 1 {
			v.SetValue(0, n, poison(t))
		}
		for r, row := range rows {
			v.SetValue(r+extra, n, row[c])
		}
		if coded != nil && coded[c] {
			// A dictionary of this batch's values, shuffled, plus one unused.
			var vals []string
			for r := range n {
				if !v.IsNull(r) {
					vals = append(vals, string(v.Bytes[r]))
				}
			}
			vals = append(vals, "unused-value")
			slices.Sort(vals)
			vals = slices.Compact(vals)
			slices.Reverse(vals)
			d := dict.New(vals...)
			codes := dict.Set(v, d, n)
			for r := range n {
				if !v.IsNull(r) {
					codes[r] = d.Find(v.Bytes[r])
				}
			}
			v.Bytes = nil
		}
	}
	if odd {
		b.Sel = make([]int, len(rows))
		for i := range rows {
			b.Sel[i] = i + 1
		}
	}
	return b
}

func poison(t columnar.Type) columnar.Value {
	switch t.Phys() {
	case columnar.PhysInt:
		return columnar.IntValue(t, 1<<40+7)
	case columnar.PhysUint:
		return columnar.UintValue(1<<50 + 3)
	case columnar.PhysFloat:
		return columnar.FloatValue(t, -12345.5)
	case columnar.PhysBytes:
		return columnar.Value{Type: t, S: "POISON"}
	case columnar.PhysBool:
		return columnar.BoolValue(true)
	}
	return columnar.NullValue(t)
}

// checkMap feeds rows through a new Map in batches of n and checks every
// id, every new row, Len, Keys and Find against a Go map over refKey.
func checkMap(t *testing.T, types []columnar.Type, rows [][]columnar.Value, n int, coded []bool, absent [][]columnar.Value) {
	t.Helper()
	m := New(types)
	ref := map[string]int32{}
	var first [][]columnar.Value // per id: the row that created it
	for off, batch := 0, 0; off < len(rows); off, batch = off+n, batch+1 {
		chunk := rows[off:min(off+n, len(rows))]
		odd := batch%2 == 1
		b := batchOf(types, chunk, odd, coded)
		gids := make([]int32, b.Len)
		before := m.Len()
		newRows := m.Assign(b, b.Cols, gids)
		var wantNew []int
		for k, row := range chunk {
			i := k
			if odd {
				i++
			}
			key := refKey(row)
			g, ok := ref[key]
			if !ok {
				g = int32(len(ref))
				ref[key] = g
				first = append(first, row)
				wantNew = append(wantNew, i)
			}
			if gids[i] != g {
				t.Fatalf("row %d %v: id %d, want %d", off+k, row, gids[i], g)
			}
		}
		if !slices.Equal(newRows, wantNew) || m.Len() != before+len(wantNew) {
			t.Fatalf("batch at %d: new rows %v (len %d→%d), want %v", off, newRows, before, m.Len(), wantNew)
		}
		// Find over the same batch gives the same ids.
		found := make([]int32, b.Len)
		m.Find(b, b.Cols, found)
		for k := range chunk {
			i := k
			if odd {
				i++
			}
			if found[i] != gids[i] {
				t.Fatalf("row %d: Find %d, Assign %d", off+k, found[i], gids[i])
			}
		}
	}
	if m.Len() != len(ref) {
		t.Fatalf("Len %d, want %d", m.Len(), len(ref))
	}
	if m.Bytes() <= 0 {
		t.Fatalf("Bytes %d", m.Bytes())
	}
	// Keys, in pieces that do not line up with the batches.
	cols := make([]*columnar.Vector, len(types))
	for c, ty := range types {
		cols[c] = columnar.NewVector(ty, 0)
	}
	for from := 0; from < len(first); from += 5 {
		to := min(from+5, len(first))
		m.Keys(cols, from, to)
		for g := from; g < to; g++ {
			for c := range types {
				got, want := render(cols[c].Value(g-from)), render(first[g][c])
				if got != want {
					t.Fatalf("key %d column %d: %s, want %s", g, c, got, want)
				}
			}
		}
	}
	// A Finder (as each copy of a parallel join uses) finds every key.
	f := m.Finder()
	for off, batch := 0, 0; off < len(rows); off, batch = off+n, batch+1 {
		chunk := rows[off:min(off+n, len(rows))]
		b := batchOf(types, chunk, batch%2 == 1, coded)
		found := make([]int32, b.Len)
		f.Find(b, b.Cols, found)
		for k, row := range chunk {
			if g := found[b.Row(k)]; g != ref[refKey(row)] {
				t.Fatalf("Finder: row %d %v: id %d, want %d", off+k, row, g, ref[refKey(row)])
			}
		}
	}
	if len(absent) > 0 {
		b := batchOf(types, absent, false, coded)
		found := make([]int32, b.Len)
		f.Find(b, b.Cols, found)
		for i, g := range found {
			if _, in := ref[refKey(absent[i])]; !in && g != -1 {
				t.Fatalf("absent key %v found as %d", absent[i], g)
			}
		}
	}
}

func i64(v int64) columnar.Value          { return columnar.IntValue(columnar.TInt64, v) }
func f64(v float64) columnar.Value        { return columnar.FloatValue(columnar.TFloat64, v) }
func str(s string) columnar.Value         { return columnar.StringValue(s) }
func null(t columnar.Type) columnar.Value { return columnar.NullValue(t) }

// shapes are the key shapes New chooses among, each with rows that reach
// its special paths, and keys it must not find.
func shapes() []struct {
	name   string
	types  []columnar.Type
	rows   [][]columnar.Value
	absent [][]columnar.Value
	coded  []bool
} {
	rng := rand.New(rand.NewPCG(7, 11))
	type shape = struct {
		name   string
		types  []columnar.Type
		rows   [][]columnar.Value
		absent [][]columnar.Value
		coded  []bool
	}
	var out []shape
	// One integer: small dense keys, negative, huge, a key first hashed
	// (out of the direct table's range) and later in it, NULLs.
	var ints [][]columnar.Value
	for i := range 3000 {
		switch i % 6 {
		case 0:
			ints = append(ints, []columnar.Value{i64(int64(i / 6))})
		case 1:
			ints = append(ints, []columnar.Value{i64(-int64(rng.IntN(50)))})
		case 2:
			ints = append(ints, []columnar.Value{i64(int64(rng.Uint64() >> 1))})
		case 3:
			ints = append(ints, []columnar.Value{i64(int64(200_000 + rng.IntN(40)))})
		case 4:
			ints = append(ints, []columnar.Value{null(columnar.TInt64)})
		default:
			ints = append(ints, []columnar.Value{i64(math.MinInt64)})
		}
	}
	out = append(out, shape{name: "int", types: []columnar.Type{columnar.TInt64}, rows: ints,
		absent: [][]columnar.Value{{i64(1 << 61)}, {i64(-77)}, {i64(100_000)}}})
	out = append(out, shape{name: "bool", types: []columnar.Type{columnar.TBool}, rows: [][]columnar.Value{
		{columnar.BoolValue(true)}, {null(columnar.TBool)}, {columnar.BoolValue(false)}, {columnar.BoolValue(true)}, {null(columnar.TBool)}}})
	out = append(out, shape{name: "uint", types: []columnar.Type{columnar.TUint64}, rows: [][]columnar.Value{
		{columnar.UintValue(math.MaxUint64)}, {columnar.UintValue(3)}, {null(columnar.TUint64)}, {columnar.UintValue(math.MaxUint64)}, {columnar.UintValue(3)}},
		absent: [][]columnar.Value{{columnar.UintValue(4)}}})
	// One string: short (in the slot), 16/17 bytes (the boundary), long,
	// empty, NULL.
	var strs [][]columnar.Value
	for i := range 2000 {
		var v columnar.Value
		switch i % 5 {
		case 0:
			v = str(fmt.Sprint("k", rng.IntN(300)))
		case 1:
			v = str(strings.Repeat("x", 15+rng.IntN(4)))
		case 2:
			v = str(fmt.Sprint("a long value that is not held in the slot #", rng.IntN(500)))
		case 3:
			v = str("")
		default:
			v = null(columnar.TVarchar)
		}
		strs = append(strs, []columnar.Value{v})
	}
	strAbsent := [][]columnar.Value{{str("k-absent")}, {str("a long value that is not held in the slot #x")}}
	out = append(out, shape{name: "string", types: []columnar.Type{columnar.TVarchar}, rows: strs, absent: strAbsent})
	out = append(out, shape{name: "string-coded", types: []columnar.Type{columnar.TVarchar}, rows: strs, absent: strAbsent, coded: []bool{true}})
	// One float: -0 and 0, NaNs, NULL are one key each.
	out = append(out, shape{name: "float", types: []columnar.Type{columnar.TFloat64}, rows: [][]columnar.Value{
		{f64(math.Copysign(0, -1))}, {f64(0)}, {f64(math.NaN())}, {null(columnar.TFloat64)}, {f64(1.5)}, {f64(-math.NaN())}, {f64(1.5)}},
		absent: [][]columnar.Value{{f64(2.5)}}})
	// An integer and a boolean in tiny domains (the direct table), then
	// a value that outgrows it.
	var small [][]columnar.Value
	for i := range 1500 {
		a := int64(rng.IntN(5))
		if i > 1000 && i%50 == 0 {
			a = 1000 + int64(i)
		}
		b := columnar.BoolValue(rng.IntN(2) == 0)
		if i%17 == 0 {
			b = null(columnar.TBool)
		}
		small = append(small, []columnar.Value{columnar.IntValue(columnar.TInt32, a), b})
	}
	out = append(out, shape{name: "small", types: []columnar.Type{columnar.TInt32, columnar.TBool}, rows: small,
		absent: [][]columnar.Value{{columnar.IntValue(columnar.TInt32, 9), columnar.BoolValue(true)}}})
	// An id that determines a string (the lead key), until a row breaks
	// the dependency.
	var lead [][]columnar.Value
	for i := range 4000 {
		id := int64(i % 1500)
		name := fmt.Sprint("customer#", id)
		if i == 3500 {
			name = "not the name of 1000"
		}
		lead = append(lead, []columnar.Value{i64(id), str(name), columnar.IntValue(columnar.TInt32, id%7)})
	}
	leadTypes := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TInt32}
	leadAbsent := [][]columnar.Value{{i64(3), str("customer#4"), columnar.IntValue(columnar.TInt32, 3)}}
	out = append(out, shape{name: "lead", types: leadTypes, rows: lead, absent: leadAbsent})
	out = append(out, shape{name: "lead-coded", types: leadTypes, rows: lead, absent: leadAbsent, coded: []bool{false, true, false}})
	// Long, mostly distinct plain strings: the encoded table.
	var long [][]columnar.Value
	for range 1200 {
		long = append(long, []columnar.Value{str(fmt.Sprint("an address of more than sixteen bytes, number ", rng.IntN(900))),
			columnar.IntValue(columnar.TInt32, int64(rng.IntN(3))), f64(float64(rng.IntN(2)) * math.Copysign(0, float64(rng.IntN(2))-0.5))})
	}
	out = append(out, shape{name: "encoded", types: []columnar.Type{columnar.TVarchar, columnar.TInt32, columnar.TFloat64}, rows: long,
		absent: [][]columnar.Value{{str("an address of more than sixteen bytes, number -1"), columnar.IntValue(columnar.TInt32, 0), f64(0)}}})
	// Strings and floats with NULLs among several columns, and a NULL-typed one.
	var mixed [][]columnar.Value
	for i := range 800 {
		s := str(fmt.Sprint("s", rng.IntN(6)))
		if i%9 == 0 {
			s = null(columnar.TVarchar)
		}
		f := f64(float64(rng.IntN(4)) / 2)
		if i%11 == 0 {
			f = null(columnar.TFloat64)
		} else if i%13 == 0 {
			f = f64(math.Copysign(0, -1))
		}
		mixed = append(mixed, []columnar.Value{null(columnar.TNull), s, f})
	}
	out = append(out, shape{name: "mixed", types: []columnar.Type{columnar.TNull, columnar.TVarchar, columnar.TFloat64}, rows: mixed,
		absent: [][]columnar.Value{{null(columnar.TNull), str("s9"), f64(0)}}})
	out = append(out, shape{name: "packed", types: packedTypes, rows: packedRows(rng),
		absent: [][]columnar.Value{{i64(1), i64(50), str("t1")}, {i64(-6), null(columnar.TInt64), str("t0")}}})
	out = append(out, shape{name: "packed-coded", types: packedTypes, rows: packedRows(rng), coded: []bool{false, false, true},
		absent: [][]columnar.Value{{i64(1), i64(50), str("t1")}}})
	// Unsigned words on both sides of 1<<63, with a boolean: no signed
	// interval of less than 64 bits holds them.
	var uints [][]columnar.Value
	for i := range 400 {
		u := []uint64{5, 1<<63 - 2, 1<<63 + 1, math.MaxUint64, 0}[i%5]
		if i < 200 {
			u = uint64(i % 7)
		}
		uints = append(uints, []columnar.Value{columnar.UintValue(u), columnar.BoolValue(i%3 == 0)})
	}
	out = append(out, shape{name: "packed-uint", types: []columnar.Type{columnar.TUint64, columnar.TBool}, rows: uints,
		absent: [][]columnar.Value{{columnar.UintValue(1<<63 - 1), columnar.BoolValue(true)}}})
	// 70 columns: past the word table's NULL mask.
	wide := make([]columnar.Type, 70)
	for c := range wide {
		wide[c] = columnar.TInt64
	}
	var wideRows [][]columnar.Value
	for range 300 {
		row := make([]columnar.Value, 70)
		for c := range row {
			row[c] = i64(int64(rng.IntN(2)))
			if c == 69 && rng.IntN(4) == 0 {
				row[c] = null(columnar.TInt64)
			}
		}
		wideRows = append(wideRows, row)
	}
	out = append(out, shape{name: "wide", types: wide, rows: wideRows})
	return out
}

// TestMaps runs every key shape through its Map at every batch size.
func TestMaps(t *testing.T) {
	for _, s := range shapes() {
		for _, n := range batchSizes {
			t.Run(fmt.Sprintf("%s/batch=%d", s.name, n), func(t *testing.T) {
				checkMap(t, s.types, s.rows, n, s.coded, s.absent)
			})
		}
	}
}

// TestMapChoice: New picks the implementation by key shape.
func TestMapChoice(t *testing.T) {
	for _, c := range []struct {
		types []columnar.Type
		want  string
	}{
		{[]columnar.Type{columnar.TInt32}, "*hashtab.intMap"},
		{[]columnar.Type{columnar.TBool}, "*hashtab.intMap"},
		{[]columnar.Type{columnar.TDate}, "*hashtab.intMap"},
		{[]columnar.Type{columnar.TVarchar}, "*hashtab.strMap"},
		{[]columnar.Type{columnar.TFloat64}, "*hashtab.compositeKeys"},
		{[]columnar.Type{columnar.TInt64, columnar.TVarchar}, "*hashtab.compositeKeys"},
		{make([]columnar.Type, 64), "*hashtab.encodedMap"},
	} {
		if got := fmt.Sprintf("%T", New(c.types)); got != c.want {
			t.Errorf("New(%v) is %s, want %s", c.types, got, c.want)
		}
	}
}

// TestConstKeys: a Const key vector is one value for every row.
func TestConstKeys(t *testing.T) {
	for _, types := range [][]columnar.Type{{columnar.TInt64}, {columnar.TVarchar}, {columnar.TInt64, columnar.TVarchar}} {
		m := New(types)
		b := &columnar.Batch{Len: 5}
		keys := make([]*columnar.Vector, len(types))
		for c, ty := range types {
			if ty.Phys() == columnar.PhysBytes {
				keys[c] = columnar.ConstVector(str("same"))
			} else {
				keys[c] = columnar.ConstVector(i64(42))
			}
		}
		gids := make([]int32, 5)
		rows := m.Assign(b, keys, gids)
		if !slices.Equal(rows, []int{0}) || !slices.Equal(gids, []int32{0, 0, 0, 0, 0}) || m.Len() != 1 {
			t.Fatalf("%v: new rows %v, ids %v, len %d", types, rows, gids, m.Len())
		}
	}
}

var packedTypes = []columnar.Type{columnar.TInt64, columnar.TInt64, columnar.TVarchar}

// packedRows are keys whose packed layout widens as they come: small a,
// b in 100..103 (a base of 100) and three strings; then b below the base,
// a up to 200 (too few distinct values in a first batch to lead), NULLs in
// every column and new strings; then negative a;
// then b of 62 bits, past what one word holds with the rest (the groups
// move to the word table).
func packedRows(rng *rand.Rand) [][]columnar.Value {
	var rows [][]columnar.Value
	for i := range 2000 {
		a, b, s := i64(int64(i%4)), i64(100+int64(i%4)), str(fmt.Sprint("s", i%3))
		switch {
		case i >= 1500:
			b = i64(int64(rng.Uint64() >> 2))
		case i >= 1000:
			a = i64(-int64(i % 5))
		case i >= 500:
			a, b, s = i64(int64(rng.IntN(200))), i64(50+int64(i%60)), str(fmt.Sprint("t", i%40))
			switch i % 13 {
			case 0:
				a = null(columnar.TInt64)
			case 1:
				b = null(columnar.TInt64)
			case 2:
				s = null(columnar.TVarchar)
			}
		}
		rows = append(rows, []columnar.Value{a, b, s})
	}
	return rows
}

// TestPackedKinds: keys that fit one word are packed, stay packed as the
// layout widens, and leave for the word table when past 64 bits.
func TestPackedKinds(t *testing.T) {
	rows := packedRows(rand.New(rand.NewPCG(1, 2)))
	m := New(packedTypes)
	for _, step := range []struct {
		end  int
		want string
	}{{500, "composite+packed"}, {1000, "composite+packed"}, {1500, "composite+packed"}, {2000, "composite"}} {
		for off := step.end - 500; off < step.end; off += 100 {
			b := batchOf(packedTypes, rows[off:off+100], false, nil)
			m.Assign(b, b.Cols, make([]int32, b.Len))
		}
		if got := Kind(m); got != step.want {
			t.Fatalf("after %d rows: %s, want %s", step.end, got, step.want)
		}
	}
	// The first batch of a, b in 0..3, 100..103 and three string ids
	// packs into 2 + 2 + 2 bits (b from its base of 100).
	m = New(packedTypes)
	b := batchOf(packedTypes, rows[:100], false, nil)
	m.Assign(b, b.Cols, make([]int32, b.Len))
	p := m.(*compositeKeys).packed
	if !slices.Equal(p.width, []uint{0, 2, 2, 2}) || p.base[2] != 100 {
		t.Fatalf("layout widths %v bases %v", p.width, p.base)
	}
}
