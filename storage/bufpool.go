package storage

import "sync"

// Chunk buffers: the text readers (formats/csv, formats/json) read a file
// in ranges of megabytes, one buffer per range whose values live in it
// until its reader closes. Recycling them spares the allocation, the
// clearing of fresh memory and the collector's work per range.

var chunkBufs sync.Pool

// GetBuf returns a buffer of length n, recycled when one large enough is
// free. Its contents are arbitrary.
func GetBuf(n int) []byte {
	if p, ok := chunkBufs.Get().(*[]byte); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]byte, n)
}

// PutBuf hands b back for reuse; nothing may use it afterwards. Buffers
// under 1 MiB are left to the collector.
func PutBuf(b []byte) {
	if cap(b) >= 1<<20 {
		chunkBufs.Put(&b)
	}
}
