package dml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// This file reads one COPY option's value; errors point at the option's name.

// argText is an option's scalar value as text ("" for a bare flag).
func argText(a sql.FileArg) (string, error) {
	switch a.Value.Kind {
	case sql.ArgList, sql.ArgStruct:
		if a.Name == "force_quote" {
			parts := make([]string, len(a.Value.Elems))
			for i, e := range a.Value.Elems {
				parts[i] = e.Text
			}
			return strings.Join(parts, ","), nil
		}
		return "", a.Err(sql.ErrType, fmt.Sprintf("COPY option %s expects a single value, got %s", strings.ToUpper(a.Name), a.Value))
	case sql.ArgFlag:
		return "", nil
	}
	return a.Value.Text, nil
}

// byteCount reads a size: a number of bytes or text such as '10MB',
// '1.5GiB' (DuckDB's units, decimal and binary).
func byteCount(o sql.FileArg) (int64, error) {
	bad := func() (int64, error) {
		return 0, o.Err(sql.ErrType, fmt.Sprintf("%s expects a size in bytes ('10MB', 1000000), got %s", strings.ToUpper(o.Name), o.Value))
	}
	s := strings.ToUpper(strings.TrimSpace(o.Value.Text))
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f <= 0 {
		return bad()
	}
	mult := map[string]float64{"": 1, "B": 1, "BYTES": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
		"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40}[unit]
	if mult == 0 {
		return bad()
	}
	return int64(f * mult), nil
}
