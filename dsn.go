package b2sql

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ParseDSN splits a database/sql data source name into the path for Open
// and its options. The DSN is the path, optionally followed by options as
// URL query parameters:
//
//	data/?threads=2&readonly=true
//	/srv/tables?root=/srv/tables&memory_limit=4GiB
//	:memory:                       (or the empty string: in-memory)
//
// Parameters: threads (a positive integer), readonly (true/false),
// root (a directory, see WithRoot), memory_limit (bytes, with an optional
// KB, MB, GB, TB or KiB … TiB suffix). Unknown parameters are an error, so
// that a typo is not silently ignored.
func ParseDSN(dsn string) (path string, opts []Option, err error) {
	path, query, _ := strings.Cut(dsn, "?")
	if query == "" {
		return path, nil, nil
	}
	vals, err := url.ParseQuery(query)
	if err != nil {
		return "", nil, fmt.Errorf("b2sql: DSN %q: %w", dsn, err)
	}
	for key, vs := range vals {
		v := vs[len(vs)-1]
		bad := func(what string) error {
			return fmt.Errorf("b2sql: DSN %q: %s=%q: expected %s", dsn, key, v, what)
		}
		switch strings.ToLower(key) {
		case "threads":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "", nil, bad("a positive integer")
			}
			opts = append(opts, WithThreads(n))
		case "readonly", "read_only":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return "", nil, bad("true or false")
			}
			if b {
				opts = append(opts, WithReadOnly())
			}
		case "root":
			if v == "" {
				return "", nil, bad("a directory")
			}
			opts = append(opts, WithRoot(v))
		case "memory_limit":
			n, err := parseBytes(v)
			if err != nil {
				return "", nil, bad("a byte count such as 512MB or 4GiB")
			}
			opts = append(opts, WithMemoryLimit(n))
		default:
			return "", nil, fmt.Errorf("b2sql: DSN %q: unknown parameter %q (threads, readonly, root, memory_limit)", dsn, key)
		}
	}
	return path, opts, nil
}

// parseBytes reads a byte count: digits with an optional unit suffix.
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
	}
	mult := int64(1)
	l := strings.ToLower(s)
	for _, u := range units {
		if strings.HasSuffix(l, u.suffix) {
			l, mult = strings.TrimSpace(strings.TrimSuffix(l, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(l, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("bad byte count %q", s)
	}
	return n * mult, nil
}
