package csv

import (
	"github.com/b2sql/b2sql/storage"

	"fmt"
	"strconv"
	"strings"
)

// Named is one option as SQL spells it, name = value (read_csv's named
// arguments, COPY's option list): the value as text (a string's contents,
// a number's or boolean's SQL text, "" for a bare flag such as HEADER).
type Named struct {
	Name  string
	Value string
}

// flagValue reads a boolean option; a bare flag is true.
func flagValue(n Named) (bool, error) {
	switch strings.ToLower(n.Value) {
	case "", "true", "1", "on", "yes", "t":
		return true, nil
	case "false", "0", "off", "no", "f":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s expects a boolean, got %q", ErrOption, n.Name, n.Value)
}

// charValue reads a one-byte option (delimiter, quote, escape, comment);
// "" means none, `\t` a tab.
func charValue(n Named) (byte, error) {
	v := n.Value
	switch v {
	case `\t`:
		return '\t', nil
	case "":
		return 0, nil
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("%w: %s must be a single byte, got %q", ErrOption, n.Name, v)
	}
	return v[0], nil
}

func intValue(n Named) (int, error) {
	i, err := strconv.Atoi(n.Value)
	if err != nil {
		return 0, fmt.Errorf("%w: %s expects an integer, got %q", ErrOption, n.Name, n.Value)
	}
	return i, nil
}

// newLineValue reads new_line: '\n', '\r\n', '\r' (as escapes or bytes).
func newLineValue(n Named) (string, error) {
	switch n.Value {
	case `\n`, "\n":
		return "\n", nil
	case `\r\n`, "\r\n":
		return "\r\n", nil
	case `\r`, "\r":
		return "\r", nil
	case "":
		return "", nil
	}
	return "", fmt.Errorf("%w: new_line must be '\\n', '\\r\\n' or '\\r', got %q", ErrOption, n.Value)
}

// ReadOptions turns read_csv's named options (DuckDB's names; COPY FROM's
// too) into Options. An unknown name is an error naming the known ones.
// Options whose values are lists or structs (columns, types, names) are
// set on Options directly by callers that can parse them.
func ReadOptions(named []Named) (Options, error) {
	var o Options
	for _, n := range named {
		var err error
		name := strings.ToLower(n.Name)
		switch name {
		case "delim", "delimiter", "sep", "separator":
			var c byte
			if c, err = charValue(n); err == nil {
				if c == 0 {
					err = fmt.Errorf("%w: %s cannot be empty", ErrOption, n.Name)
				}
				o.Delim = Some(c)
			}
		case "quote":
			var c byte
			c, err = charValue(n)
			o.Quote = Some(c)
		case "escape":
			var c byte
			c, err = charValue(n)
			o.Escape = Some(c)
		case "comment":
			var c byte
			c, err = charValue(n)
			o.Comment = Some(c)
		case "header":
			var b bool
			b, err = flagValue(n)
			o.Header = Some(b)
		case "new_line":
			o.NewLine, err = newLineValue(n)
		case "skip":
			o.Skip, err = intValue(n)
			if err == nil && o.Skip < 0 {
				err = fmt.Errorf("%w: skip must not be negative", ErrOption)
			}
		case "nullstr", "null":
			o.NullStr = append(o.NullStr, n.Value)
		case "dateformat", "date_format":
			o.DateFormat = n.Value
		case "timestampformat", "timestamp_format":
			o.TimestampFormat = n.Value
		case "decimal_separator":
			var c byte
			if c, err = charValue(n); err == nil && c != '.' && c != ',' {
				err = fmt.Errorf("%w: decimal_separator must be '.' or ','", ErrOption)
			}
			o.DecimalSep = c
		case "auto_detect":
			var b bool
			b, err = flagValue(n)
			o.AutoDetect = Some(b)
		case "sample_size":
			o.SampleSize, err = intValue(n)
			if err == nil && (o.SampleSize == 0 || o.SampleSize < -1) {
				err = fmt.Errorf("%w: sample_size must be positive or -1", ErrOption)
			}
		case "all_varchar":
			o.AllVarchar, err = flagValue(n)
		case "ignore_errors":
			o.IgnoreErrors, err = flagValue(n)
		case "store_rejects":
			o.StoreRejects, err = flagValue(n)
			if o.StoreRejects {
				o.IgnoreErrors = true
			}
		case "null_padding":
			o.NullPadding, err = flagValue(n)
		case "max_line_size", "maximum_line_size":
			o.MaxLineSize, err = intValue(n)
			if err == nil && o.MaxLineSize <= 0 {
				err = fmt.Errorf("%w: max_line_size must be positive", ErrOption)
			}
		case "compression":
			o.Compression = strings.ToLower(n.Value)
			if _, e := storage.CompressionOf("", o.Compression, nil); e != nil {
				err = fmt.Errorf("%w: %v", ErrOption, e)
			}
		case "parallel":
			var b bool
			b, err = flagValue(n)
			o.Parallel = Some(b)
		case "format":
			if v := strings.ToLower(n.Value); v != "csv" {
				err = fmt.Errorf("%w: format %q is not csv", ErrOption, n.Value)
			}
		case "normalize_names":
			o.NormalizeNames, err = flagValue(n)
		case "buffer_size":
			var k int
			if k, err = intValue(n); err == nil && k <= 0 {
				err = fmt.Errorf("%w: buffer_size must be positive", ErrOption)
			}
			o.BufferSize = int64(k)
		case "encoding":
			if _, e := storage.TextEncoding(n.Value); e != nil {
				err = fmt.Errorf("%w: %v", ErrOption, e)
			}
			o.Encoding = n.Value
		case "strict_mode":
			var b bool
			if b, err = flagValue(n); err == nil && !b {
				err = fmt.Errorf("%w: %w: strict_mode = false (this reader is strict: a malformed line is an error, or skipped with ignore_errors)", ErrOption, ErrUnsupported)
			}
		case "rejects_table":
			o.RejectsTable = n.Value
		case "rejects_scan":
			o.RejectsScan = n.Value
		case "rejects_limit":
			o.RejectsLimit, err = intValue(n)
			if err == nil && o.RejectsLimit < 0 {
				err = fmt.Errorf("%w: rejects_limit must not be negative", ErrOption)
			}
		default:
			err = fmt.Errorf("%w: unknown CSV option %q (delim, quote, escape, comment, header, new_line, skip, nullstr, dateformat, timestampformat, decimal_separator, auto_detect, sample_size, all_varchar, ignore_errors, store_rejects, rejects_table, rejects_scan, rejects_limit, null_padding, max_line_size, compression, normalize_names, buffer_size, encoding, strict_mode, parallel)", ErrOption, n.Name)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// WriteOptions turns COPY … TO 'x.csv' options into WriterOptions.
func WriteOptions(named []Named) (WriterOptions, error) {
	var o WriterOptions
	for _, n := range named {
		var err error
		switch strings.ToLower(n.Name) {
		case "delim", "delimiter", "sep", "separator":
			var c byte
			c, err = charValue(n)
			o.Delim = Some(c)
		case "quote":
			var c byte
			c, err = charValue(n)
			o.Quote = Some(c)
		case "escape":
			var c byte
			c, err = charValue(n)
			o.Escape = Some(c)
		case "header":
			var b bool
			b, err = flagValue(n)
			o.Header = Some(b)
		case "nullstr", "null":
			o.NullStr = n.Value
		case "dateformat", "date_format":
			o.DateFormat = n.Value
		case "timestampformat", "timestamp_format":
			o.TimestampFormat = n.Value
		case "compression":
			o.Compression = strings.ToLower(n.Value)
			_, err = writeCompression("", o.Compression)
		case "force_quote":
			for _, c := range strings.Split(n.Value, ",") {
				o.ForceQuote = append(o.ForceQuote, strings.TrimSpace(c))
			}
		case "new_line":
			o.NewLine, err = newLineValue(n)
		case "format":
			if v := strings.ToLower(n.Value); v != "csv" {
				err = fmt.Errorf("%w: format %q is not csv", ErrOption, n.Value)
			}
		default:
			err = fmt.Errorf("%w: unknown COPY option %q for CSV (header, delimiter, quote, escape, nullstr, dateformat, timestampformat, compression, force_quote, new_line)", ErrOption, n.Name)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}
