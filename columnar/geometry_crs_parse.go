package columnar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// A coordinate reference system is written as DuckDB 1.5 reads one: a
// PROJJSON object whose "type" is a CRS type, an AUTH:CODE identifier
// (letters, a colon, letters and digits), a WKT2:2019 text whose root
// keyword is a CRS keyword (GEOGCRS[…], PROJCRS[…], …), or else an opaque
// identifier (an SRID). Each may carry a code (the PROJJSON "id", the
// WKT2 ID[…], the identifier itself), and DuckDB without extensions knows
// two codes: OGC:CRS84 and OGC:CRS83.
//
// The two ways SQL names one differ as DuckDB's do. The type
// GEOMETRY('crs') takes a known code (as that code) or a PROJJSON or
// WKT2 definition (as its text) and refuses anything else; st_setcrs
// takes any text, normalized the same way (an identifier trimmed, an
// SRID as written, blank text as no CRS).

// crsKind is how a CRS text reads.
type crsKind int

const (
	crsNone     crsKind = iota // empty or blank
	crsSRID                    // an opaque identifier
	crsAuthCode                // AUTH:CODE
	crsPROJJSON
	crsWKT2
)

// knownCRSCodes are the codes DuckDB 1.5 identifies without extensions.
var knownCRSCodes = map[string]bool{"OGC:CRS84": true, "OGC:CRS83": true}

// parsedCRS is a CRS text read: its kind, its normalized text and the
// code it is identified by ("" for none): a PROJJSON's id, else its name;
// a WKT2 text's ID[…], else its name; an AUTH:CODE itself.
type parsedCRS struct {
	kind crsKind
	text string
	code string
}

// name is the CRS a type carries for p: its code when DuckDB knows it,
// else its text.
func (p parsedCRS) name() string {
	if knownCRSCodes[p.code] {
		return p.code
	}
	return p.text
}

// parseCRS reads a CRS text; an error is a malformed WKT2 text (DuckDB's
// words and byte position).
func parseCRS(text string) (parsedCRS, error) {
	if strings.TrimSpace(text) == "" {
		return parsedCRS{kind: crsNone}, nil
	}
	if p, ok := parsePROJJSON(text); ok {
		return p, nil
	}
	if p, ok := parseAuthCode(text); ok {
		return p, nil
	}
	if code, ok, err := wkt2CRS(text); ok || err != nil { // geometry_crs_wkt2.go
		return parsedCRS{kind: crsWKT2, text: strings.TrimSpace(text), code: code}, err
	}
	return parsedCRS{kind: crsSRID, text: text}, nil
}

// TypeCRS is the CRS the type GEOMETRY('text') carries, or DuckDB's
// error when text names no CRS it can use.
func TypeCRS(text string) (string, error) {
	p, err := parseCRS(text)
	if err != nil {
		return "", err
	}
	if knownCRSCodes[p.code] || p.kind == crsPROJJSON || p.kind == crsWKT2 {
		return p.name(), nil
	}
	return "", fmt.Errorf("Encountered unrecognized coordinate system %s when trying to create GEOMETRY type", QuoteString(text))
}

// SetCRS is the CRS st_setcrs(g, text) gives its result's type: "" for
// blank text.
func SetCRS(text string) (string, error) {
	p, err := parseCRS(text)
	if err != nil || p.kind == crsNone {
		return "", err
	}
	return p.name(), nil
}

// projjsonCRSTypes are the PROJJSON "type"s of a CRS definition (any case).
var projjsonCRSTypes = []string{"GeographicCRS", "GeodeticCRS", "ProjectedCRS", "CompoundCRS", "BoundCRS",
	"VerticalCRS", "EngineeringCRS", "TemporalCRS", "ParametricCRS"}

func parsePROJJSON(text string) (parsedCRS, bool) {
	var root map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &root) != nil {
		return parsedCRS{}, false
	}
	var typ string
	if json.Unmarshal(root["type"], &typ) != nil || !containsFold(projjsonCRSTypes, typ) {
		return parsedCRS{}, false
	}
	target := root
	if strings.EqualFold(typ, "BoundCRS") { // named by its transformation
		if json.Unmarshal(root["transformation"], &target) != nil || target == nil {
			return parsedCRS{}, false
		}
	}
	var id struct {
		Authority *string         `json:"authority"`
		Code      json.RawMessage `json:"code"`
	}
	p := parsedCRS{kind: crsPROJJSON}
	_ = json.Unmarshal(target["name"], &p.code)
	if json.Unmarshal(target["id"], &id) == nil && id.Authority != nil {
		p.code = *id.Authority
		var s string
		var n json.Number
		switch {
		case json.Unmarshal(id.Code, &s) == nil:
			p.code += ":" + s
		case json.Unmarshal(id.Code, &n) == nil && isIntText(n.String()):
			p.code += ":" + n.String()
		}
	}
	var out bytes.Buffer
	if json.Compact(&out, []byte(text)) != nil {
		return parsedCRS{}, false
	}
	p.text = out.String()
	return p, true
}

func isIntText(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// parseAuthCode reads AUTH:CODE (surrounding blanks trimmed): letters
// before the first colon, letters and digits after it.
func parseAuthCode(text string) (parsedCRS, bool) {
	t := strings.TrimSpace(text)
	auth, code, ok := strings.Cut(t, ":")
	if !ok || !allBytes(auth, isASCIILetter) || !allBytes(code, func(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' }) {
		return parsedCRS{}, false
	}
	return parsedCRS{kind: crsAuthCode, text: t, code: t}, true
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}
