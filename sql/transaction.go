package sql

// Transaction is BEGIN [TRANSACTION] / START TRANSACTION [READ ONLY |
// READ WRITE] (Kind BEGIN), COMMIT / END (COMMIT) or ROLLBACK / ABORT
// (ROLLBACK); the session runs it (internal/engine/tx.go). Pos is the
// statement's first token.
type Transaction struct {
	Kind     string
	ReadOnly bool
	Pos      Pos
}

func (*Transaction) statement() {}
