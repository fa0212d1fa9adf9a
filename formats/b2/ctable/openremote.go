package ctable

import (
	"sync"

	"github.com/b2sql/b2sql/index"
)

// openAtOnce opens, all at the same time, the sources of the columns a
// scan with spec reads or filters on, when the table is read through
// ranges of remote objects. Opening a column reads its members' headers
// and tails (and, in a .b2z, each member's local header first): a round
// trip or two each, which one after the other made most of a remote
// lookup's time (SELECT * of one row of the 11-column events table: 16
// requests in a row). In a .b2z the windows those opens read, of every
// member of those columns (NULL masks and string blobs included), are
// fetched first in one round (zip_prefetch.go). Errors are left to the opens that follow, which
// report them. Local tables open as they did: mapping a file costs no
// round trip.
func (t *Table) openAtOnce(spec index.ScanSpec) {
	if _, remote := t.IO(); !remote {
		return
	}
	want := map[int]bool{}
	for _, c := range spec.Cols {
		for _, s := range t.srcsOf(c) {
			want[s] = true
		}
	}
	for _, p := range spec.Filter {
		if c := predColumn(p); c >= 0 && c < len(t.cols) {
			for _, s := range t.srcsOf(c) {
				want[s] = true
			}
		}
	}
	if zs, ok := t.st.(*zipStore); ok {
		prefixes := make([]string, 0, len(want))
		for i := range want {
			prefixes = append(prefixes, t.srcs[i].base+".")
		}
		zs.prefetchPrefixed(prefixes)
	}
	if len(want) < 2 {
		return
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, openAtOnceMax)
	for i := range want {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			t.srcs[i].open(t.st, t.nphys)
		}()
	}
	wg.Wait()
}

// openAtOnceMax bounds the columns opened at the same time (the remote
// sources bound their requests in flight as well).
const openAtOnceMax = 16
