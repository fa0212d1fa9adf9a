package tpch

import "github.com/b2sql/b2sql/columnar"

// money is the type of every price, cost, balance and rate column.
var money = columnar.DecimalType(15, 2)

var (
	tInt  = columnar.TInt32
	tBig  = columnar.TInt64
	tStr  = columnar.TVarchar
	tDate = columnar.TDate
)

func schema(cols ...any) columnar.Schema {
	s := make(columnar.Schema, 0, len(cols)/2)
	for i := 0; i < len(cols); i += 2 {
		s = append(s, columnar.Field{Name: cols[i].(string), Type: cols[i+1].(columnar.Type)})
	}
	return s
}

// Schemas of the eight tables, by table name.
var Schemas = map[string]columnar.Schema{
	"region": schema("r_regionkey", tInt, "r_name", tStr, "r_comment", tStr),
	"nation": schema("n_nationkey", tInt, "n_name", tStr, "n_regionkey", tInt, "n_comment", tStr),
	"supplier": schema("s_suppkey", tInt, "s_name", tStr, "s_address", tStr, "s_nationkey", tInt,
		"s_phone", tStr, "s_acctbal", money, "s_comment", tStr),
	"customer": schema("c_custkey", tInt, "c_name", tStr, "c_address", tStr, "c_nationkey", tInt,
		"c_phone", tStr, "c_acctbal", money, "c_mktsegment", tStr, "c_comment", tStr),
	"part": schema("p_partkey", tInt, "p_name", tStr, "p_mfgr", tStr, "p_brand", tStr, "p_type", tStr,
		"p_size", tInt, "p_container", tStr, "p_retailprice", money, "p_comment", tStr),
	"partsupp": schema("ps_partkey", tInt, "ps_suppkey", tInt, "ps_availqty", tInt,
		"ps_supplycost", money, "ps_comment", tStr),
	"orders": schema("o_orderkey", tBig, "o_custkey", tInt, "o_orderstatus", tStr, "o_totalprice", money,
		"o_orderdate", tDate, "o_orderpriority", tStr, "o_clerk", tStr, "o_shippriority", tInt,
		"o_comment", tStr),
	"lineitem": schema("l_orderkey", tBig, "l_partkey", tInt, "l_suppkey", tInt, "l_linenumber", tInt,
		"l_quantity", money, "l_extendedprice", money, "l_discount", money, "l_tax", money,
		"l_returnflag", tStr, "l_linestatus", tStr, "l_shipdate", tDate, "l_commitdate", tDate,
		"l_receiptdate", tDate, "l_shipinstruct", tStr, "l_shipmode", tStr, "l_comment", tStr),
}

// Tables lists the table names in generation order.
var Tables = []string{"region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem"}

func types(s columnar.Schema) []columnar.Type {
	out := make([]columnar.Type, len(s))
	for i, f := range s {
		out[i] = f.Type
	}
	return out
}
