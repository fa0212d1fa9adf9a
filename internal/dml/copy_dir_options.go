package dml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b2sql/b2sql/internal/catalog"
	"github.com/b2sql/b2sql/sql"
)

// dirSpec is how COPY writes a directory.
type dirSpec struct {
	by        []string // PARTITION_BY columns
	byArg     sql.FileArg
	overwrite bool // OVERWRITE: the directory's files are deleted first
	ignore    bool // OVERWRITE_OR_IGNORE: files of the same name are replaced
	appendTo  bool // APPEND: new files beside the old, named by {uuid}
	pattern   string
	fileSize  int64
	perThread bool
	writeCols bool // WRITE_PARTITION_COLUMNS
}

// dirOptions takes the directory-writing options out of opts; ds is nil
// when the COPY writes one file.
func dirOptions(opts []sql.FileArg) (ds *dirSpec, rest []sql.FileArg, err error) {
	d := &dirSpec{}
	isDir := false
	var patternArg *sql.FileArg
	for _, o := range opts {
		switch o.Name {
		case "partition_by":
			d.byArg = o
			switch o.Value.Kind {
			case sql.ArgList:
				for _, e := range o.Value.Elems {
					d.by = append(d.by, e.Text)
				}
			case sql.ArgWord, sql.ArgString:
				d.by = []string{o.Value.Text}
			}
			if len(d.by) == 0 || slices.Contains(d.by, "") {
				return nil, nil, o.Err(sql.ErrType, fmt.Sprintf("PARTITION_BY expects column names, (a, b), got %s", o.Value))
			}
			isDir = true
		case "overwrite_or_ignore", "overwrite", "append", "per_thread_output", "write_partition_columns":
			on, err := catalog.BoolOption(o)
			if err != nil {
				return nil, nil, err
			}
			switch o.Name {
			case "overwrite_or_ignore":
				d.ignore = on
			case "overwrite":
				d.overwrite = on
			case "append":
				d.appendTo = on
			case "per_thread_output":
				d.perThread = on
				isDir = isDir || on
			case "write_partition_columns":
				d.writeCols = on
			}
		case "filename_pattern":
			if o.Value.Kind != sql.ArgString && o.Value.Kind != sql.ArgWord {
				return nil, nil, o.Err(sql.ErrType, fmt.Sprintf("FILENAME_PATTERN expects a string, got %s", o.Value))
			}
			d.pattern = o.Value.Text
			patternArg = &o
		case "file_size_bytes":
			n, err := byteCount(o)
			if err != nil {
				return nil, nil, err
			}
			d.fileSize = n
			isDir = true
		default:
			rest = append(rest, o)
		}
	}
	if !isDir {
		// OVERWRITE and the others mean nothing for one file, which a
		// COPY replaces anyway; FILENAME_PATTERN names files of a
		// directory only.
		if patternArg != nil {
			return nil, nil, patternArg.Err(sql.ErrType, "FILENAME_PATTERN names the files of a directory write (PARTITION_BY, PER_THREAD_OUTPUT or FILE_SIZE_BYTES)")
		}
		return nil, rest, nil
	}
	if d.pattern == "" {
		d.pattern = "data_{i}"
		if d.appendTo {
			d.pattern = "{uuid}"
		}
	}
	if d.appendTo && !strings.Contains(d.pattern, "{uuid}") {
		return nil, nil, patternArg.Err(sql.ErrType, "APPEND needs a {uuid} in FILENAME_PATTERN (new files must not replace old ones)")
	}
	if strings.ContainsAny(d.pattern, `/\`) {
		return nil, nil, patternArg.Err(sql.ErrType, fmt.Sprintf("FILENAME_PATTERN %q names a file, not a path", d.pattern))
	}
	return d, rest, nil
}

// String is EXPLAIN's account of the directory write.
func (d *dirSpec) String() string {
	var parts []string
	if len(d.by) > 0 {
		parts = append(parts, "partition_by=("+strings.Join(d.by, ", ")+")")
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{d.overwrite, "overwrite"}, {d.ignore, "overwrite_or_ignore"}, {d.appendTo, "append"}, {d.perThread, "per_thread_output"}, {d.writeCols, "write_partition_columns"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	if d.fileSize > 0 {
		parts = append(parts, fmt.Sprintf("file_size_bytes=%d", d.fileSize))
	}
	return strings.Join(append(parts, "filename_pattern='"+d.pattern+"'"), " ")
}
