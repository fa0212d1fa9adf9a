package storage

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// Text encodings of the files a text reader decodes to UTF-8 as it
// streams them: DuckDB's CSV encoding option, whose built-in values are
// utf-8, utf-16 and latin-1 (ISO-8859-1).

// ErrUnknownEncoding: an encoding option names none of those.
var ErrUnknownEncoding = errors.New("unknown encoding")

// TextEncoding returns the decoder of name (case-insensitive), nil for
// UTF-8 (nothing to decode). utf-16 is little-endian unless the file
// starts with a big-endian byte order mark; a mark is not part of the text.
func TextEncoding(name string) (encoding.Encoding, error) {
	switch strings.ToLower(name) {
	case "", "utf-8":
		return nil, nil
	case "utf-16":
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), nil
	case "latin-1":
		return charmap.ISO8859_1, nil
	}
	return nil, fmt.Errorf("%w %q (utf-8, utf-16, latin-1)", ErrUnknownEncoding, name)
}

// decoded wraps r in the decoder of enc (nil: r itself).
func decoded(r io.ReadCloser, enc encoding.Encoding) io.ReadCloser {
	if enc == nil {
		return r
	}
	return struct {
		io.Reader
		io.Closer
	}{enc.NewDecoder().Reader(r), r}
}
