package dml

import (
	"context"
	"fmt"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// Run runs a statement that writes: INSERT, REPLACE, DELETE, UPDATE,
// COPY, CREATE TABLE [AS], DROP TABLE and the index statements. counted
// reports whether n, the rows written, is the statement's result.
func Run(ctx context.Context, env *Env, stmt sql.Statement, args []columnar.Value) (n int64, counted bool, err error) {
	switch s := stmt.(type) {
	case *sql.Insert:
		n, err = insert(ctx, env, s, args)
	case *sql.Delete:
		n, err = deleteRows(ctx, env, s, args)
	case *sql.Update:
		n, err = update(ctx, env, s, args)
	case *sql.Copy:
		n, err = copyTo(ctx, env, s, args)
	case *sql.CreateTableAs:
		n, err = createTableAs(ctx, env, s, args)
	case *sql.CreateTable:
		return 0, false, createTable(env.Cat, s)
	case *sql.DropTable:
		return 0, false, dropTable(env.Cat, s)
	case *sql.CreateIndex:
		return 0, false, createIndex(env.Cat, s)
	case *sql.DropIndex:
		return 0, false, dropIndex(env.Cat, s)
	case *sql.Reindex:
		return 0, false, reindex(env.Cat, s)
	default:
		return 0, false, fmt.Errorf("unexpected statement %T", stmt)
	}
	return n, true, err
}
