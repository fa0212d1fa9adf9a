package parquet

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A Parquet GEOMETRY or GEOGRAPHY logical type may name its coordinate
// reference system (crs): a PROJJSON object, or an identifier such as
// EPSG:4326 or srid:4326. DuckDB 1.5 without extensions recognizes the
// PROJJSON of OGC:CRS84 and OGC:CRS83 by their id, keeps any other
// PROJJSON as its text, and drops identifiers (it cannot resolve them);
// the column's type is then GEOMETRY('OGC:CRS84'), GEOMETRY('{…}') or
// GEOMETRY, and st_crs says so.

// knownCRS are the CRS DuckDB 1.5 recognizes from a PROJJSON's id.
var knownCRS = map[string]bool{"OGC:CRS84": true, "OGC:CRS83": true}

// geoCRS is the CRS of a column whose logical type says crs, as DuckDB
// names it; "" for none.
func geoCRS(crs string) string {
	if !strings.HasPrefix(strings.TrimSpace(crs), "{") {
		return ""
	}
	var pj struct {
		ID *struct {
			Authority string `json:"authority"`
			Code      any    `json:"code"`
		} `json:"id"`
	}
	if json.Unmarshal([]byte(crs), &pj) == nil && pj.ID != nil {
		if id := fmt.Sprintf("%s:%v", pj.ID.Authority, pj.ID.Code); knownCRS[id] {
			return id
		}
	}
	return crs
}

// crsText is what a written logical type says for a column of CRS crs:
// a known CRS as a PROJJSON holding its id (which geoCRS, and DuckDB,
// read back as that CRS), any other as it is.
func crsText(crs string) string {
	auth, code, ok := strings.Cut(crs, ":")
	if !knownCRS[crs] || !ok {
		return crs
	}
	return fmt.Sprintf(`{"type":"GeographicCRS","name":%q,"id":{"authority":%q,"code":%q}}`, crs, auth, code)
}

// geoParquetCRS reads a GeoParquet "geo" key-value entry (geo, nil when
// the file has none): the columns it declares WKB geometries, each with
// its CRS as DuckDB 1.5 reads it. GeoParquet's default CRS, when the
// column gives none, is OGC:CRS84; an explicit null is none. DuckDB
// writes GEOMETRY this way by default, with no logical type, and reads
// such a top-level column as GEOMETRY('OGC:CRS84').
func geoParquetCRS(geo *string) map[string]string {
	if geo == nil {
		return nil
	}
	var meta struct {
		Columns map[string]map[string]json.RawMessage `json:"columns"`
	}
	if json.Unmarshal([]byte(*geo), &meta) != nil {
		return nil
	}
	out := map[string]string{}
	for name, col := range meta.Columns {
		var enc string
		if json.Unmarshal(col["encoding"], &enc) != nil || !strings.EqualFold(enc, "WKB") {
			continue
		}
		switch crs, ok := col["crs"]; {
		case !ok:
			out[name] = "OGC:CRS84"
		case string(crs) == "null":
			out[name] = ""
		default:
			var text string
			if json.Unmarshal(crs, &text) != nil {
				text = string(crs) // a PROJJSON object
			}
			out[name] = geoCRS(text)
		}
	}
	return out
}
