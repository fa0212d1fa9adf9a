package catalog

import (
	"fmt"
	"strings"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/sql"
)

// Sequences (CREATE SEQUENCE) belong to the catalog and live as long as
// it, as CREATE TYPE's types do (types.go): a database directory does not
// keep them. The counters are the executor's (executor.Sequence), named
// by a token that nextval('s') is bound to (sql.SequenceCatalog), so a
// column's DEFAULT nextval('s') reads the same sequence as a query.

// CreateSequence runs CREATE [OR REPLACE] SEQUENCE [IF NOT EXISTS].
func (c *Catalog) CreateSequence(st *sql.CreateSequence) error {
	key := strings.ToLower(st.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.seqs[key]; ok {
		switch {
		case st.IfNotExists:
			return nil
		case !st.OrReplace:
			return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("sequence %q already exists", st.Name)}
		}
		executor.DropSequence(old)
	}
	if c.seqs == nil {
		c.seqs = map[string]int64{}
	}
	c.seqs[key] = executor.NewSequence(&executor.Sequence{Name: st.Name, Start: st.Start, Incr: st.Incr, Min: st.Min, Max: st.Max, Cycle: st.Cycle})
	c.forgetSequence(key)
	if st.Temp {
		if c.tempSeqs == nil {
			c.tempSeqs = map[string]bool{}
		}
		c.tempSeqs[key] = true
	}
	return nil
}

// DropSequence runs DROP SEQUENCE [IF EXISTS].
func (c *Catalog) DropSequence(st *sql.DropSequence) error {
	key := strings.ToLower(st.Name)
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.seqs[key]
	if !ok {
		if st.IfExists {
			return nil
		}
		return &sql.Error{Pos: st.NamePos, Kind: sql.ErrUnknownTable, Msg: fmt.Sprintf("sequence %q does not exist", st.Name)}
	}
	delete(c.seqs, key)
	c.forgetSequence(key)
	executor.DropSequence(t)
	return nil
}

// forgetSequence forgets what the catalog keeps beside a sequence under
// key: its TEMP mark and its comment. Guarded by c.mu.
func (c *Catalog) forgetSequence(key string) {
	delete(c.tempSeqs, key)
	delete(c.comments, sequenceCommentKey(key))
}

// SequenceToken implements sql.SequenceCatalog.
func (c *Catalog) SequenceToken(name string) (int64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	t, ok := c.seqs[strings.ToLower(name)]
	return t, ok
}
