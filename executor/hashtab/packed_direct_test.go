package hashtab

import (
	"fmt"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// directRows are NULL-free keys (an integer, a boolean, a coded string)
// whose first 600 rows stay in the layout the first batch sets (so later
// batches pack straight from the vectors), then an integer below the base,
// a new string and a wider integer (each widening the layout).
func directRows() [][]columnar.Value {
	var rows [][]columnar.Value
	for i := range 1200 {
		a := int64(100 + i%4)
		s := fmt.Sprint("s", i%3)
		switch {
		case i >= 1000:
			a = int64(i * 1000)
		case i >= 800:
			s = fmt.Sprint("t", i%7)
		case i >= 600:
			a = int64(90 + i%4)
		}
		rows = append(rows, []columnar.Value{i64(a), columnar.BoolValue(i%5 == 0), str(s)})
	}
	return rows
}

var directTypes = []columnar.Type{columnar.TInt64, columnar.TBool, columnar.TVarchar}

// TestPackDirect: ids, new rows and keys agree with a Go map whether a
// batch packs from its vectors or through the words (checkMap; odd
// batches carry a selection and take the words).
func TestPackDirect(t *testing.T) {
	rows := directRows()
	for _, n := range []int{100, 7} {
		checkMap(t, directTypes, rows, n, []bool{false, false, true}, nil)
		checkMap(t, directTypes, rows, n, nil, nil)
	}
}

// TestPackDirectTaken: once the layout is set, a batch within it packs
// from its vectors; one outside it does not (and fit widens the layout).
func TestPackDirectTaken(t *testing.T) {
	rows := directRows()
	coded := []bool{false, false, true}
	m := New(directTypes).(*compositeKeys)
	b := batchOf(directTypes, rows[:100], false, coded)
	m.Assign(b, b.Cols, make([]int32, b.Len))
	p := m.packed
	if p == nil || p.ig == nil {
		t.Fatal("keys not packed after the first batch")
	}
	b = batchOf(directTypes, rows[100:200], false, coded)
	m.Assign(b, b.Cols, make([]int32, b.Len)) // interns this batch's codes
	if !p.packDirect(m, b, b.Cols) {
		t.Fatal("a batch within the layout did not pack from its vectors")
	}
	b = batchOf(directTypes, rows[600:700], false, coded)
	if p.packDirect(m, b, b.Cols) {
		t.Fatal("an integer below the base packed from its vectors")
	}
}

// TestPackDirectSharedDict: batches whose string key shares one
// dictionary (as a scan's batches of one row group do) pack from their
// vectors after the first; every id agrees with a Go map, also when every
// other batch carries a selection and goes through the words.
func TestPackDirectSharedDict(t *testing.T) {
	rows := directRows()
	d := dict.New("s0", "s1", "s2", "t0", "t1", "t2", "t3", "t4", "t5", "t6")
	for _, sel := range []bool{false, true} {
		m := New(directTypes).(*compositeKeys)
		ref := map[string]int32{}
		direct := 0
		for off := 0; off < len(rows); off += 50 {
			chunk := rows[off : off+50]
			odd := sel && off/50%2 == 1
			b := batchOf(directTypes, chunk, odd, nil)
			v := b.Cols[2]
			codes := dict.Set(v, d, b.Len)
			for r := range b.Len {
				codes[r] = d.Find(v.Bytes[r])
			}
			v.Bytes = nil
			if m.packed != nil && m.packed.packDirect(m, b, b.Cols) {
				direct++
			}
			gids := make([]int32, b.Len)
			m.Assign(b, b.Cols, gids)
			for k, row := range chunk {
				i := b.Row(k)
				key := refKey(row)
				g, ok := ref[key]
				if !ok {
					g = int32(len(ref))
					ref[key] = g
				}
				if gids[i] != g {
					t.Fatalf("sel %v row %d %v: id %d, want %d", sel, off+k, row, gids[i], g)
				}
			}
		}
		if direct == 0 {
			t.Fatalf("sel %v: no batch packed from its vectors", sel)
		}
	}
}

// TestPackDirectBoolOutside: a boolean key whose first batch is all false
// gets a field of no bits; a later batch with a true must not pack from
// its vectors (its field is checked before the rows), and every id, new
// row and key still agrees with a Go map as the layout widens.
func TestPackDirectBoolOutside(t *testing.T) {
	types := []columnar.Type{columnar.TInt64, columnar.TBool}
	var rows [][]columnar.Value
	for i := range 400 {
		rows = append(rows, []columnar.Value{i64(int64(i % 6)), columnar.BoolValue(i >= 100 && i%3 == 0)})
	}
	m := New(types).(*compositeKeys)
	b := batchOf(types, rows[:100], false, nil)
	m.Assign(b, b.Cols, make([]int32, b.Len))
	if b = batchOf(types, rows[100:200], false, nil); m.packed.packDirect(m, b, b.Cols) {
		t.Fatal("a true packed from its vectors into a field of no bits")
	}
	for _, n := range []int{100, 7} {
		checkMap(t, types, rows, n, nil, nil)
	}
}
