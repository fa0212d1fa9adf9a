package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/csv"
	"github.com/b2sql/b2sql/sql"
)

// read_csv(…, store_rejects = true) keeps the lines ignore_errors drops in
// two in-memory tables, as DuckDB does: reject_errors (one row per
// rejected line: scan, file, line, column, error type, the line's text and
// the message) and reject_scans (one row per file scanned: its path and
// the dialect it was read with). rejects_table and rejects_scan name
// them; rows accumulate across scans, told apart by scan_id.
// line_byte_position and byte_position are NULL where the reader does not
// know DuckDB's value (csv.Reject).

// rejectErrorsSchema and rejectScansSchema are the tables' columns.
var (
	rejectErrorsSchema = columnar.Schema{
		{Name: "scan_id", Type: columnar.TUint64}, {Name: "file_id", Type: columnar.TUint64},
		{Name: "line", Type: columnar.TUint64},
		{Name: "line_byte_position", Type: columnar.TUint64, Nullable: true}, {Name: "byte_position", Type: columnar.TUint64, Nullable: true},
		{Name: "column_idx", Type: columnar.TUint64, Nullable: true},
		{Name: "column_name", Type: columnar.TVarchar, Nullable: true}, {Name: "error_type", Type: columnar.TVarchar},
		{Name: "csv_line", Type: columnar.TVarchar}, {Name: "error_message", Type: columnar.TVarchar},
	}
	rejectScansSchema = columnar.Schema{
		{Name: "scan_id", Type: columnar.TUint64}, {Name: "file_id", Type: columnar.TUint64},
		{Name: "file_path", Type: columnar.TVarchar}, {Name: "delimiter", Type: columnar.TVarchar},
		{Name: "quote", Type: columnar.TVarchar}, {Name: "escape", Type: columnar.TVarchar},
		{Name: "newline_delimiter", Type: columnar.TVarchar}, {Name: "skip_rows", Type: columnar.TUint64},
		{Name: "has_header", Type: columnar.TBool}, {Name: "columns", Type: columnar.TVarchar},
		{Name: "date_format", Type: columnar.TVarchar, Nullable: true}, {Name: "timestamp_format", Type: columnar.TVarchar, Nullable: true},
		{Name: "user_arguments", Type: columnar.TVarchar},
	}
)

// rejectTable returns the in-memory table registered as name with
// schema, registering a new one when there is none or the name holds
// another table.
func (c *Catalog) rejectTable(name string, schema columnar.Schema) *MemTable {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := strings.ToLower(name)
	if t, ok := c.tables[key].(*MemTable); ok && len(t.schema) == len(schema) && t.schema[0].Name == schema[0].Name {
		return t
	}
	t := NewMemTable(schema, nil)
	if old, ok := c.tables[key]; ok {
		c.retire(old)
	}
	c.tables[key] = t
	c.names[key] = name
	return t
}

// storeRejects sets o up to keep its rejects in the catalog's reject
// tables, for the files of one scan (ids by position in files); it
// returns the function recording a file's scan once it is opened.
func (c *Catalog) storeRejects(o *csv.Options, files []string, args []sql.FileArg) func(path string, t *csv.Table) {
	if !o.StoreRejects {
		return func(string, *csv.Table) {}
	}
	errName, scanName := o.RejectsTable, o.RejectsScan
	if errName == "" {
		errName = "reject_errors"
	}
	if scanName == "" {
		scanName = "reject_scans"
	}
	errs, scans := c.rejectTable(errName, rejectErrorsSchema), c.rejectTable(scanName, rejectScansSchema)
	scan := c.db().rejectScans.Add(1)
	ids := map[string]uint64{}
	for i, f := range files {
		if _, ok := ids[f]; !ok {
			ids[f] = uint64(i)
		}
	}
	u := func(x uint64) columnar.Value { return columnar.Value{Type: columnar.TUint64, I: int64(x)} }
	s := columnar.StringValue
	o.OnReject = func(r csv.Reject) {
		col, name := columnar.NullValue(columnar.TUint64), columnar.NullValue(columnar.TVarchar)
		if r.Column > 0 {
			col = u(uint64(r.Column))
		}
		if r.Name != "" {
			name = s(r.Name)
		}
		pos := func(p int64) columnar.Value {
			if p <= 0 {
				return columnar.NullValue(columnar.TUint64)
			}
			return u(uint64(p))
		}
		errs.Append([][]columnar.Value{{u(scan), u(ids[r.File]), u(uint64(r.Line)), pos(r.LineByte), pos(r.Byte), col, name, s(r.ErrorType), s(r.CSVLine), s(r.Message)}})
	}
	var user []string
	for _, a := range args {
		user = append(user, a.Name+"="+a.Value.String())
	}
	return func(path string, t *csv.Table) {
		sn := t.Sniffed()
		ch := func(b byte) columnar.Value {
			if b == 0 {
				return s("(empty)")
			}
			return s(string(b))
		}
		var cols []string
		for _, col := range sn.Columns {
			cols = append(cols, fmt.Sprintf("'%s': '%s'", col.Name, col.Type))
		}
		nl := `\n`
		if sn.Dialect.CarriageReturn {
			nl = `\r`
		}
		opt := func(f string) columnar.Value {
			if f == "" {
				return columnar.NullValue(columnar.TVarchar)
			}
			return s(f)
		}
		scans.Append([][]columnar.Value{{u(scan), u(ids[path]), s(path), ch(sn.Dialect.Delim), ch(sn.Dialect.Quote), ch(sn.Dialect.Escape),
			s(nl), u(uint64(o.Skip)), columnar.BoolValue(sn.Header), s("{" + strings.Join(cols, ",") + "}"),
			opt(o.DateFormat), opt(o.TimestampFormat), s(strings.Join(user, ", "))}})
	}
}
