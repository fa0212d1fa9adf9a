package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The conditional functions. The binder unifies their arguments' types
// (sql/bind_func.go); coalesce and try are built by NewCall itself, as
// they evaluate their arguments lazily, like CASE, or row by row.
func init() {
	x, y := param{"value", function.Any}, param{"other", function.Any}
	nullif := function.Overload{Params: []string{"value", "other"}, Args: []function.Arg{function.Any, function.Any}, SameAs: 1,
		Kernel: byType(nullifKernel), SeesNulls: true}
	function.Register(
		customBind(scalar("conditional", "coalesce", "The first argument that is not NULL", ex("coalesce(NULL, 2, 3)"),
			function.Overload{Params: []string{"value"}, Args: []function.Arg{function.Any}, Variadic: true, SameAs: 1})),
		customBind(scalar("conditional", "ifnull", "value, or other when value is NULL", ex("ifnull(NULL, 2)"), sameAs(over(columnar.TNull, nil, x, y), 1))),
		customBind(scalar("conditional", "if", "a when the condition is true, else b (CASE WHEN condition THEN a ELSE b END)", ex("if(1 < 2, 'yes', 'no')"),
			sameAs(over(columnar.TNull, nil, param{"condition", function.Any}, param{"a", function.Any}, param{"b", function.Any}), 2))),
		customBind(scalar("conditional", "typeof", "The name of the argument's type", ex("typeof(1.5)"), over(columnar.TVarchar, nil, x))),
		customBind(scalar("conditional", "pg_typeof", "The name of the argument's type in lower case, as PostgreSQL's", ex("pg_typeof(1.5)"), over(columnar.TVarchar, nil, x))),
		customBind(scalar("conditional", "try", "The expression's value, NULL for a row where computing it fails", ex("try(CAST('x' AS INTEGER))"),
			function.Overload{Params: []string{"expression"}, Args: []function.Arg{function.Any}, SameAs: 1, SeesNulls: true})),
		customBind(scalar("conditional", "nullif", "NULL when value = other, else value", ex("nullif(1, 1)"), nullif)),
	)
}
