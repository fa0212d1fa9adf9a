package main

import (
	"fmt"
	"strings"
)

// query is one benchmark query. Ordered says the SQL has a total ORDER BY, so
// results are compared row by row in order; otherwise they are compared as
// sorted row sets.
type query struct {
	Name    string
	SQL     string
	Ordered bool
}

// refRows is the row count the id constants below were written for; they are
// scaled to -rows so they stay inside the data (id runs 0..rows-1).
const refRows = 10_000_000

// scaleID maps an id constant chosen for refRows rows onto rows rows.
func scaleID(id, rows int64) int64 {
	if rows == refRows {
		return id
	}
	return int64(float64(id) / refRows * float64(rows))
}

// likePrefix is the prefix of the LIKE query. demo titles are words from a
// list of 64 with the first letter capitalized; "Am" matches those starting
// with "Amber", about 1.6% of the rows, so the scan cannot stop early.
const likePrefix = "Am"

// queries returns the query set for a table of rows rows.
func queries(rows int64) []query {
	const reduce = "count(*), sum(qty), avg(price), min(temperature), max(temperature)"
	idLo := scaleID(5_000_000, rows)
	return []query{
		{Name: "full_reduce", SQL: "SELECT " + reduce + " FROM events"},
		{Name: "filter_region_eq", SQL: "SELECT " + reduce + " FROM events WHERE region = 3"},
		{Name: "filter_price_gt", SQL: "SELECT " + reduce + " FROM events WHERE price > 900"},
		{Name: "range_id_sorted", SQL: fmt.Sprintf(
			"SELECT count(*), sum(qty), avg(price), min(ts), max(ts) FROM events WHERE id BETWEEN %d AND %d",
			idLo, idLo+1000)},
		{Name: "range_ts_clustered", SQL: "SELECT count(*), sum(qty), avg(price), min(id), max(id) FROM events " +
			"WHERE ts >= TIMESTAMP '2024-06-01' AND ts < TIMESTAMP '2024-06-02'"},
		{Name: "point_id", SQL: fmt.Sprintf(
			"SELECT id, ts, user_id, category, price FROM events WHERE id = %d", scaleID(7_777_777, rows))},
		{Name: "point_id_star", SQL: fmt.Sprintf(
			"SELECT * FROM events WHERE id = %d", scaleID(1_234_567, rows))},
		{Name: "group_category", SQL: "SELECT category, count(*), sum(price) FROM events GROUP BY category"},
		// The same grouping under a pushed filter: the filtered scan must
		// still hand category over as dictionary codes.
		{Name: "group_category_where", SQL: "SELECT category, count(*), sum(price) FROM events WHERE region = 3 GROUP BY category"},
		{Name: "group_region_flag", SQL: "SELECT region, flag, count(*), sum(qty), avg(temperature) FROM events " +
			"GROUP BY region, flag"},
		{Name: "count_distinct_user", SQL: "SELECT count(DISTINCT user_id) FROM events"},
		{Name: "topn_temperature", Ordered: true, SQL: "SELECT id, temperature, region FROM events " +
			"ORDER BY temperature DESC, id LIMIT 10"},
		{Name: "min_max", SQL: "SELECT min(id), max(id), min(ts), max(ts), min(price), max(price), " +
			"min(category), max(category) FROM events"},
		{Name: "in_list", SQL: "SELECT count(*), sum(qty), avg(price) FROM events WHERE region IN (1, 5, 7)"},
		{Name: "like_prefix", SQL: "SELECT count(*), sum(qty) FROM events WHERE title LIKE '" + likePrefix + "%'"},
		{Name: "having", SQL: fmt.Sprintf(
			"SELECT category, count(*) FROM events GROUP BY category HAVING count(*) > %d", scaleID(100_000, rows))},
		// The key-table operators other than GROUP BY: DISTINCT over an
		// integer, a string and a composite key, the three set operations
		// and DISTINCT aggregates over an integer and a string column.
		{Name: "distinct_user", SQL: "SELECT count(*) FROM (SELECT DISTINCT user_id FROM events)"},
		{Name: "distinct_title", SQL: "SELECT count(*) FROM (SELECT DISTINCT title FROM events)"},
		{Name: "distinct_region_category", SQL: "SELECT count(*) FROM (SELECT DISTINCT region, category, flag FROM events)"},
		{Name: "union_user", SQL: "SELECT count(*) FROM (SELECT user_id FROM events WHERE region < 5 " +
			"UNION SELECT user_id FROM events WHERE region >= 3)"},
		{Name: "intersect_user", SQL: "SELECT count(*) FROM (SELECT user_id FROM events WHERE region < 5 " +
			"INTERSECT SELECT user_id FROM events WHERE region >= 3)"},
		{Name: "except_user", SQL: "SELECT count(*) FROM (SELECT user_id FROM events WHERE region < 5 " +
			"EXCEPT SELECT user_id FROM events WHERE flag)"},
		{Name: "count_distinct_title", SQL: "SELECT count(DISTINCT title) FROM events"},
		{Name: "count_distinct_by_region", SQL: "SELECT region, count(DISTINCT user_id) FROM events GROUP BY region"},
		// The shapes issue 19 found slowest against DuckDB: a nullable
		// DOUBLE reduced whole, sums of INTEGER and SMALLINT, a filter on
		// an unclustered INTEGER, a top-k past an OFFSET, MIN/MAX of a
		// VARCHAR, and a CASE of constants as the group key.
		{Name: "nullable_double", SQL: "SELECT count(price), sum(price), avg(price) FROM events"},
		{Name: "sum_int_smallint", SQL: "SELECT sum(qty), avg(qty), sum(region), avg(region) FROM events"},
		{Name: "filter_user_id", SQL: "SELECT count(*), sum(qty), avg(temperature) FROM events WHERE user_id < 5000"},
		{Name: "topn_offset", Ordered: true, SQL: "SELECT id, price FROM events WHERE price IS NOT NULL " +
			"ORDER BY price DESC, id LIMIT 10 OFFSET 100"},
		{Name: "min_max_title", SQL: "SELECT min(title), max(title) FROM events"},
		{Name: "group_case", SQL: "SELECT CASE WHEN price < 100 THEN 'low' WHEN price < 500 THEN 'mid' " +
			"ELSE 'high' END AS band, count(*), sum(qty) FROM events GROUP BY band"},
		{Name: "group_user_topn", Ordered: true, SQL: "SELECT user_id, count(*) AS n, sum(qty) FROM events " +
			"GROUP BY user_id ORDER BY n DESC, user_id LIMIT 10"},
	}
}

// selectQueries returns the queries named in spec ("all" or a comma list).
func selectQueries(all []query, spec string) ([]query, error) {
	if spec == "" || spec == "all" {
		return all, nil
	}
	byName := make(map[string]query, len(all))
	for _, q := range all {
		byName[q.Name] = q
	}
	var out []query
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		q, ok := byName[name]
		if !ok {
			names := make([]string, len(all))
			for i, q := range all {
				names[i] = q.Name
			}
			return nil, fmt.Errorf("unknown query %q (queries: %s)", name, strings.Join(names, ", "))
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no queries selected by %q", spec)
	}
	return out, nil
}
