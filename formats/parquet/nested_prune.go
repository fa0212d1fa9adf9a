package parquet

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// A nested column that reads only some leaves of its top-level field (a
// STRUCT field read on its own, fields.go) asks arrow-go's reader for
// those leaves, but arrow-go turns its leaf filter off under a MAP (a map
// array needs both its key and value), so every MAP beside the field, at
// any depth, would be read and decoded whole: count(s.ls) of a STRUCT
// holding an 8 MiB MAP decoded the map. onlyLeaves instead hands arrow-go
// the field with every subtree that holds none of the leaves taken out,
// so nothing but those leaves is read, whatever the type beside them.

// onlyLeaves returns fr, or a copy of it whose top-level field field
// keeps only the subtrees holding a leaf of leaves (a map of leaf column
// indexes). The copy shares fr's file and buffers; only the manifest
// entry of that field differs.
func onlyLeaves(fr *pqarrow.FileReader, field int, leaves map[int]bool) *pqarrow.FileReader {
	if field < 0 || field >= len(fr.Manifest.Fields) {
		return fr
	}
	sf, keep := pruneField(fr.Manifest.Fields[field], leaves)
	if !keep || sf.Field == fr.Manifest.Fields[field].Field {
		return fr // nothing to take out (or nothing left: arrow-go reports it)
	}
	m := *fr.Manifest
	m.Fields = append(m.Fields[:0:0], m.Fields...)
	m.Fields[field] = sf
	out := *fr
	out.Manifest = &m
	return &out
}

// pruneField returns sf without its children that hold none of leaves,
// and whether sf holds any. Only a STRUCT loses children (its type is
// rebuilt from the kept ones, as arrow-go's struct reader builds it);
// any other node holding a leaf is kept whole, since a list's or a map's
// leaves are all read together or not at all.
func pruneField(sf pqarrow.SchemaField, leaves map[int]bool) (pqarrow.SchemaField, bool) {
	if sf.IsLeaf() {
		return sf, leaves[sf.ColIndex]
	}
	kids := make([]pqarrow.SchemaField, 0, len(sf.Children))
	for _, c := range sf.Children {
		if p, ok := pruneField(c, leaves); ok {
			kids = append(kids, p)
		}
	}
	if len(kids) == 0 {
		return sf, false
	}
	if sf.Field.Type.ID() != arrow.STRUCT {
		return sf, true
	}
	same := len(kids) == len(sf.Children)
	for i := 0; same && i < len(kids); i++ {
		same = kids[i].Field == sf.Children[i].Field
	}
	if same {
		return sf, true
	}
	fields := make([]arrow.Field, len(kids))
	for i, k := range kids {
		fields[i] = *k.Field
	}
	f := *sf.Field
	f.Type = arrow.StructOf(fields...)
	sf.Field = &f
	sf.Children = kids
	return sf, true
}
