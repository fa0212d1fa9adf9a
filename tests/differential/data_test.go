package differential

import (
	"bytes"
	stdsql "database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// kind is the type of a generated column or expression.
type kind int

const (
	kInt   kind = iota // INTEGER / BIGINT
	kFloat             // DOUBLE, multiples of 1/4
	kStr               // VARCHAR, ASCII
	kBool              // BOOLEAN
	kDate              // DATE
	kTS                // TIMESTAMP, whole seconds
)

// column is one generated column. sqlType is b2sql's type; SQLite gets the
// matching storage class.
type column struct {
	name    string
	kind    kind
	sqlType string
	notNull bool
}

// table is a generated table: rows hold nil (NULL), int64, float64,
// string, bool, a day number (kDate) or Unix seconds (kTS).
type table struct {
	name string
	cols []column
	rows [][]any
}

// epoch is the first date of the generated dates and timestamps.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// vocab is the string domain: duplicates, an empty string, case pairs and
// the LIKE metacharacters (which patterns never escape, in both engines).
var vocab = []string{"", "a", "ab", "abc", "b", "B", "ba", "b_c", "x%y", "hello", "Hello", "help", "zeta", "a b"}

// makeTables generates the fact table t1 (n rows) and the dimension t2
// from seed. Every column but id may be NULL; values repeat on purpose.
func makeTables(seed uint64, n int) []*table {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	t1 := &table{name: "t1", cols: []column{
		{"id", kInt, "BIGINT", true},
		{"a", kInt, "INTEGER", false},
		{"b", kInt, "BIGINT", false},
		{"x", kFloat, "DOUBLE", false},
		{"s", kStr, "VARCHAR", false},
		{"f", kBool, "BOOLEAN", false},
		{"d", kDate, "DATE", false},
		{"ts", kTS, "TIMESTAMP", false},
	}}
	ids := r.Perm(n)
	for i := range n {
		t1.rows = append(t1.rows, []any{
			int64(ids[i]),
			nullable(r, 0.15, int64(r.IntN(11)-5)),
			nullable(r, 0.1, int64(r.IntN(2001)-1000)),
			nullable(r, 0.1, float64(r.IntN(401)-200)/4),
			nullable(r, 0.1, vocab[r.IntN(len(vocab))]),
			nullable(r, 0.2, r.IntN(2) == 1),
			nullable(r, 0.1, int64(r.IntN(60))),
			nullable(r, 0.1, epoch.Unix()+int64(r.IntN(10*86400))),
		})
	}
	m := 4 + n/10
	t2 := &table{name: "t2", cols: []column{
		{"id", kInt, "BIGINT", true},
		{"k", kInt, "INTEGER", false},
		{"name", kStr, "VARCHAR", false},
		{"w", kFloat, "DOUBLE", false},
	}}
	for i := range m {
		t2.rows = append(t2.rows, []any{
			int64(i),
			nullable(r, 0.1, int64(r.IntN(13)-6)),
			nullable(r, 0.1, vocab[r.IntN(len(vocab))]),
			nullable(r, 0.1, float64(r.IntN(81)-40)/4),
		})
	}
	return []*table{t1, t2}
}

// nullable returns nil with probability p, else v.
func nullable(r *rand.Rand, p float64, v any) any {
	if r.Float64() < p {
		return nil
	}
	return v
}

func (c column) arrowType() arrow.DataType {
	switch c.kind {
	case kFloat:
		return arrow.PrimitiveTypes.Float64
	case kStr:
		return arrow.BinaryTypes.String
	case kBool:
		return arrow.FixedWidthTypes.Boolean
	case kDate:
		return arrow.FixedWidthTypes.Date32
	case kTS:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	}
	if c.sqlType == "INTEGER" {
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.PrimitiveTypes.Int64
}

// writeParquet writes t to dir/<name>.parquet with arrow-go (row groups of
// rowGroup rows, so that statistics pruning has something to skip).
func writeParquet(t *table, dir string, rowGroup int) (string, error) {
	fields := make([]arrow.Field, len(t.cols))
	for k, c := range t.cols {
		fields[k] = arrow.Field{Name: c.name, Type: c.arrowType(), Nullable: !c.notNull}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer b.Release()
	for j := range t.cols {
		fb := b.Field(j)
		for _, row := range t.rows {
			v := row[j]
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.Int32Builder:
				fb.Append(int32(v.(int64)))
			case *array.Int64Builder:
				fb.Append(v.(int64))
			case *array.Float64Builder:
				fb.Append(v.(float64))
			case *array.StringBuilder:
				fb.Append(v.(string))
			case *array.BooleanBuilder:
				fb.Append(v.(bool))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(epoch.Unix()/86400 + v.(int64)))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(v.(int64) * 1e6))
			default:
				return "", fmt.Errorf("no builder case for %T", fb)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer tbl.Release()
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(rowGroup)), parquet.WithStats(true))
	var buf bytes.Buffer // the writer closes its sink
	if err := pqarrow.WriteTable(tbl, &buf, int64(rowGroup), props, pqarrow.DefaultWriterProps()); err != nil {
		return "", err
	}
	path := filepath.Join(dir, t.name+".parquet")
	return path, os.WriteFile(path, buf.Bytes(), 0o644)
}

// sqliteValue is v as SQLite stores it: booleans 0/1, dates and timestamps
// as ISO text (whose order is the values' order).
func sqliteValue(k kind, v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case bool:
		if v {
			return int64(1)
		}
		return int64(0)
	case int64:
		switch k {
		case kDate:
			return epoch.AddDate(0, 0, int(v)).Format(time.DateOnly)
		case kTS:
			return time.Unix(v, 0).UTC().Format(time.DateTime)
		}
	}
	return v
}

func (c column) sqliteType() string {
	switch c.kind {
	case kFloat:
		return "REAL"
	case kStr, kDate, kTS:
		return "TEXT"
	}
	return "INTEGER"
}

// loadSQLite creates t in db and inserts its rows.
func loadSQLite(db *stdsql.DB, t *table) error {
	defs := make([]string, len(t.cols))
	marks := make([]string, len(t.cols))
	for k, c := range t.cols {
		defs[k] = c.name + " " + c.sqliteType()
		marks[k] = "?"
	}
	if _, err := db.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", t.name, strings.Join(defs, ", "))); err != nil {
		return err
	}
	ins := fmt.Sprintf("INSERT INTO %s VALUES (%s)", t.name, strings.Join(marks, ", "))
	for _, row := range t.rows {
		args := make([]any, len(row))
		for k, v := range row {
			args[k] = sqliteValue(t.cols[k].kind, v)
		}
		if _, err := db.Exec(ins, args...); err != nil {
			return err
		}
	}
	return nil
}

// dump renders t as SQL statements (SQLite's dialect), for a reproducer.
func (t *table) dump() string {
	var sb strings.Builder
	defs := make([]string, len(t.cols))
	for k, c := range t.cols {
		defs[k] = c.name + " " + c.sqlType
	}
	fmt.Fprintf(&sb, "CREATE TABLE %s (%s);\n", t.name, strings.Join(defs, ", "))
	for _, row := range t.rows {
		vals := make([]string, len(row))
		for k, v := range row {
			switch v := sqliteValue(t.cols[k].kind, v).(type) {
			case nil:
				vals[k] = "NULL"
			case string:
				vals[k] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
			default:
				vals[k] = fmt.Sprint(v)
			}
		}
		fmt.Fprintf(&sb, "INSERT INTO %s VALUES (%s);\n", t.name, strings.Join(vals, ", "))
	}
	return sb.String()
}
