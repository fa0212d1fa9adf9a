package sql

import (
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// bindCTERef binds a reference to a WITH name; ok is false when name is
// not a CTE in scope.
func (b *binder) bindCTERef(tn sqlparser.TableName, alias string) (*fromItem, bool, error) {
	return nil, false, nil
}

// bindDerived binds FROM (SELECT …) AS alias [(cols)].
func (b *binder) bindDerived(sq *sqlparser.Subquery, alias string) (*fromItem, error) {
	return nil, b.errAt(b.q.findKeyword("SELECT", b.cl.from), ErrUnsupported, "subqueries are not supported")
}
