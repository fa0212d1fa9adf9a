package ctable

import (
	"context"
	"encoding/binary"
	"math"

	"github.com/b2sql/b2sql/formats/b2"
)

// Fetching the strings of rows of a remote utf8 column ahead.
//
// A utf8 column keeps its rows' end offsets in one array and their bytes
// in another (the blob): reading rows needs the offsets first, and only
// they say which bytes of the blob to read, a round trip (or two: the
// blob chunk's header, then its block) after the offsets' own. The
// events .b2z's SELECT * of one row waited four round trips for its title
// after the other columns had arrived. The blob bytes of rows [lo, hi)
// are about [lo, hi) × the column's mean length, so they are fetched
// together with the offsets, from that guess (guessBytes); once the
// offsets are in, the exact bytes are asked for too (prefetchStrings),
// which costs no request when the guess held them. Lengths that drift
// along the table (sorted, or clustered by a key) make the guess miss:
// then its bytes were fetched for nothing, and the exact ones cost the
// round trip they cost without it.

// guessBytes returns the blob byte spans that rows spans probably use:
// each span's rows times the mean string length, widened by
// stringsSlack of the span's bytes and by the random walk of lengths
// around their mean (the square root of the rows before it, times the
// mean length), clipped to the blob.
func (s *colSource) guessBytes(spans [][2]int64) [][2]int64 {
	rows := s.data.Len() - 1
	size := s.blob.Len()
	if rows <= 0 || size <= 0 {
		return nil
	}
	mean := float64(size) / float64(rows)
	out := make([][2]int64, 0, len(spans))
	for _, sp := range spans {
		lo, hi := float64(sp[0])*mean, float64(sp[1])*mean
		slack := (hi-lo)*stringsSlack + math.Sqrt(float64(sp[0]))*mean
		a, b := max(int64(lo-slack), 0), min(int64(hi+slack)+1, size)
		if b > a {
			out = append(out, [2]int64{a, b})
		}
	}
	return out
}

// stringsSlack widens a guessed blob span on each side, as a share of
// its bytes.
const stringsSlack = 0.125

// prefetchStrings fetches the offsets of rows spans and then the exact
// blob bytes they name.
func (s *colSource) prefetchStrings(ctx context.Context, spans [][2]int64) {
	// Rows [lo, hi) need offsets [lo, hi]: the one past the last row may
	// start the next block.
	offs := make([][2]int64, len(spans))
	for i, sp := range spans {
		offs[i] = [2]int64{sp[0], sp[1] + 1}
	}
	s.data.PrefetchItems1D(ctx, offs)
	d := b2.NewDecoder()
	d.SetScattered(true)
	defer d.Release()
	rows := s.data.Len() - 1
	var exact [][2]int64
	var buf [8]byte
	at := func(r int64) (int64, bool) {
		if s.data.ReadItems1D(d, buf[:], r, 1) != nil {
			return 0, false
		}
		return int64(binary.LittleEndian.Uint64(buf[:])), true
	}
	for _, sp := range spans {
		lo, hi := max(sp[0], 0), min(sp[1], rows)
		if hi <= lo {
			continue
		}
		a, ok1 := at(lo)
		b, ok2 := at(hi)
		if ok1 && ok2 && a <= b {
			exact = append(exact, [2]int64{a, b})
		}
	}
	if len(exact) > 0 {
		s.blob.PrefetchItems1D(ctx, exact)
	}
}
