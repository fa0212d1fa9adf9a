package json

import (
	"github.com/b2sql/b2sql/storage"

	"fmt"
	"strconv"
	"strings"
)

// Named is one option as SQL spells it, name = value, the value as text
// ("" for a bare flag).
type Named struct {
	Name  string
	Value string
}

func flagValue(n Named) (bool, error) {
	switch strings.ToLower(n.Value) {
	case "", "true", "1", "on", "yes", "t":
		return true, nil
	case "false", "0", "off", "no", "f":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s expects a boolean, got %q", ErrOption, n.Name, n.Value)
}

// ReadOptions turns read_json's named options into Options; fn is the
// table function (read_ndjson implies newline-delimited values).
func ReadOptions(fn string, named []Named) (Options, error) {
	var o Options
	if strings.HasPrefix(strings.ToLower(fn), "read_ndjson") {
		o.Format = "newline_delimited"
	}
	for _, n := range named {
		var err error
		switch strings.ToLower(n.Name) {
		case "format":
			o.Format = strings.ToLower(n.Value)
			switch o.Format {
			case "auto", "newline_delimited", "nd", "array", "unstructured":
			case "json":
				o.Format = ""
			default:
				err = fmt.Errorf("%w: format %q (auto, newline_delimited, array, unstructured)", ErrOption, n.Value)
			}
		case "records":
			o.Records = strings.ToLower(n.Value)
			if o.Records == "" {
				o.Records = "true"
			}
			switch o.Records {
			case "auto", "true", "false":
			default:
				err = fmt.Errorf("%w: records %q (auto, true, false)", ErrOption, n.Value)
			}
		case "sample_size":
			o.SampleSize, err = strconv.Atoi(n.Value)
			if err != nil || o.SampleSize == 0 || o.SampleSize < -1 {
				err = fmt.Errorf("%w: sample_size must be positive or -1, got %q", ErrOption, n.Value)
			}
		case "dateformat", "date_format":
			o.DateFormat = n.Value
		case "timestampformat", "timestamp_format":
			o.TimestampFormat = n.Value
		case "ignore_errors":
			o.IgnoreErrors, err = flagValue(n)
		case "compression":
			o.Compression = strings.ToLower(n.Value)
			if _, e := storage.CompressionOf("", o.Compression, nil); e != nil {
				err = fmt.Errorf("%w: %v", ErrOption, e)
			}
		case "maximum_object_size":
			o.MaximumObjectSize, err = strconv.Atoi(n.Value)
			if err != nil || o.MaximumObjectSize <= 0 {
				err = fmt.Errorf("%w: maximum_object_size must be a positive integer, got %q", ErrOption, n.Value)
			}
		case "auto_detect":
			var b bool
			if b, err = flagValue(n); err == nil && !b {
				err = fmt.Errorf("%w: auto_detect = false needs columns", ErrOption)
			}
		default:
			err = fmt.Errorf("%w: unknown JSON option %q (format, records, sample_size, dateformat, timestampformat, ignore_errors, compression, maximum_object_size)", ErrOption, n.Name)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// WriteOptions turns COPY … TO 'x.json' options into WriterOptions.
func WriteOptions(named []Named) (WriterOptions, error) {
	var o WriterOptions
	for _, n := range named {
		var err error
		switch strings.ToLower(n.Name) {
		case "array":
			o.Array, err = flagValue(n)
		case "dateformat", "date_format":
			o.DateFormat = n.Value
		case "timestampformat", "timestamp_format":
			o.TimestampFormat = n.Value
		case "compression":
			o.Compression = strings.ToLower(n.Value)
			switch o.Compression {
			case "", "auto", "none", "uncompressed", "gzip", "zstd":
			default:
				err = fmt.Errorf("%w: compression %q (auto, none, gzip, zstd)", ErrOption, n.Value)
			}
		case "format":
			if v := strings.ToLower(n.Value); v != "json" && v != "ndjson" {
				err = fmt.Errorf("%w: format %q is not json", ErrOption, n.Value)
			}
		default:
			err = fmt.Errorf("%w: unknown COPY option %q for JSON (array, dateformat, timestampformat, compression)", ErrOption, n.Name)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}
