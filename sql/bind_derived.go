package sql

// bindRecursive binds a WITH RECURSIVE entry that refers to itself.
func (b *binder) bindRecursive(def *cteDef, alias string) (*fromItem, error) {
	at := b.q.findName("", def.name, b.q.whole())
	return nil, b.errAt(at, ErrUnsupported, "WITH RECURSIVE is not supported")
}
