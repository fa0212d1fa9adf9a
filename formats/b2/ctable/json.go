package ctable

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Python's json.dumps writes the bare tokens NaN, Infinity and -Infinity
// (a float sentinel of NaN is the default for nullable floats), which
// encoding/json rejects. lenientJSON rewrites them, outside strings, into
// marker strings that jsonFloat turns back into floats.
const nonFinitePrefix = "\x00nonfinite:"

func lenientJSON(src []byte) []byte {
	if !bytes.Contains(src, []byte("NaN")) && !bytes.Contains(src, []byte("Infinity")) {
		return src
	}
	out := make([]byte, 0, len(src)+32)
	inStr := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			out = append(out, c)
			switch c {
			case '\\':
				if i+1 < len(src) {
					i++
					out = append(out, src[i])
				}
			case '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			out = append(out, c)
			continue
		}
		matched := false
		for _, tok := range []string{"NaN", "Infinity", "-Infinity"} {
			if bytes.HasPrefix(src[i:], []byte(tok)) {
				out = append(out, '"')
				out = append(out, `\u0000nonfinite:`...)
				out = append(out, tok...)
				out = append(out, '"')
				i += len(tok) - 1
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, c)
		}
	}
	return out
}

// parseJSON decodes Python-written JSON into maps, slices, strings, bools,
// json.Number and nil.
func parseJSON(src []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(lenientJSON(src)))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		return nil, corruptf("schema JSON: %v", err)
	}
	if out == nil {
		return nil, corruptf("schema JSON: not an object")
	}
	return out, nil
}

// jsonFloat converts a JSON number (or non-finite marker) to float64.
func jsonFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case string:
		switch strings.TrimPrefix(x, nonFinitePrefix) {
		case "NaN":
			return math.NaN(), strings.HasPrefix(x, nonFinitePrefix)
		case "Infinity":
			return math.Inf(1), strings.HasPrefix(x, nonFinitePrefix)
		case "-Infinity":
			return math.Inf(-1), strings.HasPrefix(x, nonFinitePrefix)
		}
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// jsonInt converts an integral JSON number to int64.
func jsonInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		if b, isBool := v.(bool); isBool {
			if b {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, true
	}
	if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
		return int64(u), true // bit pattern, for uint64 sentinels
	}
	return 0, false
}
