package executor

import (
	"io"
	"strconv"
)

var ioEOF = io.EOF

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
