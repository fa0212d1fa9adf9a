package catalog

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// textCast converts a CSV field's or JSON string's text to type t with the
// engine's VARCHAR cast: the readers parse the common types themselves
// and hand this the rest (UUID, HUGEINT, DECIMAL(19..38), TIMESTAMP WITH
// TIME ZONE, INTERVAL, timestamp units, BLOB escapes, nested text), so
// that read_csv(…, types = {'u': 'UUID'}) reads what DuckDB reads.
func textCast(text string, t columnar.Type) (columnar.Value, bool) {
	v, err := executor.CastValue(columnar.StringValue(text), t)
	return v, err == nil && !v.Null
}
