package main

import (
	"context"
	dsql "database/sql"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/b2sql/b2sql"
	"github.com/b2sql/b2sql/columnar"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// engine runs SQL text against the benchmark's tables. Run collects and normalizes
// the whole result; Drain only consumes it, so timed runs measure the engine
// rather than this harness's conversions.
type engine interface {
	Name() string
	Run(ctx context.Context, query string) (*result, error)
	Drain(ctx context.Context, query string) (int64, error)
	Close() error
}

// b2sqlEngine is the in-process b2sql API.
type b2sqlEngine struct {
	name string
	db   *b2sql.DB
}

func openB2SQL(ctx context.Context, name string, tables map[string]string, threads int, setup ...string) (*b2sqlEngine, error) {
	db, err := b2sql.Open("", b2sql.WithThreads(threads))
	if err != nil {
		return nil, err
	}
	for t, path := range tables {
		if err := db.RegisterTable(t, path); err != nil {
			return nil, err
		}
	}
	e := &b2sqlEngine{name: name, db: db}
	for _, s := range setup {
		if _, err := e.Drain(ctx, s); err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
	}
	return e, nil
}

func (e *b2sqlEngine) Name() string { return e.name }

// Close closes the DB if its API has a Close (the harness is written against
// Open/Query/RegisterTable only, so it keeps building as the API grows).
func (e *b2sqlEngine) Close() error {
	if c, ok := any(e.db).(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

func (e *b2sqlEngine) Run(ctx context.Context, query string) (res *result, err error) {
	defer recoverPanic(&err)
	rows, err := e.db.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := rows.Columns()
	res = &result{Cols: make([]string, len(cols))}
	for i, c := range cols {
		res.Cols[i] = c.Name
	}
	for rows.Next() {
		vals := rows.Values()
		row := make([]cell, len(vals))
		for i, v := range vals {
			row[i] = fromB2SQL(v)
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return res, rows.Close()
}

func (e *b2sqlEngine) Drain(ctx context.Context, query string) (n int64, err error) {
	defer recoverPanic(&err)
	rows, err := e.db.Query(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		_ = rows.Values()
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, rows.Close()
}

// recoverPanic turns a panic escaping the engine into an error so that one
// broken query does not end the whole comparison.
func recoverPanic(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("panic: %v", p)
	}
}

func fromB2SQL(v columnar.Value) cell {
	if v.Null {
		return cell{K: kNull}
	}
	switch v.Type.ID {
	case columnar.Null:
		return cell{K: kNull}
	case columnar.Bool:
		return cell{K: kBool, I: v.I}
	case columnar.Int8, columnar.Int16, columnar.Int32, columnar.Int64,
		columnar.Uint8, columnar.Uint16, columnar.Uint32:
		return cell{K: kInt, I: v.I}
	case columnar.Uint64:
		if u := uint64(v.I); u <= math.MaxInt64 {
			return cell{K: kInt, I: int64(u)}
		}
		return cell{K: kFloat, F: float64(uint64(v.I))}
	case columnar.Float32, columnar.Float64, columnar.Decimal:
		return cell{K: kFloat, F: v.AsFloat()}
	case columnar.Hugeint, columnar.Uhugeint:
		// sum(INTEGER) and friends are HUGEINT in both engines; DuckDB's
		// come as *big.Int, read by fromDuck's rule.
		return bigCell(v.WideBig())
	case columnar.Decimal128:
		return cell{K: kFloat, F: columnar.WideFloat(v)}
	case columnar.Varchar, columnar.Blob:
		return cell{K: kString, S: strings.Clone(v.S)}
	case columnar.Date:
		return cell{K: kTime, I: v.I * columnar.MicrosPerDay}
	case columnar.Timestamp:
		return cell{K: kTime, I: v.I}
	}
	return cell{K: kString, S: v.String()}
}

// duckEngine is DuckDB through database/sql, with each table a VIEW over
// read_parquet so both engines see the same SQL text.
type duckEngine struct {
	db   *dsql.DB
	conn *dsql.Conn
}

// openDuckDB opens an in-memory DuckDB; call view once the file exists.
func openDuckDB(ctx context.Context, threads int) (*duckEngine, error) {
	db, err := dsql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	e := &duckEngine{db: db, conn: conn}
	if err := e.exec(ctx, fmt.Sprintf("SET threads = %d", threads)); err != nil {
		e.Close()
		return nil, err
	}
	// Timestamps in the file may be UTC-adjusted (TIMESTAMPTZ in DuckDB); with
	// the session in UTC their comparisons with TIMESTAMP literals mean what
	// they mean in b2sql. Without the ICU extension the setting is absent and
	// DuckDB already works in UTC.
	conn.ExecContext(ctx, "SET TimeZone = 'UTC'")
	return e, nil
}

func (e *duckEngine) exec(ctx context.Context, stmt string) error {
	if _, err := e.conn.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("duckdb: %s: %w", stmt, err)
	}
	return nil
}

// views creates one view per table over its Parquet file; DuckDB binds
// them at once, so the files must exist.
func (e *duckEngine) views(ctx context.Context, tables map[string]string) error {
	for t, path := range tables {
		if err := e.exec(ctx, "CREATE VIEW "+t+" AS SELECT * FROM read_parquet("+sqlString(path)+")"); err != nil {
			return err
		}
	}
	return nil
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (e *duckEngine) Name() string { return "DuckDB" }

func (e *duckEngine) Close() error {
	e.conn.Close()
	return e.db.Close()
}

func (e *duckEngine) Version(ctx context.Context) string {
	var v string
	if err := e.conn.QueryRowContext(ctx, "SELECT version()").Scan(&v); err != nil {
		return "?"
	}
	return v
}

func (e *duckEngine) query(ctx context.Context, query string, each func([]any) error) (cols []string, err error) {
	rows, err := e.conn.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err = rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		if err := each(vals); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return cols, rows.Close()
}

func (e *duckEngine) Run(ctx context.Context, query string) (*result, error) {
	res := &result{}
	cols, err := e.query(ctx, query, func(vals []any) error {
		row := make([]cell, len(vals))
		for i, v := range vals {
			c, err := fromDuck(v)
			if err != nil {
				return err
			}
			row[i] = c
		}
		res.Rows = append(res.Rows, row)
		return nil
	})
	res.Cols = cols
	return res, err
}

func (e *duckEngine) Drain(ctx context.Context, query string) (int64, error) {
	var n int64
	_, err := e.query(ctx, query, func([]any) error { n++; return nil })
	return n, err
}

// bigCell is a HUGEINT: an integer cell when it fits 64 bits, else a float.
func bigCell(x *big.Int) cell {
	if x.IsInt64() {
		return cell{K: kInt, I: x.Int64()}
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	return cell{K: kFloat, F: f}
}

func fromDuck(v any) (cell, error) {
	switch x := v.(type) {
	case nil:
		return cell{K: kNull}, nil
	case bool:
		c := cell{K: kBool}
		if x {
			c.I = 1
		}
		return c, nil
	case int8:
		return cell{K: kInt, I: int64(x)}, nil
	case int16:
		return cell{K: kInt, I: int64(x)}, nil
	case int32:
		return cell{K: kInt, I: int64(x)}, nil
	case int64:
		return cell{K: kInt, I: x}, nil
	case uint8:
		return cell{K: kInt, I: int64(x)}, nil
	case uint16:
		return cell{K: kInt, I: int64(x)}, nil
	case uint32:
		return cell{K: kInt, I: int64(x)}, nil
	case uint64:
		if x <= math.MaxInt64 {
			return cell{K: kInt, I: int64(x)}, nil
		}
		return cell{K: kFloat, F: float64(x)}, nil
	case *big.Int: // HUGEINT, e.g. sum(INTEGER)
		return bigCell(x), nil
	case float32:
		return cell{K: kFloat, F: float64(x)}, nil
	case float64:
		return cell{K: kFloat, F: x}, nil
	case duckdb.Decimal:
		return cell{K: kFloat, F: x.Float64()}, nil
	case string:
		return cell{K: kString, S: x}, nil
	case []byte:
		return cell{K: kString, S: string(x)}, nil
	case time.Time:
		return cell{K: kTime, I: x.UnixMicro()}, nil
	}
	return cell{}, fmt.Errorf("duckdb: unsupported result type %T", v)
}
