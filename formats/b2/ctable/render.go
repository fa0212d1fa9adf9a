package ctable

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// render writes a decoded msgpack value as JSON-ish text for Metadata:
// JSON where JSON can say it, with python's spellings for the rest (NaN,
// Infinity), tuples as lists and bytes as python-blosc2's
// {"__bytes__": true, "base64": …} convention.
func render(v any) string {
	var sb strings.Builder
	renderTo(&sb, v)
	return sb.String()
}

func renderTo(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		sb.WriteString("null")
	case bool:
		sb.WriteString(strconv.FormatBool(x))
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		sb.WriteString(strconv.FormatUint(x, 10))
	case float64:
		switch {
		case math.IsNaN(x):
			sb.WriteString("NaN")
		case math.IsInf(x, 1):
			sb.WriteString("Infinity")
		case math.IsInf(x, -1):
			sb.WriteString("-Infinity")
		default:
			s := strconv.FormatFloat(x, 'g', -1, 64)
			if !strings.ContainsAny(s, ".eE") {
				s += ".0" // keep floats recognisable, as python prints them
			}
			sb.WriteString(s)
		}
	case string:
		sb.WriteString(strconv.Quote(x))
	case []byte:
		sb.WriteString(`{"__bytes__": true, "base64": "`)
		sb.WriteString(base64.StdEncoding.EncodeToString(x))
		sb.WriteString(`"}`)
	case []any:
		items, _ := untuple(x)
		sb.WriteByte('[')
		for i, e := range items {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, e)
		}
		sb.WriteByte(']')
	case mpMap:
		sb.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			if s, ok := e.Key.(string); ok {
				sb.WriteString(strconv.Quote(s))
			} else {
				sb.WriteString(strconv.Quote(render(e.Key)))
			}
			sb.WriteString(": ")
			renderTo(sb, e.Val)
		}
		sb.WriteByte('}')
	case mpExt:
		fmt.Fprintf(sb, `{"__ext__": %d, "bytes": %d}`, x.Type, len(x.Data))
	default:
		fmt.Fprintf(sb, "%q", fmt.Sprint(x))
	}
}
