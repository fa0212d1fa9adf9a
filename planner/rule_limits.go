package planner

import "github.com/b2sql/b2sql/index"

// The PushLimits rule.

// pushLimits lets a scan stop early when a Limit sits above it with only
// order-preserving, row-count-preserving nodes (Project) between.
func pushLimits(n Node) Node {
	n = mapChildren(n, pushLimits)
	l, ok := n.(*Limit)
	if !ok || l.Count < 0 {
		return n
	}
	in := l.Input
	for {
		p, ok := in.(*Project)
		if !ok {
			break
		}
		in = p.Input
	}
	if s, ok := in.(*Scan); ok {
		// Only predicates the scan applies exactly may sit below a limit:
		// an inexact one leaves a Filter above the scan, which ends the walk.
		exact := true
		for _, sup := range s.Support {
			exact = exact && sup == index.Exact
		}
		if exact {
			s.Limit = l.Count + l.Offset
		}
	}
	return n
}
