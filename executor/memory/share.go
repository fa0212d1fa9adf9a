package memory

// spillShare is the part of a limit that operators able to spill may
// reserve: they spill once their reservations reach it. The rest of the
// limit is for memory no reservation counts, so that the process stays
// within memory_limit, not the reservations alone: the batches in flight
// between operators, the scans' decode buffers, the spill files' write and
// read buffers, the garbage the collector has not yet reclaimed, and the
// runtime's own (stacks, heap metadata, the program's code). Reservations
// up to the whole limit left a 10M-row sort at memory_limit '200MB' with a
// 240 MiB heap (its reservations at 200 MB, garbage of the runs it wrote
// beside them) and 300 MB resident; the 100M-row sort at '1GB' at 1.22e9
// bytes resident.
//
// Operators that cannot spill may still reserve up to the whole limit:
// refusing them earlier fails a query that fits.
func spillShare(limit int64) int64 {
	if limit <= 0 {
		return limit
	}
	return limit / spillDenom * spillNum
}

// spillNum/spillDenom of the limit: measured, see spillShare.
var spillNum, spillDenom int64 = 3, 4
