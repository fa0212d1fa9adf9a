package parquet

import (
	"encoding/binary"
	"fmt"
)

// compactCopier walks Thrift compact-protocol bytes (the encoding of every
// Parquet footer and page header) and copies them to out, field by field,
// so that a caller can check fields and leave some out. Leaving a field out
// is why the walk re-encodes field headers: a compact field header holds
// the distance from the previous field's id, which changes when a field in
// between goes. Values are copied byte for byte.
//
// The walk is the allocation bound of footer decoding: it refuses a
// container (list, set, map, binary) whose element count could not fit in
// the bytes left, and nesting deeper than maxThriftDepth, before arrow-go's
// generated decoder sizes a slice from such a count.
type compactCopier struct {
	in    []byte
	pos   int
	out   []byte
	depth int
	hdr   int // position of the last field header read
}

// Thrift compact-protocol type ids.
const (
	ctStop   = 0
	ctTrue   = 1
	ctFalse  = 2
	ctByte   = 3
	ctI16    = 4
	ctI32    = 5
	ctI64    = 6
	ctDouble = 7
	ctBinary = 8
	ctList   = 9
	ctSet    = 10
	ctMap    = 11
	ctStruct = 12
	ctUUID   = 13
)

// maxThriftDepth bounds struct and container nesting. Parquet's deepest
// footer path (FileMetaData → RowGroup → ColumnChunk → ColumnMetaData →
// Statistics / GeospatialStatistics …) is under ten levels.
const maxThriftDepth = 32

func (c *compactCopier) remaining() int { return len(c.in) - c.pos }

func (c *compactCopier) errf(format string, args ...any) error {
	return corruptf("footer at byte %d: %s", c.pos, fmt.Sprintf(format, args...))
}

func (c *compactCopier) byte1() (byte, error) {
	if c.pos >= len(c.in) {
		return 0, c.errf("ends inside a value")
	}
	b := c.in[c.pos]
	c.pos++
	return b, nil
}

func (c *compactCopier) uvarint() (uint64, error) {
	v, n := binary.Uvarint(c.in[c.pos:])
	if n <= 0 {
		return 0, c.errf("bad varint")
	}
	c.pos += n
	return v, nil
}

// varint reads a zigzag-encoded integer (i16, i32, i64).
func (c *compactCopier) varint() (int64, error) {
	u, err := c.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// field reads a field header: its type (ctStop at the end of a struct)
// and id, given the id of the previous field.
func (c *compactCopier) field(last int16) (typ byte, id int16, err error) {
	c.hdr = c.pos
	b, err := c.byte1()
	if err != nil || b&0x0f == ctStop { // Thrift reads any type-0 header as the end
		return ctStop, 0, err
	}
	typ = b & 0x0f
	if d := int16(b >> 4); d != 0 {
		return typ, last + d, nil
	}
	v, err := c.varint()
	if err != nil {
		return 0, 0, err
	}
	if v < -1<<15 || v >= 1<<15 {
		return 0, 0, c.errf("field id %d out of range", v)
	}
	return typ, int16(v), nil
}

// putField appends a field header for id after the field last.
func (c *compactCopier) putField(typ byte, id, last int16) {
	if d := int(id) - int(last); d > 0 && d <= 15 {
		c.out = append(c.out, byte(d)<<4|typ)
		return
	}
	c.out = append(c.out, typ)
	c.out = binary.AppendUvarint(c.out, uint64(int64(id)<<1^int64(id)>>15))
}

// copyValue copies one value of type typ (a field's: booleans are in the
// field header and take no bytes).
func (c *compactCopier) copyValue(typ byte) error {
	start := c.pos
	if err := c.skip(typ, false); err != nil {
		return err
	}
	c.out = append(c.out, c.in[start:c.pos]...)
	return nil
}

// skip moves past one value; inList means a list element, where booleans
// take one byte.
func (c *compactCopier) skip(typ byte, inList bool) error {
	switch typ {
	case ctTrue, ctFalse:
		if inList {
			_, err := c.byte1()
			return err
		}
		return nil
	case ctByte:
		_, err := c.byte1()
		return err
	case ctI16, ctI32, ctI64:
		_, err := c.uvarint()
		return err
	case ctDouble, ctUUID:
		n := 8
		if typ == ctUUID {
			n = 16
		}
		if c.remaining() < n {
			return c.errf("ends inside a value")
		}
		c.pos += n
		return nil
	case ctBinary:
		n, err := c.uvarint()
		if err != nil {
			return err
		}
		if n > uint64(c.remaining()) {
			return c.errf("string of %d bytes, %d left", n, c.remaining())
		}
		c.pos += int(n)
		return nil
	case ctList, ctSet:
		n, elem, err := c.listHeader()
		if err != nil {
			return err
		}
		return c.nested(func() error {
			for range n {
				if err := c.skip(elem, true); err != nil {
					return err
				}
			}
			return nil
		})
	case ctMap:
		n, err := c.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := c.byte1()
		if err != nil {
			return err
		}
		if n > uint64(c.remaining())/2 {
			return c.errf("map of %d entries, %d bytes left", n, c.remaining())
		}
		return c.nested(func() error {
			for range n {
				if err := c.skip(kv>>4, true); err != nil {
					return err
				}
				if err := c.skip(kv&0x0f, true); err != nil {
					return err
				}
			}
			return nil
		})
	case ctStruct:
		return c.fields(func(t byte, _ int16) error { return c.skip(t, false) })
	}
	return c.errf("unknown Thrift type %d", typ)
}

// listHeader reads a list or set header: its element count, checked
// against the bytes left (every element takes at least one), and type.
func (c *compactCopier) listHeader() (n int, elem byte, err error) {
	b, err := c.byte1()
	if err != nil {
		return 0, 0, err
	}
	size, elem := uint64(b>>4), b&0x0f
	if size == 15 {
		if size, err = c.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	min := uint64(1)
	if elem == ctDouble {
		min = 8
	}
	if size > uint64(c.remaining())/min {
		return 0, 0, c.errf("list of %d elements, %d bytes left", size, c.remaining())
	}
	return int(size), elem, nil
}

// fields walks a struct, calling f for each field, which must consume the
// field's value.
func (c *compactCopier) fields(f func(typ byte, id int16) error) error {
	return c.nested(func() error {
		var last int16
		for {
			t, id, err := c.field(last)
			if err != nil || t == ctStop {
				return err
			}
			if err := f(t, id); err != nil {
				return err
			}
			last = id
		}
	})
}

// nested runs f one nesting level deeper.
func (c *compactCopier) nested(f func() error) error {
	if c.depth++; c.depth > maxThriftDepth {
		return c.errf("nested deeper than %d", maxThriftDepth)
	}
	err := f()
	c.depth--
	return err
}

// copyStruct copies a struct, handing each field to edit first: edit
// returns handled true when it consumed the value (and wrote it to out, or
// not, through emit), false to have the field copied unchanged.
func (c *compactCopier) copyStruct(edit func(typ byte, id int16, emit func()) (handled bool, err error)) error {
	return c.nested(func() error {
		var last, lastOut int16
		for {
			t, id, err := c.field(last)
			if err != nil {
				return err
			}
			if t == ctStop {
				c.out = append(c.out, ctStop)
				return nil
			}
			last = id
			emit := func() { c.putField(t, id, lastOut); lastOut = id }
			handled, err := edit(t, id, emit)
			if err != nil {
				return err
			}
			if !handled {
				emit()
				if err := c.copyValue(t); err != nil {
					return err
				}
			}
		}
	})
}
