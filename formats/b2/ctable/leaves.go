package ctable

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// Struct columns as dotted leaf columns. python-blosc2 stores a struct
// column it imports from Arrow (CTable.from_arrow, from_parquet) as one
// physical column per leaf, named by the leaf's dotted path (trip.lon in
// _cols/trip/lon.b2nd, trip.begin.lat in _cols/trip/begin/lat.b2nd), and
// records the struct itself in the schema's metadata.struct_parents
// ({"trip": {"kind": "struct", "fields": […], "nullable": …}}). It shows
// trip as a struct: None in a row where every leaf is null, else a dict
// of its leaves, sub-structs as dicts of theirs (CTable._StructPathColumn).
//
// b2sql reads such a table the same way: trip is one STRUCT column, at the
// place of its first leaf, assembled from the leaves (flLeaves: no storage
// of its own), NULL where every leaf is NULL. Each leaf is also a hidden
// column (FieldColumn, planner.FieldColumner), so that trip.lon reads one
// leaf column, with its SUMMARY index for filters. A struct_parents entry
// that does not match the leaves (a field without a leaf column, a leaf
// that is no field, a leaf of a kind the reader leaves out) is ignored:
// the leaves stay flat columns named trip.lon, as python-blosc2 shows a
// table saved before it wrote struct_parents.
//
// The writer stores a STRUCT column the same way (leafWriter).

// splitName splits a column name into its dotted path segments (a
// backslash escapes a dot, spec §6.1).
func splitName(name string) []string {
	var segs []string
	var cur strings.Builder
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '\\' && i+1 < len(name) && name[i+1] == '.':
			cur.WriteByte('.')
			i++
		case c == '.':
			segs = append(segs, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(segs, cur.String())
}

// structLeaves is what a flLeaves column reads: its leaf columns, each
// with the path of field indexes from the STRUCT down to it.
type structLeaves struct {
	srcs  []*colSource
	idx   []int // the srcs' indexes in Table.srcs
	paths [][]int
}

// leafGroup is a struct parent whose leaves match its fields.
type leafGroup struct {
	spec   colSpec
	typ    columnar.Type
	leaves []int                    // manifest column indexes, in manifest order
	paths  [][]int                  // per leaf: its field indexes
	types  map[string]columnar.Type // per leaf path (fmt.Sprint): its type
	bad    bool                     // a leaf is no field or cannot be read
}

// leafGroups matches the manifest's leaf columns to its struct parents
// and returns the groups that match, and per manifest column the group
// it is a leaf of.
func leafGroups(m *manifest) (groups map[string]*leafGroup, leafOf map[int]string) {
	if len(m.Parents) == 0 {
		return nil, nil
	}
	groups, leafOf = map[string]*leafGroup{}, map[int]string{}
	for i, cs := range m.Cols {
		segs := splitName(cs.Name)
		p, ok := m.Parents[segs[0]]
		if !ok || len(segs) < 2 {
			continue
		}
		g := groups[segs[0]]
		if g == nil {
			g = &leafGroup{spec: p, types: map[string]columnar.Type{}}
			groups[segs[0]] = g
		}
		_, ts := cs.sqlTypes()
		path, ok := fieldPath(p.Nest, segs[1:])
		if cs.Flavour == flSkipped || len(ts) != 1 || !ok {
			g.bad = true
			continue
		}
		g.leaves = append(g.leaves, i)
		g.paths = append(g.paths, path)
		g.types[fmt.Sprint(path)] = ts[0]
	}
	for name, g := range groups {
		t, ok := leafType(g.spec.Nest, nil, g.types)
		if !ok || g.bad || len(g.types) != len(g.leaves) {
			delete(groups, name)
			continue
		}
		g.typ = t
		for _, i := range g.leaves {
			leafOf[i] = name
		}
	}
	return groups, leafOf
}

// fieldPath returns the field indexes of the leaf named by segs in the
// struct kind tree n: a field that is not itself a struct.
func fieldPath(n *nest, segs []string) ([]int, bool) {
	var path []int
	for i, s := range segs {
		if n == nil || n.kind != "struct" {
			return nil, false
		}
		f := -1
		for j, nf := range n.fields {
			if nf.name == s {
				f = j
				break
			}
		}
		if f < 0 {
			return nil, false
		}
		path = append(path, f)
		n = n.fields[f].n
		if i == len(segs)-1 && n.kind == "struct" {
			return nil, false
		}
	}
	return path, true
}

// leafType is the STRUCT type of n with each leaf of the types its leaf
// column reads (types, by path); false when a leaf has no column.
func leafType(n *nest, path []int, types map[string]columnar.Type) (columnar.Type, bool) {
	if n.kind != "struct" {
		t, ok := types[fmt.Sprint(path)]
		return t, ok
	}
	fs := make([]columnar.Field, len(n.fields))
	for i, f := range n.fields {
		t, ok := leafType(f.n, append(path[:len(path):len(path)], i), types)
		if !ok {
			return columnar.Type{}, false
		}
		fs[i] = columnar.Field{Name: f.name, Type: t}
	}
	return columnar.StructOf(fs...), true
}

// open opens every leaf column.
func (l *structLeaves) open(st store, nphys int64) error {
	for _, s := range l.srcs {
		if err := s.open(st, nphys); err != nil {
			return err
		}
	}
	return nil
}

// estimate is the sum of the leaves' row widths and their mean ratio.
func (l *structLeaves) estimate() (ratio, rowBytes float64) {
	var cb float64
	for _, s := range l.srcs {
		rowBytes += s.rowBytes
		cb += s.rowBytes * s.ratio
	}
	if rowBytes > 0 {
		ratio = cb / rowBytes
	}
	return ratio, rowBytes
}

// read fills the STRUCT vector v (Reset to n rows) with physical rows
// [lo, lo+n): each leaf straight into its field's vector, then NULL rows
// where every leaf is NULL. Each leaf reads with storage of its own
// (a fresh outBatch per read), which the batch then keeps.
func (l *structLeaves) read(d *b2.Decoder, sc *colScratch, lo int64, n int, v *columnar.Vector) (string, error) {
	if len(sc.leaves) != len(l.srcs) {
		sc.leaves = make([]colScratch, len(l.srcs))
	}
	kids := make([]*columnar.Vector, len(l.srcs))
	for k, s := range l.srcs {
		kv := v
		for _, p := range l.paths[k] {
			kv = kv.Kids[p]
		}
		kids[k] = kv
		ob := &outBatch{arenas: make([][]byte, 1), aux: make([][]byte, 1), owned: make([]ownedPayload, 1)}
		if err := s.read(d, &sc.leaves[k], lo, n, 0, kv, ob, 0); err != nil {
			return s.member(), err
		}
	}
	for r := range n {
		null := true
		for _, kv := range kids {
			if !kv.IsNull(r) {
				null = false
				break
			}
		}
		if null {
			v.SetValue(r, n, columnar.NullValue(v.Type)) // and NULL fields
		}
	}
	return "", nil
}
