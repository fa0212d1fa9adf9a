package sql

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// tpchCatalog is TPC-H's schema (dbgen's types as DuckDB reads them).
func tpchCatalog() *fakeCatalog {
	i32, i64, str, date := columnar.TInt32, columnar.TInt64, columnar.TVarchar, columnar.TDate
	dec := columnar.DecimalType(15, 2)
	schema := func(spec string, types ...columnar.Type) *fakeTable {
		var s columnar.Schema
		for i, n := range strings.Fields(spec) {
			s = append(s, columnar.Field{Name: n, Type: types[i]})
		}
		return &fakeTable{s}
	}
	return &fakeCatalog{tables: map[string]*fakeTable{
		"nation":   schema("n_nationkey n_name n_regionkey n_comment", i32, str, i32, str),
		"region":   schema("r_regionkey r_name r_comment", i32, str, str),
		"part":     schema("p_partkey p_name p_mfgr p_brand p_type p_size p_container p_retailprice p_comment", i64, str, str, str, str, i32, str, dec, str),
		"supplier": schema("s_suppkey s_name s_address s_nationkey s_phone s_acctbal s_comment", i64, str, str, i32, str, dec, str),
		"partsupp": schema("ps_partkey ps_suppkey ps_availqty ps_supplycost ps_comment", i64, i64, i64, dec, str),
		"customer": schema("c_custkey c_name c_address c_nationkey c_phone c_acctbal c_mktsegment c_comment", i64, str, str, i32, str, dec, str, str),
		"orders":   schema("o_orderkey o_custkey o_orderstatus o_totalprice o_orderdate o_orderpriority o_clerk o_shippriority o_comment", i64, i64, str, dec, date, str, str, i32, str),
		"lineitem": schema("l_orderkey l_partkey l_suppkey l_linenumber l_quantity l_extendedprice l_discount l_tax l_returnflag l_linestatus l_shipdate l_commitdate l_receiptdate l_shipinstruct l_shipmode l_comment",
			i64, i64, i64, i64, dec, dec, dec, dec, str, str, date, date, date, str, str, str),
	}}
}

// BenchmarkBindTPCH parses and binds the 22 TPC-H queries (the front
// end's whole work for a query); one op is all 22.
func BenchmarkBindTPCH(b *testing.B) {
	qs := tpchQueries(b)
	cat := tpchCatalog()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, q := range qs {
			st, err := Parse(Source{Text: q, Line: 1, Col: 1})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Bind(st.(*Query), cat); err != nil {
				b.Fatalf("%v\n%s", err, q)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(qs)), "µs/query")
	// CPU time is what to compare on a loaded machine: wall time counts
	// the waits for a core.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N*len(qs)), "cpu-µs/query")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
