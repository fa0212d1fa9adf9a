package ctable

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2"
)

// A FULL index of a utf8 column (python-blosc2 ctable_indexing.py,
// _utf8_rank_arrays and _persist_utf8_vocab, ≥ 4.11) sorts the rows by
// alphabetical rank, an int32: its values sidecar holds ranks, not strings.
// Beside it, full.utf8_rank describes the ranks:
//
//	{null_rank, null_aware, vocab_len, n_rows, nbytes, vocab_path | vocab}
//
// The vocabulary is the column's distinct non-NULL strings in rank order
// (numpy order: by code point, which is UTF-8 byte order), stored as a 1-D
// <U array at vocab_path (inline as a list for an in-memory table); rank r
// is vocab[r]. NULL rows — a sentinel string or a masked row — all have
// rank null_rank = len(vocab), the greatest. So a comparison of the column
// with a string becomes a range of ranks found by a binary search of the
// vocabulary, and the FULL index answers it like any integer range: the
// lookup reads the matching positions only.
//
// The ranks are frozen at build time: python-blosc2 trusts the index while
// the column keeps the row count and blob size it was built at (n_rows,
// nbytes), besides the catalog's staleness marks, and so does this reader.

// rankIndex is the utf8_rank part of a FULL index.
type rankIndex struct {
	vocabPath string   // member of the vocabulary array, "" when inline
	inline    []string // the vocabulary of an in-memory table
	nullRank  int64
	nRows     int64
	nbytes    int64

	vocab []string // loaded: rank r is vocab[r]
}

// parseRankMeta reads full.utf8_rank, or says why it cannot be used.
func parseRankMeta(v any) (*rankIndex, string) {
	m, ok := v.(mpMap)
	if !ok {
		return nil, "utf8_rank is not a map (not used)"
	}
	ri := &rankIndex{}
	nr, ok1 := m.get("null_rank")
	rows, ok2 := m.get("n_rows")
	nb, ok3 := m.get("nbytes")
	ri.nullRank, ok1 = asIntOK(nr, ok1)
	ri.nRows, ok2 = asIntOK(rows, ok2)
	ri.nbytes, ok3 = asIntOK(nb, ok3)
	if !ok1 || !ok2 || !ok3 || ri.nullRank < 0 || ri.nRows < 0 || ri.nbytes < 0 {
		return nil, "utf8_rank lacks null_rank, n_rows or nbytes (not used)"
	}
	if na, _ := m.get("null_aware"); na != true {
		// Built before NULLs had their own rank: a NULL shares the rank of
		// its fill (python-blosc2 rebuilds such an index rather than use it).
		return nil, "utf8_rank built without null ranks (not used)"
	}
	if p, ok := m.get("vocab_path"); ok {
		ri.vocabPath, _ = p.(string)
	} else if l, ok := m.get("vocab"); ok {
		items, ok := l.([]any)
		if !ok {
			return nil, "utf8_rank vocabulary is not a list (not used)"
		}
		ri.inline = make([]string, 0, len(items))
		for _, it := range items {
			s, ok := it.(string)
			if !ok {
				return nil, "utf8_rank vocabulary holds a non-string (not used)"
			}
			ri.inline = append(ri.inline, s)
		}
	}
	if ri.vocabPath == "" && ri.inline == nil {
		return nil, "utf8_rank has no vocabulary (not used)"
	}
	return ri, ""
}

func asIntOK(v any, ok bool) (int64, bool) {
	if !ok {
		return 0, false
	}
	return asInt(v)
}

// errRankStale marks a rank index whose column changed since it was built.
type errRankStale struct{ why string }

func (e errRankStale) Error() string { return e.why }

// load reads the vocabulary and checks the column against the build-time
// signals. src is the utf8 column, open.
func (ri *rankIndex) load(st store, src *colSource, n int64) error {
	if ri.nRows != n {
		return errRankStale{fmt.Sprintf("stale: utf8 ranks of %d rows, index has %d", ri.nRows, n)}
	}
	if src.data.Len() < ri.nRows+1 {
		return errRankStale{fmt.Sprintf("stale: utf8 ranks of %d rows, column has %d", ri.nRows, src.data.Len()-1)}
	}
	var off [8]byte
	if err := src.data.ReadItems1D(nil, off[:], ri.nRows, 1); err != nil {
		return err
	}
	if used := int64(binary.LittleEndian.Uint64(off[:])); used != ri.nbytes {
		return errRankStale{fmt.Sprintf("stale: utf8 ranks of %d string bytes, column has %d", ri.nbytes, used)}
	}
	vocab := ri.inline
	if ri.vocabPath != "" {
		var err error
		if vocab, err = readVocab(st, ri.vocabPath, ri.nullRank); err != nil {
			return fmt.Errorf("%s: %w", ri.vocabPath, err)
		}
	}
	if int64(len(vocab)) != ri.nullRank {
		return corruptf("%d vocabulary entries for null rank %d", len(vocab), ri.nullRank)
	}
	for i := 1; i < len(vocab); i++ {
		if vocab[i-1] >= vocab[i] {
			return corruptf("vocabulary not strictly ascending at rank %d", i)
		}
	}
	ri.vocab = vocab
	return nil
}

// readVocab reads the 1-D <U vocabulary array of want entries.
func readVocab(st store, member string, want int64) ([]string, error) {
	f, err := st.frame(member)
	if err != nil {
		return nil, memberErr(err)
	}
	a, err := b2.NewArray(f)
	if err != nil {
		return nil, err
	}
	if a.NDim() != 1 || a.DType.Kind != 'U' || a.Len() != want {
		return nil, corruptf("vocabulary of %d %s items, want %d 1-d <U", a.Len(), a.DType.Str, want)
	}
	if want > maxSegments {
		return nil, corruptf("vocabulary of %d entries", want)
	}
	raw := make([]byte, int(want)*a.ItemSize())
	if err := a.ReadItems1D(nil, raw, 0, int(want)); err != nil {
		return nil, err
	}
	conv := fixedConv{dt: a.DType, stride: a.ItemSize(), out: columnar.TVarchar, mul: 1, div: 1}
	v := columnar.NewVector(columnar.TVarchar, int(want))
	var arena []byte
	conv.decode(raw, int(want), v, &arena)
	out := make([]string, want)
	for i := range out {
		out[i] = string(v.Bytes[i])
	}
	return out, nil
}

// intervals turns string intervals into the rank intervals that hold the
// same non-NULL rows: ranks [lo, hi) of the vocabulary.
func (ri *rankIndex) intervals(ivs []interval) []interval {
	out := make([]interval, 0, len(ivs))
	for _, iv := range ivs {
		lo, hi := 0, len(ri.vocab) // ranks [lo, hi); null_rank = len(vocab) is never in
		if iv.hasLo {
			s := iv.lo.S
			lo = sort.Search(len(ri.vocab), func(i int) bool {
				if iv.loOpen {
					return ri.vocab[i] > s
				}
				return ri.vocab[i] >= s
			})
		}
		if iv.hasHi {
			s := iv.hi.S
			hi = sort.Search(len(ri.vocab), func(i int) bool {
				if iv.hiOpen {
					return ri.vocab[i] >= s
				}
				return ri.vocab[i] > s
			})
		}
		if hi <= lo { // no string of the vocabulary: an empty rank range
			lo, hi = 1, 1
		}
		out = append(out, interval{
			lo: columnar.IntValue(columnar.TInt32, int64(lo)), hasLo: true,
			hi: columnar.IntValue(columnar.TInt32, int64(hi)), hasHi: true, hiOpen: true,
		})
	}
	return out
}
