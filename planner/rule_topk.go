package planner

// The MakeTopK rule (the physical choices for a TopK are in topk.go).

// makeTopK turns Limit over Sort into a bounded-heap TopK.
func makeTopK(n Node) Node {
	n = mapChildren(n, makeTopK)
	if l, ok := n.(*Limit); ok && l.Count >= 0 {
		if s, ok := l.Input.(*Sort); ok {
			return &TopK{Input: s.Input, Keys: s.Keys, Count: l.Count, Offset: l.Offset}
		}
	}
	return n
}
