// Package tpch generates TPC-H-shaped data: the eight tables of the TPC-H
// schema (region, nation, supplier, customer, part, partsupp, orders,
// lineitem) at any scale factor, written as Parquet files or CTables, so
// that the 22 TPC-H queries can be run and compared across engines on data
// the repository makes itself.
//
// It follows the TPC-H specification (v3, clause 4.2) for row counts, keys
// and value distributions, not dbgen's exact output:
//
//	table     rows            keys
//	region    5               r_regionkey 0..4
//	nation    25              n_nationkey 0..24, n_regionkey as in the spec
//	supplier  10,000·SF       s_suppkey 1..S
//	customer  150,000·SF      c_custkey 1..C
//	part      200,000·SF      p_partkey 1..P
//	partsupp  4 per part      (ps_partkey, ps_suppkey) with the spec's formula
//	                          ps_suppkey = (p + i·(S/4 + (p−1)/S)) mod S + 1
//	orders    1,500,000·SF    o_orderkey sparse: 8 of every 32 keys used;
//	                          o_custkey never a multiple of 3 (a third of the
//	                          customers have no orders, as Q13 and Q22 expect)
//	lineitem  1..7 per order  l_suppkey one of the part's 4 partsupp suppliers
//
// Dates, prices and flags follow the spec's rules: o_orderdate uniform in
// [1992-01-01, 1998-08-02]; l_shipdate = o_orderdate + 1..121 days,
// l_commitdate + 30..90, l_receiptdate = l_shipdate + 1..30; l_returnflag R
// or A when received by 1995-06-17, else N; l_linestatus O when shipped
// after 1995-06-17, else F; o_orderstatus F, O or P from its lines;
// l_extendedprice = l_quantity · p_retailprice, p_retailprice from the
// spec's formula of p_partkey, o_totalprice = Σ extendedprice·(1+tax)·
// (1−discount). The enumerated strings (segments, priorities, ship modes,
// types, containers, colors in p_name, nation and region names) are the
// spec's lists, so the queries' substitution parameters select what they
// select in TPC-H. Comments are random words from a small vocabulary that
// includes the words the queries look for ("special … requests",
// "Customer … Complaints").
//
// Money columns are DECIMAL(15,2), dates DATE, keys INTEGER except the
// order key (BIGINT): DuckDB and b2sql read both exactly.
//
// Output is deterministic: every chunk of a table is drawn from its own
// SplitMix64 stream keyed by the table and the chunk number, so the files
// depend on the scale factor only, never on the number of goroutines.
// Memory is bounded by a few chunks per goroutine (plus one row group per
// writer) whatever the scale factor: lineitem at SF 1 (6M rows) streams.
package tpch
