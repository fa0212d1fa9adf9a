package parquet

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// The footer: a Parquet file ends with the Thrift-encoded FileMetaData, its
// length (4 bytes, little-endian) and the magic "PAR1", or "PARE" when the
// footer itself is encrypted (Parquet modular encryption).
//
// readMetadata reads and checks the footer before arrow-go decodes it,
// because arrow-go trusts it: a schema element claiming 2^31 children makes
// it size a slice from that count, and a logical type it does not know (a
// newer format version's) makes it panic. checkFooter walks the Thrift
// bytes (thrift.go), refusing what cannot be true and leaving out logical
// types this reader does not know, so that their columns read as their
// physical type, as DuckDB and Arrow C++ do; each one left out is a
// warning (Table.Warnings).

var (
	magicPlain     = []byte("PAR1")
	magicEncrypted = []byte("PARE")
)

// readMetadata reads the footer of the size-byte file r.
func readMetadata(r io.ReaderAt, size int64) (meta *metadata.FileMetaData, warnings []string, err error) {
	if size < 12 {
		return nil, nil, corruptf("%d bytes is too small for a Parquet file (at least 12: magic, footer length, magic)", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, nil, corruptf("reading the footer length: %v", err)
	}
	switch {
	case bytes.Equal(tail[4:], magicEncrypted):
		return nil, nil, fmt.Errorf("%w: encrypted file (Parquet modular encryption with an encrypted footer); b2sql does not decrypt", ErrUnsupported)
	case !bytes.Equal(tail[4:], magicPlain):
		return nil, nil, corruptf("no PAR1 magic at the end of the file (found %q)", tail[4:])
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return nil, nil, corruptf("footer length %d does not fit in the %d-byte file with its leading magic", n, size)
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-8-n); err != nil {
		return nil, nil, corruptf("reading the %d-byte footer: %v", n, err)
	}
	buf, warnings, err = checkFooter(buf)
	if err != nil {
		return nil, nil, err
	}
	meta, err = newFileMetaData(buf)
	if err != nil {
		return nil, nil, err
	}
	meta.SetSourceFileSize(size - 8 - n)
	return meta, warnings, nil
}

// newFileMetaData decodes a checked footer with arrow-go.
func newFileMetaData(buf []byte) (meta *metadata.FileMetaData, err error) {
	defer recoverCorrupt(&err)
	meta, err = metadata.NewFileMetaData(buf, nil)
	if err != nil {
		return nil, corruptf("footer: %v", err)
	}
	return meta, nil
}

// Field ids of FileMetaData, SchemaElement and LogicalType (parquet.thrift).
const (
	fmdSchema = 2

	seType        = 1
	seName        = 4
	seNumChildren = 5
	seLogicalType = 10

	ltTime      = 7
	ltTimestamp = 8
	tmUnit      = 2
)

// knownLogical reports whether id is a LogicalType member arrow-go v18.8
// decodes: STRING … TIMESTAMP (1-8), INTEGER … GEOGRAPHY (10-18).
func knownLogical(id int16) bool { return id >= 1 && id <= 18 && id != 9 }

// schemaElem is what checkFooter learns of one schema element.
type schemaElem struct {
	name     string
	typ      int64 // physical type; -1 if not set
	children int64 // -1 if not set
	unknown  int16 // Thrift id of an unknown logical type left out, or 0
}

// checkFooter checks the FileMetaData in buf and returns it, re-encoded
// without the logical types arrow-go does not know (buf itself when there
// are none), with a warning for each.
func checkFooter(buf []byte) ([]byte, []string, error) {
	c := &compactCopier{in: buf, out: make([]byte, 0, len(buf))}
	var elems []schemaElem
	dropped := false
	err := c.copyStruct(func(typ byte, id int16, emit func()) (bool, error) {
		if id != fmdSchema || typ != ctList {
			return false, nil
		}
		emit()
		start := c.pos
		n, et, err := c.listHeader()
		if err != nil {
			return true, err
		}
		if et != ctStruct {
			return true, c.errf("schema is a list of Thrift type %d, not of structs", et)
		}
		c.out = append(c.out, c.in[start:c.pos]...)
		// Every element takes at least one byte (an empty struct), so the
		// rest of the footer bounds how many there can be.
		elems = make([]schemaElem, 0, min(n, len(c.in)-c.pos))
		for range n {
			e, err := c.schemaElement()
			if err != nil {
				return true, err
			}
			dropped = dropped || e.unknown != 0
			elems = append(elems, e)
		}
		return true, nil
	})
	if err != nil {
		return nil, nil, err
	}
	warnings, err := checkSchemaTree(elems)
	if err != nil {
		return nil, nil, err
	}
	if !dropped {
		return buf, warnings, nil
	}
	return c.out, warnings, nil
}

// schemaElement copies one SchemaElement, leaving out an unknown logical
// type.
func (c *compactCopier) schemaElement() (schemaElem, error) {
	e := schemaElem{typ: -1, children: -1}
	err := c.copyStruct(func(typ byte, id int16, emit func()) (bool, error) {
		switch {
		case id == seType && typ == ctI32, id == seNumChildren && typ == ctI32:
			emit()
			start := c.pos
			v, err := c.varint()
			c.out = append(c.out, c.in[start:c.pos]...)
			if id == seType {
				e.typ = v
			} else {
				e.children = v
			}
			return true, err
		case id == seName && typ == ctBinary:
			emit()
			start := c.pos
			err := c.skip(ctBinary, false)
			c.out = append(c.out, c.in[start:c.pos]...)
			if err == nil {
				s := c.in[start:c.pos]
				_, k := binary.Uvarint(s)
				e.name = string(s[k:])
			}
			return true, err
		case id == seLogicalType && typ == ctStruct:
			member, known, err := c.logicalMember()
			if err != nil {
				return true, err
			}
			if known {
				return false, nil
			}
			e.unknown = member
			return true, c.skip(ctStruct, false)
		}
		return false, nil
	})
	return e, err
}

// logicalMember looks at the LogicalType union at c.pos without moving:
// the id of its member, and whether arrow-go knows it (for TIME and
// TIMESTAMP, also their unit: MILLIS, MICROS or NANOS).
func (c *compactCopier) logicalMember() (member int16, known bool, err error) {
	save := c.pos
	defer func() { c.pos = save }()
	err = c.fields(func(t byte, id int16) error {
		member = id
		known = t == ctStruct && knownLogical(id)
		if known && (id == ltTime || id == ltTimestamp) {
			var err error
			known, err = c.timeUnitKnown()
			return err
		}
		return c.skip(t, false)
	})
	return member, known, err
}

// timeUnitKnown reads a TimeType or TimestampType struct and reports
// whether its unit is one of MILLIS (1), MICROS (2), NANOS (3).
func (c *compactCopier) timeUnitKnown() (known bool, err error) {
	err = c.fields(func(t byte, id int16) error {
		if id != tmUnit || t != ctStruct {
			return c.skip(t, false)
		}
		start := c.pos
		if err := c.skip(ctStruct, false); err != nil {
			return err
		}
		end := c.pos
		c.pos = start
		u, uid, err := c.field(0)
		known = u == ctStruct && uid >= 1 && uid <= 3
		c.pos = end
		return err
	})
	return known, err
}

// checkSchemaTree checks that the schema elements (a depth-first list,
// each group followed by its children) form one tree whose leaves have a
// physical type, and returns a warning per unknown logical type left out.
func checkSchemaTree(elems []schemaElem) ([]string, error) {
	if len(elems) == 0 {
		return nil, corruptf("footer has no schema")
	}
	var warnings []string
	open := int64(1) // elements the tree still expects
	for i, e := range elems {
		if open == 0 {
			return nil, corruptf("schema element %d (%q) lies outside the schema tree", i, e.name)
		}
		open--
		follow := int64(len(elems) - i - 1)
		if e.children < -1 || e.children > follow-open {
			return nil, corruptf("schema element %d (%q) has %d children, but %d elements follow for them", i, e.name, e.children, follow-open)
		}
		if e.children > 0 {
			open += e.children
			continue
		}
		if i == 0 {
			continue // a root without children: a schema of no columns
		}
		if e.typ < 0 || e.typ > int64(parquet.Types.FixedLenByteArray) {
			if e.typ == -1 {
				return nil, corruptf("column %q has no physical type", e.name)
			}
			return nil, corruptf("column %q has physical type %d, which is not a Parquet type", e.name, e.typ)
		}
		if e.unknown != 0 {
			warnings = append(warnings, fmt.Sprintf("column %q: unknown logical type (LogicalType member %d), read as its physical type %s",
				e.name, e.unknown, parquet.Type(e.typ)))
		}
	}
	if open > 0 {
		return nil, corruptf("schema ends %d elements short of its tree", open)
	}
	return warnings, nil
}
