package planner

// Rule rewrites a plan; it may change cost, never results. Doc is the
// one-line description the settings listing shows for its switch.
type Rule struct {
	Name  string
	Apply func(Node) Node
	Doc   string
}

// Rules is the ordered rule list (see doc.go for why this order); each
// rule is in its own file, named in doc.go.
var Rules = []Rule{
	{"FoldConstants", foldConstants, "evaluate constant sub-expressions once, at plan time"},
	{"ReadFields", readFields, "read a STRUCT field (s.a) as a column of its own where the table stores it apart (Parquet leaves), not the whole STRUCT"},
	{"PushFilters", pushFilters, "offer WHERE conjuncts to the scans and move them below joins"},
	{"ReorderJoins", reorderJoins, "order chains of inner joins so each next input joins by an equality, and let outer joins build the smaller side"},
	{"EagerAggregate", eagerAggregate, "pre-aggregate a join's input below a wide GROUP BY (several keys, one VARCHAR) when the aggregates read only that input and it joins on a narrow integer key"},
	{"ShareSubplans", shareSubplans, "compute a join the query uses twice (Q11's FROM and HAVING subquery) once, as a WITH entry both read"},
	{"AnswerFromMetadata", answerFromMetadata, "answer COUNT/MIN/MAX without WHERE from exact table statistics"},
	{"AnswerFromIndex", answerFromIndex, "answer COUNT/MIN/MAX/SUM/AVG under a WHERE that a FULL index decides exactly from the index alone"},
	{"SplitDistinct", splitDistinct, "run DISTINCT aggregates as a parallel GROUP BY under a plain aggregate"},
	{"GroupDistinct", groupDistinct, "run SELECT DISTINCT of several columns over a scan as a parallel GROUP BY of them"},
	{"ShareExprs", shareExprs, "compute a sub-expression that GROUP BY keys, aggregate arguments or a SELECT list use more than once only once"},
	{"ShareSums", shareSums, "compute avg(x) from sum(x) when a query asks for both"},
	{"MakeTopK", makeTopK, "turn ORDER BY … LIMIT into a bounded-heap top-k"},
	{"PushLimits", pushLimits, "let a scan stop early under a LIMIT"},
	{"PruneColumns", pruneColumns, "read only the columns some node still uses"},
}

// Options select rules. Disabled names rules not to run; AllOff disables
// every rule (SET pruning = off), which must never change a result.
type Options struct {
	Disabled map[string]bool
	AllOff   bool
}

// Optimize applies the enabled rules in order and returns the names of the
// rules that changed the plan (its Format before and after differ; past
// Format's first 2,000 nodes a change goes unreported), which
// EXPLAIN lists so that a user knows which switches matter for a query.
func Optimize(n Node, opts Options) (Node, []string) {
	n = resolveCTEs(n, opts) // cte.go: WITH entries inlined or computed once
	var changed []string
	before := Format(n)
	for _, r := range Rules {
		if opts.AllOff || opts.Disabled[r.Name] {
			continue
		}
		n = resolveCTEs(r.Apply(n), opts) // a rule may add WITH entries (ShareSubplans)
		if after := Format(n); after != before {
			changed = append(changed, r.Name)
			before = after
		}
	}
	return n, changed
}
