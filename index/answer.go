package index

import "github.com/b2sql/b2sql/columnar"

// AggKind is an ungrouped aggregate a table may answer from an index
// without reading column data (see AggRequest).
type AggKind uint8

const (
	AggCountRows AggKind = iota // count(*)
	AggCountCol                 // count(col): the non-NULL values
	AggMinCol
	AggMaxCol
	AggSumCol
	AggAvgCol
)

// AggRequest asks for one aggregate over the rows matching a scan filter:
// Kind over table column Col (ignored by AggCountRows), answered as Type.
type AggRequest struct {
	Kind AggKind
	Col  int
	Type columnar.Type
}
