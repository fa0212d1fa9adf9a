// Package planner owns the bound logical plan (nodes and typed expressions
// the sql binder produces), the rewrite rules, and Build, which turns a plan
// into executor operators without doing any I/O.
//
// Before the rules, Optimize resolves the WITH entries (cte.go): the binder
// wraps each reference in a CTERef; an entry used once (or AS NOT
// MATERIALIZED) is inlined, so that filters reach its scans, and one used
// twice or more (or AS MATERIALIZED) is optimized once on its own and read
// through a CTEScan per reference, from rows computed once (executor.CTE).
//
// Rules run in this order (Rules in optimize.go), each in its own file and
// each switchable off (switches.go: SET <snake_case name> = off):
//
//  1. FoldConstants (rule_fold.go) — evaluate constant sub-expressions
//     once, so later rules see literals (e.g. DATE '2024-01-01' + 1) they
//     can push.
//  2. ReadFields (rule_fields.go) — s.a, s.x.y over a scan of a table
//     that stores STRUCT fields apart (FieldColumner: Parquet leaves)
//     become columns of the scan of their own, so that PruneColumns drops
//     s when nothing else reads it and PushFilters offers a filter on the
//     field to the table, which prunes with the leaf's statistics.
//  3. PushFilters (pushdown.go, pushdown_join*.go) — offer each WHERE
//     conjunct of the shape `col op const`, IN, IS [NOT] NULL or an OR of
//     those to the table; exact ones leave the Filter, inexact ones stay but
//     let the scan skip row groups/blocks. Conjuncts above a Join move to
//     the side they read (never onto the NULL-extended side of an outer
//     join); those reading both sides of an inner or cross join become its
//     condition, equalities its hash keys.
//  4. ReorderJoins (reorder.go, reorder_flow.go, join_outer.go) — a chain
//     of three or more inner/cross joins becomes a left-deep chain in which
//     each next input joins by an equality where possible, in the order
//     that lets the filtered inputs' runtime join filters shrink the most
//     builds below them; an outer join builds its smaller side.
//  5. EagerAggregate (rule_eager_agg.go) — a GROUP BY of several keys, one
//     VARCHAR, over inner joins whose SUM/MIN/MAX read only one input,
//     which joins on one or two integer keys and is estimated no larger
//     than the other side, groups that input by those keys below the join
//     (TPC-H Q10: lineitem ⋈ orders by o_custkey under the customer join),
//     and the GROUP BY adds up the partial rows; after ReorderJoins, which
//     decides which inputs a join's sides hold.
//  6. ShareSubplans (rule_share_subplans.go) — a join the query computes
//     twice, equal but for column IDs (Q11's FROM and the scalar subquery
//     of its HAVING), becomes one materialized WITH entry read by both;
//     after PushFilters, so that both are compared with their filters in
//     place.
//  7. AnswerFromMetadata (metadata.go) — COUNT/MIN/MAX with no WHERE come
//     from table statistics (Parquet footers) when they are exact.
//  8. AnswerFromIndex (index_answer.go) — an ungrouped COUNT/MIN/MAX/SUM/AVG
//     under a WHERE that a table's index decides exactly (IndexAnswerer:
//     a CTable FULL index) comes from the index without reading columns.
//  9. SplitDistinct (distinct_agg.go) — aggregates that are all DISTINCT
//     over one argument become a GROUP BY keys+argument (parallel,
//     deduplicating) under a plain aggregate.
//  10. GroupDistinct (group_distinct.go) — SELECT DISTINCT of two or more
//     columns, or of one VARCHAR/BLOB column, over a scan pipeline becomes a GROUP BY of them with no
//     aggregate, which runs per worker and groups dictionary columns by
//     code; under a LIMIT, or over one other column, it stays a Distinct.
//  11. ShareExprs (rule_share_exprs.go) — a call that an aggregate's keys
//     and arguments, or a projection's list, use more than once is
//     computed once, in a projection below (TPC-H Q01's
//     l_extendedprice*(1-l_discount)); only calls one of whose uses is
//     evaluated for every row, so no new row is computed.
//  12. ShareSums (rule_share_aggs.go) — avg(x) next to sum(x) becomes
//     count(x) and a division above the aggregate (same answer; after the
//     DISTINCT rewrites, which look for aggregates only).
//  13. MakeTopK (rule_topk.go) — Limit over Sort becomes a bounded-heap TopK.
//  14. PushLimits (rule_limits.go) — a Limit with nothing but projections
//     between it and a scan lets the scan stop early.
//  15. PruneColumns (rule_prune.go) — last, so that it sees the final shape:
//     scans read only the columns some node still uses.
//
// Optimize reports the rules that changed the plan (Format, a printer of
// the logical plan, before and after each rule differs), and EXPLAIN lists
// them under the operators.
//
// No node is passed through unvisited for being unknown. A rule rebuilds a
// node it has no case for through Node.WithChildren (mapChildren), so it
// still visits that node's inputs, and Build refuses such a node ("cannot
// build"), never building around it. The analyses Build makes before
// choosing an operator (pipelineScan, dictChain, traceScan, rowsReach,
// estimate, empty, orderedScans) follow the chains they know down to a
// scan and stop at any other node: it gets the plain operator, and a scan
// below it is not read in table order. nodes_test.go keeps this true for
// new node types: nodeKinds must list every type of the package
// (TestNodeKindsListed), every rule must reach the inputs of every kind
// through a node no rule knows (TestRulesVisitEveryChild), Build must meet
// and refuse that node under every kind (TestBuildRefusesUnknownNode),
// and each kind says whether its rows keep their input's order
// (TestOrderedScansByKind).
//
// Build then makes the physical choices, which depend on the scan rules
// switched off by SET (index.ScanRule, listed with the rules in
// switches.go). For a TopK whose single key is a scan column (topk.go):
// sorted_limit turns it into a Limit over a scan in key order
// when the table has one (OrderedScanner: a CTable FULL index), else
// topk_pruning lets the TopK publish its k-th key to the scan, which skips
// units that cannot beat it. With further keys after a scan column, only
// topk_pruning applies, on the first key, skipping only units strictly
// worse than the bound (a tie may still enter on the later keys).
//
// Rules change cost, never results: the end-to-end tests run every query
// with all rules on and all off and require identical answers.
//
// # Files
//
// Build is one recursive descent over the plan: build.go dispatches on the
// node's kind to the files that build joins, recursive CTEs, set
// operations, windows, CTE scans and positional joins, which build their
// inputs through build.go again; the builder's state and helpers are in
// builder.go, which needs no other file. PushFilters likewise recurses
// through its join and pass-through cases (pushdown_join.go,
// pushdown_through.go). tests/filecycles_test.go allows at most 8 pairs of
// files that need each other, all of them this recursion.
package planner
