package dml

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/csv"
	"github.com/b2sql/b2sql/formats/json"
	"github.com/b2sql/b2sql/formats/parquet"
	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// COPY … TO's format and options. The format is FORMAT's, else the
// target's extension's (.parquet, .csv/.tsv, .json/.ndjson, .b2d/.b2z),
// else CSV, DuckDB's default; the other options must be ones that format
// takes, so a write never produces another format than its target names.

// copySpec is a COPY TO statement's format and its writer's options.
type copySpec struct {
	format string // "parquet", "csv", "json", "ctable"
	// b2z: a CTable as one .b2z file (FORMAT b2z); compression: a text
	// format's codec ("gzip", "zstd"), for a directory write's file names.
	b2z         bool
	compression string
	// tsFormat: a text format's timestampformat is set, which DuckDB
	// applies to TIMESTAMPTZ columns too (copy_zone.go).
	tsFormat bool
	// dir, when set, makes the COPY write a directory (copy_partition.go).
	dir  *dirSpec
	open func(path string, schema columnar.Schema) (tableWriter, func(), error)
	desc string // for EXPLAIN: "format=csv delimiter='|'"
}

// copyFormatOf is the format of COPY TO path with options opts.
func copyFormatOf(path string, opts []sql.FileArg) (string, error) {
	for _, o := range opts {
		if o.Name != "format" {
			continue
		}
		switch f := strings.ToLower(o.Value.Text); f {
		case "parquet", "csv", "json":
			return f, nil
		case "ndjson", "jsonl":
			return "json", nil
		case "b2", "b2d", "b2z", "ctable":
			return "ctable", nil
		default:
			return "", o.Err(sql.ErrUnsupported, fmt.Sprintf("COPY format %q is not supported (parquet, csv, json, b2)", o.Value.Text))
		}
	}
	switch k := catalog.Kind(path); k {
	case "parquet", "csv", "json", "ctable":
		return k, nil
	}
	return "csv", nil
}

// copySpecOf checks COPY TO's options against its format.
func copySpecOf(path string, opts []sql.FileArg) (*copySpec, error) {
	format, err := copyFormatOf(path, opts)
	if err != nil {
		return nil, err
	}
	dir, opts, err := dirOptions(opts)
	if err != nil {
		return nil, err
	}
	s := &copySpec{format: format, desc: "format=" + format, dir: dir}
	for _, o := range opts {
		switch strings.ToLower(o.Value.Text) {
		case "b2z":
			s.b2z = s.b2z || o.Name == "format"
		case "gzip", "gz", "zstd", "zst":
			if o.Name == "compression" {
				s.compression = map[string]string{"gzip": "gzip", "gz": "gzip", "zstd": "zstd", "zst": "zstd"}[strings.ToLower(o.Value.Text)]
			}
		}
	}
	if dir != nil {
		s.desc += " " + dir.String()
	}
	if format == "ctable" {
		s.desc = "format=" + strings.ToLower(strings.TrimPrefix(filepath.Ext(strings.TrimRight(path, `/\`)), "."))
	}
	var rest []sql.FileArg
	for _, o := range opts {
		switch o.Name {
		case "format":
			continue
		}
		rest = append(rest, o)
		s.desc += " " + o.Name
		if o.Value.Kind != sql.ArgFlag {
			s.desc += "=" + o.Value.String()
		}
	}
	switch format {
	case "parquet":
		var po parquet.WriterOptions
		for _, o := range rest {
			v, err := argText(o)
			if err != nil {
				return nil, err
			}
			switch o.Name {
			case "compression", "codec":
				switch strings.ToLower(v) {
				case "snappy":
					po.Codec = parquet.Snappy
				case "zstd":
					po.Codec = parquet.Zstd
				case "uncompressed", "none":
					po.Codec = parquet.Uncompressed
				case "gzip":
					po.Codec = parquet.Gzip
				case "brotli":
					po.Codec = parquet.Brotli
				case "lz4", "lz4_raw":
					po.Codec = parquet.Lz4Raw
				default:
					return nil, o.Err(sql.ErrType, fmt.Sprintf("unknown Parquet compression %q (uncompressed, snappy, gzip, zstd, brotli, lz4, lz4_raw)", v))
				}
			case "row_group_size", "row_group_rows":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n <= 0 {
					return nil, o.Err(sql.ErrType, fmt.Sprintf("ROW_GROUP_SIZE expects a positive integer, got %s", o.Value))
				}
				po.RowGroupRows = n
			default:
				return nil, o.Err(sql.ErrUnsupported, fmt.Sprintf("COPY option %s is not supported for Parquet (it takes COMPRESSION and ROW_GROUP_SIZE)", strings.ToUpper(o.Name)))
			}
		}
		s.open = func(path string, schema columnar.Schema) (tableWriter, func(), error) {
			w, err := parquet.NewWriter(path, schema, po)
			if err != nil {
				return nil, nil, err
			}
			return w, w.Abort, nil
		}
	case "csv":
		var named []csv.Named
		for _, o := range rest {
			v, err := argText(o)
			if err != nil {
				return nil, err
			}
			n := csv.Named{Name: o.Name, Value: v}
			if _, err := csv.WriteOptions([]csv.Named{n}); err != nil {
				return nil, o.Err(sql.ErrUnsupported, strings.TrimPrefix(err.Error(), "csv: "))
			}
			named = append(named, n)
		}
		co, err := csv.WriteOptions(named)
		if err != nil {
			return nil, err
		}
		s.tsFormat = co.TimestampFormat != ""
		s.open = func(path string, schema columnar.Schema) (tableWriter, func(), error) {
			w, err := csv.NewWriter(path, schema, co)
			if err != nil {
				return nil, nil, err
			}
			return w, w.Abort, nil
		}
	case "json":
		var named []json.Named
		for _, o := range rest {
			v, err := argText(o)
			if err != nil {
				return nil, err
			}
			n := json.Named{Name: o.Name, Value: v}
			if _, err := json.WriteOptions([]json.Named{n}); err != nil {
				return nil, o.Err(sql.ErrUnsupported, strings.TrimPrefix(err.Error(), "json: "))
			}
			named = append(named, n)
		}
		jo, err := json.WriteOptions(named)
		if err != nil {
			return nil, err
		}
		s.tsFormat = jo.TimestampFormat != ""
		s.open = func(path string, schema columnar.Schema) (tableWriter, func(), error) {
			w, err := json.NewWriter(path, schema, jo)
			if err != nil {
				return nil, nil, err
			}
			return w, w.Abort, nil
		}
	case "ctable":
		if len(rest) > 0 {
			return nil, rest[0].Err(sql.ErrUnsupported, fmt.Sprintf("COPY option %s is not supported for b2 tables", strings.ToUpper(rest[0].Name)))
		}
		s.open = func(path string, schema columnar.Schema) (tableWriter, func(), error) {
			return createCTable(strings.TrimRight(path, `/\`), schema, s.b2z) // copy_write.go
		}
	}
	return s, nil
}

// DescribeCopy is EXPLAIN's account of COPY … TO path: the format and
// options the write uses.
func DescribeCopy(path string, c *sql.Copy) (string, error) {
	s, err := copySpecOf(path, c.Options)
	if err != nil {
		return "", err
	}
	return s.desc, nil
}
