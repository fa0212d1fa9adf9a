package index

// ScanSpec is what the planner asks of a table scan.
type ScanSpec struct {
	// Cols are the table columns to produce, in output order.
	Cols []int
	// Filter is a conjunction of predicates the table may use to skip data.
	// For predicates it declared Exact it must also drop non-matching rows.
	Filter []Pred
	// Limit >= 0 lets the scan stop after producing that many rows; -1 = all.
	Limit int64
	// Threads bounds the scan's parallelism (0 = GOMAXPROCS).
	Threads int
	// Ordered asks a parallel scan for its rows in table order (DuckDB's
	// preserve_insertion_order): the planner sets it when the rows reach
	// the result, a file or a table unsorted. Unordered, batches come in
	// the order the workers finish them.
	Ordered bool
	// NoPrune disables statistics-based skipping (the rules-off mode).
	NoPrune bool
	// Off lists scan rules switched off one by one (see ScanRule); use
	// ScanSpec.On to ask whether a rule may run.
	Off RuleSet
	// Stats, when non-nil, receives the scan's counters for EXPLAIN ANALYZE.
	Stats *ScanStats
	// TopK, when non-nil, is the bound of the top-k above the scan: units
	// it proves useless may be skipped (if On(TopKPruning)), and units are
	// best visited in TopK.Order. See TopKBound.
	TopK *TopKBound
	// Extremes, when non-empty, are the bounds of the ungrouped MIN and MAX
	// aggregates above the scan, each a top-1 of its column (ASC for MIN,
	// DESC for MAX, no ties): a unit that every one of them proves useless
	// may be skipped (if On(TopKPruning)), and units are best visited in
	// OrderExtremes. See TopKBound.
	Extremes []*TopKBound
	// DictCols lists positions in Cols whose consumer accepts
	// dictionary-coded vectors (columnar.Vector.Dict, package dict): a
	// table may then hand over codes plus the chunk's dictionary instead
	// of strings, if On(DictCodes). Other columns always come plain.
	DictCols []int
}

// ResetBounds forgets what the top-k and extremes bounds published, before
// the query runs again.
func (s ScanSpec) ResetBounds() {
	s.TopK.Reset()
	for _, b := range s.Extremes {
		b.Reset()
	}
}

// WantsCodes reports whether output column i may come dictionary-coded.
func (s ScanSpec) WantsCodes(i int) bool {
	if !s.On(DictCodes) {
		return false
	}
	for _, c := range s.DictCols {
		if c == i {
			return true
		}
	}
	return false
}

// ScanStats counts what a scan read and skipped. Fields are updated
// atomically by concurrent workers.
type ScanStats struct {
	UnitName     string // "row groups", "blocks", "chunks"
	UnitsTotal   int64
	UnitsSkipped int64
	UnitsAllTrue int64 // read without filtering: statistics proved every row matches
	UnitsDone    int64 // units fully read so far (for progress reporting)
	// FilesTotal/FilesSkipped count the files of a many-file scan and
	// those its partition or filename predicates excluded unopened.
	FilesTotal   int64
	FilesSkipped int64
	FilesDone    int64 // files whose every unit has been read
	BytesRead    int64
	RowsRead     int64

	// SkippedBy counts, per rule, the units (row groups, blocks) that rule
	// skipped; PagesTotal/PagesSkipped the Parquet pages the page index saw
	// and skipped.
	SkippedBy    [NumScanRules]int64
	PagesTotal   int64
	PagesSkipped int64
	// BytesDecompressed is what decoding produced, beside BytesRead (bytes
	// on disk that were read).
	BytesDecompressed int64
	// DictUnits counts column chunks (or blocks) handed over as dictionary
	// codes rather than strings (the DictCodes rule).
	DictUnits int64
}

// IOStats counts the requests a remote table made and the bytes it
// fetched since it was opened (its open's requests included), beside the
// size of its files: fetched/size is the share of the data a query cost.
type IOStats struct {
	Requests int64
	Bytes    int64
	Size     int64
}
