package fileset

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/executor"
)

// Hive says whether key=value directories become columns.
type Hive uint8

const (
	HiveAuto Hive = iota // when every file has the same keys (DuckDB's default)
	HiveOn               // always; files with other keys are an error
	HiveOff              // never
)

// hiveDefault is the directory name writers use for a NULL partition
// value (Hive's, which DuckDB writes and reads as NULL).
const hiveDefault = "__HIVE_DEFAULT_PARTITION__"

// kv is one key=value directory of a path.
type kv struct{ key, val string }

// partitions returns the key=value directories of p, outermost first
// (the file name itself is not one). A key given twice keeps its last
// value. Values are URL-unescaped (writers escape '/' and '=' as %2F, %3D).
func partitions(p string) []kv {
	p = strings.ReplaceAll(p, `\`, "/")
	dir := path.Dir(p)
	var out []kv
	for _, part := range strings.Split(dir, "/") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || k == "" {
			continue
		}
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		if i := slices.IndexFunc(out, func(x kv) bool { return x.key == k }); i >= 0 {
			out[i].val = v
			continue
		}
		out = append(out, kv{k, v})
	}
	return out
}

// Keys returns the hive partition keys of the named files under mode,
// sorted, or nil when there are none; a mismatch under HiveOn is an error.
func Keys(names []string, mode Hive) ([]string, error) { return hiveKeys(names, mode) }

// hiveKeys returns the partition keys of files, sorted (DuckDB's column
// order), or nil when mode and the paths say there are none. With HiveOn
// files whose keys differ are an error; with HiveAuto they turn hive
// partitioning off, as in DuckDB.
func hiveKeys(names []string, mode Hive) ([]string, error) {
	if mode == HiveOff || len(names) == 0 {
		return nil, nil
	}
	keysOf := func(p string) []string {
		var ks []string
		for _, x := range partitions(p) {
			ks = append(ks, x.key)
		}
		slices.Sort(ks)
		return ks
	}
	first := keysOf(names[0])
	for _, n := range names[1:] {
		if ks := keysOf(n); !slices.Equal(ks, first) {
			if mode == HiveOn {
				return nil, fmt.Errorf("hive partition mismatch between file %q and %q", names[0], n)
			}
			return nil, nil
		}
	}
	return first, nil
}

// hiveValue is file name's value of key as text; null for NULL.
func hiveValue(name, key string) (s string, null bool) {
	for _, x := range partitions(name) {
		if x.key == key {
			return x.val, x.val == hiveDefault || strings.EqualFold(x.val, "NULL")
		}
	}
	return "", true
}

// detectHiveType is DuckDB's hive_types_autocast: the first of DATE,
// TIMESTAMP and BIGINT that every non-NULL value of key is, else VARCHAR.
func detectHiveType(names []string, key string) columnar.Type {
	for _, t := range []columnar.Type{columnar.TDate, columnar.TTimestamp, columnar.TInt64} {
		ok := true
		for _, n := range names {
			s, null := hiveValue(n, key)
			if null {
				continue
			}
			if !looksLike(s, t) {
				ok = false
				break
			}
			if _, err := executor.CastValue(columnar.StringValue(s), t); err != nil {
				ok = false
				break
			}
		}
		if ok {
			return t
		}
	}
	return columnar.TVarchar
}

// looksLike is the strict shape a detected partition value must have:
// casts are lenient (' 1 ', '1.5' to BIGINT) where detection is not.
func looksLike(s string, t columnar.Type) bool {
	if s == "" {
		return false
	}
	switch t.ID {
	case columnar.Int64:
		d := strings.TrimPrefix(s, "-")
		return d != "" && strings.Trim(d, "0123456789") == ""
	case columnar.Date:
		return len(s) >= 8 && s[0] >= '0' && s[0] <= '9' && strings.Count(s, "-") == 2 && !strings.ContainsAny(s, " T:")
	case columnar.Timestamp:
		return len(s) >= 10 && s[0] >= '0' && s[0] <= '9' && strings.Count(s[:10], "-") == 2
	}
	return true
}

// hiveColumnValues types every file's value of key as t.
func hiveColumnValues(names []string, key string, t columnar.Type) ([]columnar.Value, error) {
	out := make([]columnar.Value, len(names))
	for i, n := range names {
		s, null := hiveValue(n, key)
		if null {
			out[i] = columnar.NullValue(t)
			continue
		}
		v, err := executor.CastValue(columnar.StringValue(s), t)
		if err != nil {
			return nil, fmt.Errorf("%s: hive partition %s=%s: %w", n, key, s, err)
		}
		out[i] = v
	}
	return out, nil
}
