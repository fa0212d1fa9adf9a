package hashtab

import (
	"sync/atomic"
	"unsafe"
)

// Loading a batch's slots ahead of its probes.
//
// A probe of a table larger than the caches waits for one memory miss per
// key, and each probe depends on the one before it (an insert may move
// what the next probe reads), so the misses come one at a time. A loop
// that only loads the slot each key's hash starts at has no such
// dependence: the processor overlaps a dozen of those misses, and the
// probes after it find their slots in the cache. Go has no prefetch
// instruction; plain loads folded into a value stored once a batch do
// the same.

// touchFrom is the size in bytes of slots above which a table loads a
// batch's slots ahead: below it they mostly sit in the caches already and
// the extra loop would only cost.
const touchFrom = 1 << 20

// touchRun is how many slots are loaded ahead at a time: enough misses to
// overlap, few enough that their lines and page translations are still
// cached when the probes come.
const touchRun = 256

// touchSink receives the folded loads so that the compiler keeps them.
var touchSink atomic.Int32

// touchInts loads the slots the integer keys vs start at in t, in its
// direct table or its hash table, for whichever of the two outgrew the
// caches: GROUP BY user_id over 1M users, count(DISTINCT user_id) by region
// over 6M (region, user) pairs.
func touchInts[T int64 | uint64](t *intGroups, vs []T) {
	hashed := len(t.ints.slots)*int(unsafe.Sizeof(intKeySlot{})) >= touchFrom
	direct := t.dense.n*4 >= touchFrom
	if !hashed && !direct {
		return
	}
	var sink int32
	for _, x := range vs {
		v := int64(x)
		if uint64(v) < uint64(t.dense.n) {
			if direct {
				sink |= *t.dense.at(v)
			}
		} else if hashed {
			sink |= t.ints.slots[t.ints.home(v)].val
		}
	}
	touchSink.Store(sink)
}
