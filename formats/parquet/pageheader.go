package parquet

// Page types and the PageHeader fields that hold each one's sub-header
// (parquet.thrift).
const (
	phType       = 1
	phDataPage   = 5
	phDictPage   = 7
	pageData     = 0
	pageDict     = 2
	pageDataV2   = 3
	subHeaderMax = phDataPageV2
)

var pageTypeNames = map[int64]struct{ page, sub string }{
	pageData:   {"DATA_PAGE", "data_page_header"},
	pageDict:   {"DICTIONARY_PAGE", "dictionary_page_header"},
	pageDataV2: {"DATA_PAGE_V2", "data_page_header_v2"},
}

// subHeaderField is the PageHeader field id of a page type's sub-header.
func subHeaderField(typ int64) int16 {
	switch typ {
	case pageData:
		return phDataPage
	case pageDict:
		return phDictPage
	}
	return phDataPageV2
}

// checkPageHeaders walks the page headers of a column chunk (its bytes,
// starting at file offset base) and reports the first data or dictionary
// page whose header lacks the sub-header its type requires: arrow-go
// dereferences that sub-header without checking, so such a header is
// found here, by position, when arrow-go's reader fails on one. nil means
// every header read has its sub-header (the walk stops at the first
// header it cannot read: the page reader reports that one itself).
func checkPageHeaders(chunk []byte, base int64) error {
	for pos, page := 0, 0; pos < len(chunk); page++ {
		c := &compactCopier{in: chunk[pos:]}
		size, typ := int64(-1), int64(-1)
		var has [subHeaderMax + 1]bool
		err := c.fields(func(t byte, id int16) error {
			switch {
			case id == phType && t == ctI32:
				v, err := c.varint()
				typ = v
				return err
			case id == phCompressedSize && t == ctI32:
				v, err := c.varint()
				size = v
				return err
			case id >= 0 && id <= subHeaderMax && t == ctStruct:
				has[id] = true
			}
			return c.skip(t, false)
		})
		if err != nil || size < 0 {
			return nil
		}
		if names, ok := pageTypeNames[typ]; ok && !has[subHeaderField(typ)] {
			return corruptf("page %d at offset %d: %s header without its %s", page, base+int64(pos), names.page, names.sub)
		}
		if size > int64(len(chunk)-pos-c.pos) {
			return nil
		}
		pos += c.pos + int(size)
	}
	return nil
}
