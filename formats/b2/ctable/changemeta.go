package ctable

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/formats/b2"
)

// rebuildSummaries rebuilds, after an append, the SUMMARY index of every
// eligible fixed-width column that had one, or of every eligible column
// when the table never had them built and did not opt out
// (create_summary_index: false) — what python-blosc2's close() does. It
// reads the new column files whole (decompressing, not recompressing).
// Other index kinds are left stale (writeMeta marks them), as appends
// leave them in python-blosc2.
func (c *Change) rebuildSummaries(written map[string]bool) (map[string]mpMap, error) {
	auto := !c.schemaFlag("create_summary_index", true, false) && !c.schemaFlag("summary_indexes_built", false, true)
	out := map[string]mpMap{}
	for _, s := range c.t.srcs {
		cs := &s.spec
		if cs.Flavour != flFixed {
			continue
		}
		had := false
		if d, ok := c.catalogEntry(cs.Name); ok {
			if k, _ := d.get("kind"); k != "summary" {
				continue // FULL, BUCKET, …: stale until rebuilt in python
			}
			had = true
		}
		if !had && !auto {
			continue
		}
		sb := newSummaryBuilder(cs.Name, s.data.DType.Str, int64(s.data.Meta.BlockShape[0]))
		if sb == nil {
			continue
		}
		from := c.keepSummary(s, sb)
		if err := c.feedSummary(s, sb, from); err != nil {
			return nil, tableError(c.path, s.base+".b2nd", err)
		}
		member := indexDirOf(cs.Name) + "/summary.block.b2nd"
		if err := os.MkdirAll(filepath.Dir(c.member(member)), 0o755); err != nil {
			return nil, err
		}
		d, err := sb.write(c.dir, member, c.nold+c.added, s.data.DType.Str)
		if err != nil {
			return nil, tableError(c.path, member, err)
		}
		if d == nil {
			continue
		}
		written[member] = true
		for i := range d {
			if d[i].Key == "built_value_epoch" {
				d[i].Val = c.valueEpoch() + 1
			}
		}
		out[cs.Name] = d
	}
	return out, nil
}

// keepSummary copies into sb the records of the old SUMMARY of s that
// the change cannot alter — the blocks wholly below the first appended
// row — and returns the row from which the rest must be computed (0 when
// the old index cannot be reused: absent, stale, built over another
// extent or segment length).
func (c *Change) keepSummary(s *colSource, sb *summaryBuilder) int64 {
	d, ok := c.catalogEntry(s.spec.Name)
	if !ok {
		return 0
	}
	if stale, _ := d.get("stale"); stale == true {
		return 0
	}
	if sh, _ := d.get("shape"); !tupleIs(sh, c.nold) {
		return 0
	}
	lv, _ := d.get("levels")
	lm, _ := lv.(mpMap)
	bl, _ := lm.get("block")
	bm, _ := bl.(mpMap)
	seg, _ := bm.get("segment_len")
	if n, ok := asInt(seg); !ok || n != sb.blockRows {
		return 0
	}
	path, _ := bm.get("path")
	member, _ := path.(string)
	keep := c.nold / sb.blockRows
	if member == "" || keep == 0 {
		return 0
	}
	f, err := c.t.st.frame(member)
	if err != nil {
		return 0
	}
	a, err := b2.NewArray(f)
	if err != nil || a.NDim() != 1 || a.ItemSize() != 2*sb.itemsize+1 || a.Len() < keep {
		return 0
	}
	recs, err := a.Slice([]int64{0}, []int64{keep})
	if err != nil {
		return 0
	}
	sb.recs = append(sb.recs[:0], recs...)
	return keep * sb.blockRows
}

// tupleIs reports whether a msgpack shape (["__tuple__", n] or [n]) is
// the one-dimensional n.
func tupleIs(v any, n int64) bool {
	xs, ok := untuple(v)
	if !ok || len(xs) != 1 {
		return false
	}
	m, ok := asInt(xs[0])
	return ok && m == n
}

// feedSummary feeds the physical rows from row from on of the new
// version of column s.
func (c *Change) feedSummary(s *colSource, sb *summaryBuilder, from int64) error {
	data, err := b2.OpenArray(c.member(s.base + ".b2nd"))
	if err != nil {
		return err
	}
	defer data.Close()
	// The not-null mask, read chunk by chunk beside the data: whole, it
	// would cost a byte per row of the table.
	var mask *b2.Array
	if mp := c.member(s.base + ".notnull.b2nd"); fileExists(mp) {
		if mask, err = b2.OpenArray(mp); err != nil {
			return err
		}
		defer mask.Close()
	}
	dt := data.DType
	isz := dt.ItemSize
	buf := make([]byte, data.Meta.ChunkShape[0]*isz)
	var valid []byte // mask items of the chunk; rows past the mask are present
	for ci := int(from / int64(data.Meta.ChunkShape[0])); ci < data.NChunks(); ci++ {
		start, n, err := data.ReadChunk1D(nil, buf, ci)
		if err != nil {
			return err
		}
		valid = valid[:0]
		if mask != nil && start < mask.Meta.Shape[0] {
			valid = grow(valid, int(min(int64(n), mask.Meta.Shape[0]-start)))
			if err := mask.ReadItems1D(nil, valid, start, len(valid)); err != nil {
				return err
			}
		}
		b := buf[:n*isz]
		for k := int(max(from-start, 0)); k < n; k++ {
			item := b[k*isz : (k+1)*isz]
			if k < len(valid) && valid[k] == 0 ||
				s.sent != nil && bytes.Equal(item, s.sent) ||
				s.sentNaN && isNaNItem(item) {
				sb.addNull()
				continue
			}
			var u uint64
			for i := isz - 1; i >= 0; i-- {
				u = u<<8 | uint64(item[i])
			}
			switch sb.kind {
			case 'i':
				shift := uint(64 - 8*isz)
				sb.addInt(int64(u<<shift) >> shift)
			case 'b':
				sb.addInt(int64(u & 1))
			case 'u':
				sb.addUint(u)
			case 'f':
				if isz == 4 {
					sb.addFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(item))))
				} else {
					sb.addFloat(math.Float64frombits(u))
				}
			}
		}
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// catalogEntry returns the index descriptor of a column.
func (c *Change) catalogEntry(col string) (mpMap, bool) {
	v, ok := c.t.man.Catalog.get(col)
	if !ok {
		return nil, false
	}
	d, ok := v.(mpMap)
	return d, ok
}

func (c *Change) valueEpoch() int64 {
	if c.t.man.ValueEpoch < 0 {
		return 0
	}
	return c.t.man.ValueEpoch
}

// schemaFlag reads a boolean key of the schema JSON: want is the value
// tested for; def applies when the key is absent.
func (c *Change) schemaFlag(key string, want, def bool) bool {
	doc, err := c.schemaDoc()
	if err != nil {
		return def
	}
	v, ok := doc[key].(bool)
	if !ok {
		return def
	}
	return v == want
}

func (c *Change) schemaDoc() (map[string]any, error) {
	js, err := c.schemaText()
	if err != nil {
		return nil, err
	}
	return parseJSON([]byte(js))
}

func (c *Change) schemaText() (string, error) {
	f, err := c.t.st.frame("_meta.b2f")
	if err != nil {
		return "", err
	}
	v, err := f.VLMetaValue("schema")
	if err != nil {
		return "", err
	}
	switch s := v.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	}
	return "", corruptf("vlmeta schema is not a string")
}

// writeMeta writes the new _meta.b2f: the old manifest with n_rows (and
// summary_indexes_built) updated in the schema JSON, value_epoch bumped by
// an append, visibility_epoch by a delete, and the index catalog with the
// rebuilt SUMMARY descriptors and every other index stale after an append.
// Keys b2sql does not know are kept as they were.
func (c *Change) writeMeta(rebuilt map[string]mpMap) error {
	f, err := c.t.st.frame("_meta.b2f")
	if err != nil {
		return err
	}
	old, err := frameMetaRaw(f)
	if err != nil {
		return err
	}
	live := c.t.live - c.delete + c.added // DeleteLive tombstones live rows only
	var vl []b2.Metalayer
	sawVis, sawCat := false, false
	for _, m := range old {
		switch m.Name {
		case "schema":
			js, err := c.schemaText()
			if err != nil {
				return err
			}
			js = setJSONKey(js, "n_rows", strconv.FormatInt(live, 10))
			if rebuilt != nil {
				js = setJSONKey(js, "summary_indexes_built", "true")
			}
			m.Content = mpAppend(nil, js)
		case "value_epoch":
			if c.added > 0 {
				m.Content = mpAppend(nil, c.valueEpoch()+1)
			}
		case "visibility_epoch":
			sawVis = true
			if c.delete > 0 {
				v, err := mpDecode(m.Content)
				if err != nil {
					return err
				}
				n, _ := asInt(v)
				m.Content = mpAppend(nil, n+1)
			}
		case "index_catalog":
			sawCat = true
			if c.added > 0 {
				m.Content = mpAppend(nil, c.newCatalog(rebuilt))
			}
		}
		vl = append(vl, m)
	}
	if !sawVis && c.delete > 0 {
		vl = append(vl, b2.Metalayer{Name: "visibility_epoch", Content: mpAppend(nil, int64(1))})
	}
	if !sawCat && len(rebuilt) > 0 {
		vl = append(vl, b2.Metalayer{Name: "index_catalog", Content: mpAppend(nil, c.newCatalog(rebuilt))})
	}
	return emptyFrame(c.member("_meta.b2f"), nil, vl)
}

// newCatalog returns the catalog after an append: rebuilt SUMMARY
// descriptors replace theirs (or are added, in column order), every other
// descriptor is marked stale.
func (c *Change) newCatalog(rebuilt map[string]mpMap) mpMap {
	var out mpMap
	seen := map[string]bool{}
	for _, e := range c.t.man.Catalog {
		name, _ := e.Key.(string)
		seen[name] = true
		if d, ok := rebuilt[name]; ok {
			out = append(out, mpEntry{e.Key, d})
			continue
		}
		d, ok := e.Val.(mpMap)
		if !ok {
			out = append(out, e)
			continue
		}
		nd := append(mpMap(nil), d...)
		found := false
		for i := range nd {
			if nd[i].Key == "stale" {
				nd[i].Val, found = true, true
			}
		}
		if !found {
			nd = append(nd, mpEntry{"stale", true})
		}
		out = append(out, mpEntry{e.Key, nd})
	}
	for _, s := range c.t.srcs {
		if d, ok := rebuilt[s.spec.Name]; ok && !seen[s.spec.Name] {
			out = append(out, mpEntry{s.spec.Name, d})
		}
	}
	return out
}

// setJSONKey sets a top-level key of a JSON object written by json.dumps
// to a literal, editing the text so that everything else (key order, NaN
// tokens, keys b2sql does not know) stays byte for byte. The key is found
// at nesting depth 1, outside strings; a missing key is added at the end.
func setJSONKey(js, key, lit string) string {
	depth, inStr := 0, false
	quoted := strconv.Quote(key)
	for i := 0; i < len(js); i++ {
		ch := js[i]
		if inStr {
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inStr = false
			}
			continue
		}
		switch ch {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			if depth == 1 && strings.HasPrefix(js[i:], quoted) {
				rest := strings.TrimLeft(js[i+len(quoted):], " ")
				if strings.HasPrefix(rest, ":") {
					vstart := len(js) - len(rest) + 1
					for vstart < len(js) && js[vstart] == ' ' {
						vstart++
					}
					vend := valueEnd(js, vstart)
					return js[:vstart] + lit + js[vend:]
				}
			}
			inStr = true
		}
	}
	end := strings.LastIndexByte(js, '}')
	if end < 0 {
		return js
	}
	sep := ", "
	if strings.TrimSpace(js[:end]) == "{" {
		sep = ""
	}
	return js[:end] + sep + quoted + ": " + lit + js[end:]
}

// valueEnd returns the end of the scalar JSON value starting at i (the
// values setJSONKey replaces are numbers and booleans).
func valueEnd(js string, i int) int {
	for i < len(js) && !strings.ContainsRune(",}] \n", rune(js[i])) {
		i++
	}
	return i
}
