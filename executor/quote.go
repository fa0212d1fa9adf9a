package executor

import "github.com/b2sql/b2sql/columnar"

func quoteVal(v columnar.Value) string {
	if v.Type.IsString() {
		return "'" + v.S + "'"
	}
	return v.String()
}
