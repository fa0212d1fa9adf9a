package executor

import (
	"errors"
	"path"
	"regexp"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// path_join(base, part, …): the parts joined with '/' and the result
// cleaned as DuckDB does: repeated slashes collapse, "." segments go, and
// ".." removes the segment before it (kept at the start of a relative
// path, dropped at a root). A URL's scheme and authority (s3://bucket) or
// a bare scheme (file:) stay in front and act as the root. Only the base
// may be absolute or carry a scheme: a later part that does is refused
// ("incompatible paths"). An empty result is ".".

// schemePrefix matches a scheme and, with "//", its authority.
var schemePrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:(//[^/]*)?`)

func fnPathJoin(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	prefix := schemePrefix.FindString(a[0].S)
	parts := []string{strings.TrimPrefix(a[0].S, prefix)}
	if strings.HasSuffix(prefix, "//") || strings.Contains(prefix, "://") {
		parts[0] = "/" + parts[0] // below s3://bucket the path is absolute
	}
	for _, p := range a[1:] {
		if strings.HasPrefix(p.S, "/") || schemePrefix.MatchString(p.S) {
			return columnar.Value{}, errors.New("path_join: incompatible paths: " + p.S + " is absolute and cannot follow " + a[0].S)
		}
		parts = append(parts, p.S)
	}
	joined := path.Join(parts...)
	if joined == "" {
		joined = "."
	}
	return columnar.StringValue(prefix + joined), nil
}
