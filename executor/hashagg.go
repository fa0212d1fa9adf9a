package executor

import (
	"context"
	"encoding/binary"
	"math"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/dict"
)

// AggKind is an aggregate function.
type AggKind uint8

const (
	AggCountStar AggKind = iota
	AggCount
	AggSum
	AggAvg
	AggMin
	AggMax
	// AggAvgMerge combines partial averages: Arg is a partial sum (DOUBLE),
	// Arg2 the matching partial count (BIGINT).
	AggAvgMerge
)

// AggSpec is one compiled aggregate call.
type AggSpec struct {
	Kind     AggKind
	Arg      Expr // nil for count(*)
	Arg2     Expr // AggAvgMerge: the partial count; AggArgMax/AggArgMin: the val
	Distinct bool
	Type     columnar.Type  // result type
	Param    columnar.Value // AggQuantileCont's fraction, AggStringAgg's separator
	Name     string         // for EXPLAIN
}

// HashAgg groups its input by the Groups expressions and computes Aggs per
// group. Group ids come from a hash table keyed on the group values: a
// direct table or an int64 open-addressing table for a single integer key,
// a string table (or per-code ids) for a single string key, word-keyed
// composite keys for several keys (keytable.go, hashagg_keys.go), an
// encoded key past 63 keys; the aggregate states are plain slices indexed
// by group id, updated batch by batch by typed loops. With no Groups it
// emits one row even for no input.
type HashAgg struct {
	Input  Operator
	Groups []Expr
	Aggs   []AggSpec

	budget *Budget
	keys   *rowStore  // one row per group: its key values
	ig     *intGroups // single integer key (hashagg_dense.go)
	// intKeys holds a single BIGINT-like key per group (the NULL group's
	// slot is unused) in chunks of 1<<keyChunkBits, so that growing never
	// copies; emitted by a copy rather than a row store.
	intKeys [][]int64
	intOwn  bool
	strs    map[string]int32
	strTab  *strTable      // single string key
	comp    *compositeKeys // several keys, or one float key (hashagg_keys.go)
	// newRows lists the rows of the current batch that created a group;
	// plainNew/decodedNew hold their key vectors, decoded, for storing.
	newRows    []int
	plainNew   []*columnar.Vector
	decodedNew []columnar.Vector
	nullGID    int32
	ngroups    int
	gids       []int32
	keyBuf     []byte
	states     []*aggState
	out        *columnar.Batch

	// Dictionary-coded inputs (executor/dict.go): remap turns a single
	// string key's codes into group ids once per code and dictionary;
	// coded keys of several-key groupings and coded aggregate arguments
	// are decoded into plainKeys/plainArgs.
	remap     dict.Remap
	keyOne    columnar.Vector
	plainKeys []columnar.Vector
	plainArgs []columnar.Vector
	minMax    []codeMinMax // per aggregate: min/max over codes (dictagg.go)
	pos       int
	done      bool
}

func (h *HashAgg) Types() []columnar.Type {
	var t []columnar.Type
	for _, g := range h.Groups {
		t = append(t, g.Type())
	}
	for _, a := range h.Aggs {
		t = append(t, a.Type)
	}
	return t
}
func (h *HashAgg) Children() []Operator { return []Operator{h.Input} }
func (h *HashAgg) String() string {
	names := make([]string, len(h.Aggs))
	for i, a := range h.Aggs {
		names[i] = a.Name
	}
	return "HashAggregate groups=" + itoa(int64(len(h.Groups))) + " aggs=[" + strings.Join(names, ", ") + "]"
}
func (h *HashAgg) Close() error { return h.Input.Close() }

func (h *HashAgg) Open(ctx context.Context) error {
	if err := h.Input.Open(ctx); err != nil {
		return err
	}
	gtypes := make([]columnar.Type, len(h.Groups))
	for i, g := range h.Groups {
		gtypes[i] = g.Type()
	}
	h.keys = newRowStore(gtypes)
	h.nullGID = -1
	h.ngroups, h.pos, h.ig, h.strs, h.strTab, h.comp = 0, 0, nil, nil, nil, nil
	h.intOwn = false
	switch {
	case len(h.Groups) == 1 && (gtypes[0].Phys() == columnar.PhysInt || gtypes[0].Phys() == columnar.PhysUint || gtypes[0].Phys() == columnar.PhysBool):
		h.ig = newIntGroups()
		h.intOwn, h.intKeys = gtypes[0].Phys() == columnar.PhysInt, nil
	case len(h.Groups) > 1 && len(h.Groups) < 64 || len(h.Groups) == 1 && gtypes[0].Phys() == columnar.PhysFloat:
		h.comp = newCompositeKeys(gtypes)
	case len(h.Groups) > 0:
		h.strs = map[string]int32{}
	}
	h.states = make([]*aggState, len(h.Aggs))
	for i, a := range h.Aggs {
		h.states[i] = newAggState(a)
	}
	shareValues(h.states)
	if len(h.Groups) == 0 {
		h.ngroups = 1
		for _, s := range h.states {
			s.grow(1)
		}
	}
	keyVecs := make([]*columnar.Vector, len(h.Groups))
	h.plainKeys = make([]columnar.Vector, len(h.Groups))
	h.plainArgs = make([]columnar.Vector, len(h.Aggs))
	h.minMax = make([]codeMinMax, len(h.Aggs))
	first := true
	for {
		b, err := h.Input.Next(ctx)
		if err == ioEOF {
			break
		}
		if err != nil {
			return err
		}
		for i, g := range h.Groups {
			v, err := g.Eval(b)
			if err != nil {
				return err
			}
			keyVecs[i] = v
		}
		if h.comp != nil && first && !h.comp.pickLead(b, keyVecs) && longPlainStrings(b, keyVecs) {
			// Interning long strings that are mostly unique (names,
			// addresses, comments) costs more than hashing one encoded
			// key: such groupings keep the encoded-key map.
			h.comp, h.strs = nil, map[string]int32{}
		}
		first = false
		if len(h.Groups) > 1 && h.comp == nil {
			for i, v := range keyVecs {
				keyVecs[i] = decodeLive(v, b, &h.plainKeys[i])
			}
		}
		if err := h.assignGroups(b, keyVecs); err != nil {
			return err
		}
		if err := h.budget.Check(); err != nil {
			return err
		}
		for i, a := range h.Aggs {
			var arg *columnar.Vector
			if a.Arg != nil {
				arg, err = a.Arg.Eval(b)
				if err != nil {
					return err
				}
				if arg.Dict != nil && (a.Kind == AggMin || a.Kind == AggMax) && !a.Distinct {
					if err := h.minMaxCodes(i, b, arg); err != nil {
						return err
					}
					continue
				}
				if a.Kind != AggCount || a.Distinct {
					// count(col) reads validity only; the others read values.
					arg = decodeLive(arg, b, &h.plainArgs[i])
				}
			}
			if a.Kind.argMinMax() {
				if err := h.states[i].updateArg(b, arg, a.Arg2, h.gids); err != nil {
					return err
				}
				continue
			}
			if a.Kind == AggAvgMerge {
				cnt, err := a.Arg2.Eval(b)
				if err != nil {
					return err
				}
				h.states[i].mergeAvg(b, arg, cnt, h.gids)
				continue
			}
			if err := h.states[i].update(b, arg, h.gids); err != nil {
				return err
			}
		}
	}
	h.out = columnar.NewBatch(h.Types(), columnar.MaxBatch)
	return nil
}

// assignGroups fills h.gids[i] with the group id of each live row i,
// creating groups for new keys.
func (h *HashAgg) assignGroups(b *columnar.Batch, keys []*columnar.Vector) error {
	if cap(h.gids) < b.Len {
		h.gids = make([]int32, max(b.Len, columnar.MaxBatch))
	}
	gids := h.gids[:b.Len]
	if len(keys) == 0 {
		forEach(b, func(i int) { gids[i] = 0 })
		return nil
	}
	if h.comp != nil {
		h.assignComposite(b, keys, gids)
		return nil
	}
	// New groups get their ids at once; their key values are stored, and
	// the aggregate states grown, once per batch (flushNewGroups).
	h.newRows = h.newRows[:0]
	defer h.flushNewGroups(b, keys)
	newGroup := func(i int) int32 {
		g := int32(h.ngroups)
		h.ngroups++
		h.newRows = append(h.newRows, i)
		return g
	}
	if h.ig != nil {
		k := keys[0]
		if k.Type.Phys() == columnar.PhysInt && !k.Const {
			h.assignIntGroups(b, k.Ints, k.Valid, gids, newGroup)
			return nil
		}
		forEach(b, func(i int) {
			j := idx(k, i)
			if k.IsNull(j) {
				if h.nullGID < 0 {
					h.nullGID = newGroup(i)
				}
				gids[i] = h.nullGID
				return
			}
			var v int64
			switch k.Type.Phys() {
			case columnar.PhysInt:
				v = k.Ints[j]
			case columnar.PhysUint:
				v = int64(k.Uints[j])
			case columnar.PhysBool:
				if k.Bools[j] {
					v = 1
				}
			}
			gids[i] = h.intGroup(v, i, newGroup)
		})
		return nil
	}
	if len(keys) == 1 && keys[0].Type.Phys() == columnar.PhysBytes {
		k := keys[0]
		if h.strTab == nil {
			h.strTab = newStrTable()
		}
		if k.Dict != nil {
			h.assignCodedGroups(b, k, gids)
			return nil
		}
		var row int
		create := func() int32 { return newGroup(row) }
		if !k.Const && k.Valid == nil && b.Sel == nil {
			for i, s := range k.Bytes[:b.Len] {
				row = i
				gids[i] = h.strTab.find(s, create)
			}
			return nil
		}
		forEach(b, func(i int) {
			j := idx(k, i)
			if k.IsNull(j) {
				if h.nullGID < 0 {
					h.nullGID = newGroup(i)
				}
				gids[i] = h.nullGID
				return
			}
			row = i
			gids[i] = h.strTab.find(k.Bytes[j], create)
		})
		return nil
	}
	forEach(b, func(i int) {
		h.keyBuf = encodeKey(h.keyBuf[:0], keys, i)
		g, ok := h.strs[string(h.keyBuf)]
		if !ok {
			g = newGroup(i)
			h.strs[string(h.keyBuf)] = g
		}
		gids[i] = g
	})
	return nil
}

// encodeKey appends an unambiguous encoding of row i of vecs: a NULL flag
// per column, then 8 bytes for fixed-width values or a length-prefixed
// payload for bytes.
func encodeKey(dst []byte, vecs []*columnar.Vector, i int) []byte {
	for _, v := range vecs {
		j := idx(v, i)
		if v.IsNull(j) {
			dst = append(dst, 0)
			continue
		}
		dst = append(dst, 1)
		switch v.Type.Phys() {
		case columnar.PhysBool:
			if v.Bools[j] {
				dst = append(dst, 1)
			} else {
				dst = append(dst, 0)
			}
		case columnar.PhysInt:
			dst = binary.LittleEndian.AppendUint64(dst, uint64(v.Ints[j]))
		case columnar.PhysUint:
			dst = binary.LittleEndian.AppendUint64(dst, v.Uints[j])
		case columnar.PhysFloat:
			f := v.Floats[j]
			if f == 0 {
				f = 0 // fold -0 into +0
			}
			if f != f {
				f = math.NaN() // one NaN
			}
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
		case columnar.PhysBytes:
			dst = binary.AppendUvarint(dst, uint64(len(v.Bytes[j])))
			dst = append(dst, v.Bytes[j]...)
		}
	}
	return dst
}

func (h *HashAgg) Next(ctx context.Context) (*columnar.Batch, error) {
	if h.pos >= h.ngroups {
		return nil, ioEOF
	}
	end := min(h.pos+columnar.MaxBatch, h.ngroups)
	n := end - h.pos
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(h.pos + i)
	}
	ng := len(h.Groups)
	if h.comp != nil && h.comp.ownKeys {
		h.comp.emit(h.out.Cols[:ng], h.pos, end)
	} else if h.intOwn {
		v := h.out.Cols[0]
		v.Reset(n)
		for g := h.pos; g < end; {
			chunk := h.intKeys[g>>keyChunkBits][g&keyChunkMask:]
			g += copy(v.Ints[g-h.pos:n], chunk)
		}
		if g := int(h.nullGID); g >= h.pos && g < end {
			v.Valid = columnar.NewBitmap(n)
			v.Valid.Clear(g - h.pos)
		}
	} else if ng > 0 {
		sub := &columnar.Batch{Cols: h.out.Cols[:ng]}
		h.keys.gather(sub, perm, 0, n)
	}
	for i, s := range h.states {
		v := h.out.Cols[ng+i]
		v.Reset(n)
		s.result(v, h.pos, end)
	}
	h.out.Len, h.out.Sel = n, nil
	h.pos = end
	return h.out, nil
}

// intGroup returns the group of integer key v (row i), creating it.
func (h *HashAgg) intGroup(v int64, i int, newGroup func(i int) int32) int32 {
	return h.ig.find(v, h.ngroups, func() int32 { return newGroup(i) })
}

// assignIntGroups is assignGroups for an integer key vector (valid: its
// validity bitmap, nil when it has no NULLs).
func (h *HashAgg) assignIntGroups(b *columnar.Batch, vals []int64, valid columnar.Bitmap, gids []int32, newGroup func(i int) int32) {
	if valid != nil {
		forEach(b, func(i int) {
			if !valid.Get(i) {
				if h.nullGID < 0 {
					h.nullGID = newGroup(i)
				}
				gids[i] = h.nullGID
				return
			}
			v := vals[i]
			if g, ok := h.ig.known(v); ok {
				gids[i] = g
				return
			}
			gids[i] = h.intGroup(v, i, newGroup)
		})
		return
	}
	if b.Sel == nil {
		vals = vals[:b.Len]
		for i, v := range vals {
			if g, ok := h.ig.known(v); ok {
				gids[i] = g
				continue
			}
			gids[i] = h.intGroup(v, i, newGroup)
		}
		return
	}
	for _, i := range b.Sel {
		gids[i] = h.intGroup(vals[i], i, newGroup)
	}
}
