package catalog

import (
	"path/filepath"
	"strings"
)

// textKind classifies CSV and JSON paths, compressed ones included
// (x.csv.gz, x.ndjson.zst).
func textKind(path string) string {
	p := strings.ToLower(strings.TrimRight(path, `/\`))
	for _, z := range []string{".gz", ".gzip", ".zst", ".zstd"} {
		p = strings.TrimSuffix(p, z)
	}
	switch filepath.Ext(p) {
	case ".csv", ".tsv", ".tbl", ".txt":
		return "csv"
	case ".json", ".ndjson", ".jsonl":
		return "json"
	}
	return ""
}

// funcFormat is the format a file table function reads ("" for any).
func funcFormat(fn string) string {
	switch fn {
	case "read_csv", "read_csv_auto":
		return "csv"
	case "read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto":
		return "json"
	case "read_parquet", "parquet_scan":
		return "parquet"
	case "read_b2":
		return "b2"
	}
	return ""
}
