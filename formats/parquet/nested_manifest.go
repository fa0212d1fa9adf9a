package parquet

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// arrow-go maps a file's schema to Arrow all at once
// (pqarrow.NewSchemaManifest): one top-level field it refuses (a LIST group
// of two children, a MAP with an OPTIONAL key) fails the whole manifest,
// and with it every nested column of the file. fieldManifests maps the
// fields one by one instead. The nested columns are then read through a
// second file reader over the same bytes whose schema is the file's with
// the refused fields' annotations removed: the same leaves in the same
// order with the same levels, so every other field maps, and reads, as
// in the file.

// fieldManifests returns the manifest of sc's fields with each field
// arrow-go refuses (by top-level index, with its error, in refused)
// mapped as plain groups, and the schema that manifest describes (sc with
// those annotations removed). m is nil when even that does not map (a
// leaf arrow-go cannot read).
func fieldManifests(sc *schema.Schema) (m *pqarrow.SchemaManifest, plain *schema.Schema, refused map[int]error) {
	defer func() {
		if recover() != nil {
			m, plain = nil, nil
		}
	}()
	elems := schema.ToThrift(sc.Root())
	// spans[i] is the element range of top-level field i (elems[0] is the
	// root group).
	var spans [][2]int
	var subtree func(i int) int // the end of the subtree starting at elems[i]
	subtree = func(i int) int {
		end := i + 1
		for range elems[i].GetNumChildren() {
			end = subtree(end)
		}
		return end
	}
	for at := 1; at < len(elems); {
		end := subtree(at)
		spans = append(spans, [2]int{at, end})
		at = end
	}
	refused = map[int]error{}
	props := &pqarrow.ArrowReadProperties{}
	for i, sp := range spans {
		root := *elems[0]
		one := int32(1)
		root.NumChildren = &one
		// (elems[:0:0]: a new slice of the element type, which arrow-go
		// keeps internal.)
		part := append(append(elems[:0:0], &root), elems[sp[0]:sp[1]]...)
		n, err := schema.FromParquet(part)
		if err != nil {
			refused[i] = err
			continue
		}
		if _, err := pqarrow.NewSchemaManifest(schema.NewSchema(n.(*schema.GroupNode)), nil, props); err != nil {
			refused[i] = err
		}
	}
	stripped := append(elems[:0:0], elems...)
	for i, e := range stripped {
		c := *e
		stripped[i] = &c
	}
	for i := range refused {
		for _, e := range stripped[spans[i][0]:spans[i][1]] {
			e.ConvertedType, e.LogicalType = nil, nil
		}
	}
	n, err := schema.FromParquet(stripped)
	if err != nil {
		return nil, nil, refused
	}
	plain = schema.NewSchema(n.(*schema.GroupNode))
	if m, err = pqarrow.NewSchemaManifest(plain, nil, props); err != nil {
		return nil, nil, refused
	}
	return m, plain, refused
}

// newArrowReader is pqarrow.NewFileReader over pf, falling back to a
// reader of the file with its refused fields' annotations removed
// (fieldManifests) when arrow-go cannot map the file's own schema.
func newArrowReader(pf *pqFile, props pqarrow.ArrowReadProperties, mem memory.Allocator) (*pqarrow.FileReader, error) {
	fr, err := pqarrow.NewFileReader(pf.rdr, props, mem)
	if err == nil {
		return fr, nil
	}
	_, plain, _ := fieldManifests(pf.meta.Schema)
	if plain == nil {
		return nil, err
	}
	meta := *pf.meta
	meta.Schema = plain
	rdr, rerr := file.NewParquetReader(io.NewSectionReader(pf.src, 0, pf.size), file.WithReadProps(readProps()), file.WithMetadata(&meta))
	if rerr != nil {
		return nil, err
	}
	return pqarrow.NewFileReader(rdr, props, mem)
}
