package executor

import "github.com/b2sql/b2sql/columnar"

// regexp_extract(s, pattern, group): the text of that group of the first
// match (an empty string when nothing matches or the group took no
// part), as in DuckDB.
// The binder checks the group number against a constant pattern.
func init() {
	moreFuncs["regexp_extract"] = struct {
		f      rowFunc
		strict bool
	}{fnRegexpExtract, true}
}

func fnRegexpExtract(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	r, err := compileRegex(a[1].S)
	if err != nil {
		return columnar.Value{}, err
	}
	m := r.FindStringSubmatchIndex(a[0].S)
	g := int(a[2].I)
	if m == nil || 2*g+1 >= len(m) || m[2*g] < 0 {
		return columnar.StringValue(""), nil
	}
	return columnar.StringValue(a[0].S[m[2*g]:m[2*g+1]]), nil
}
