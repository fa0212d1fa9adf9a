package function

import (
	"slices"
	"strings"

	"github.com/b2sql/b2sql/columnar"
)

// Kind is what a function computes, as DuckDB's function_type column names
// it.
type Kind uint8

const (
	Scalar    Kind = iota // scalar
	Aggregate             // aggregate
	Table                 // table
)

func (k Kind) String() string {
	switch k {
	case Aggregate:
		return "aggregate"
	case Table:
		return "table"
	}
	return "scalar"
}

// Stability says whether a function gives the same value for the same
// arguments (DuckDB's stability column).
type Stability uint8

const (
	// Consistent functions may be folded when their arguments are constant.
	Consistent Stability = iota
	// Volatile functions (random, uuid) change from row to row: constant
	// folding and predicate movement leave them alone.
	Volatile
)

func (s Stability) String() string {
	if s == Volatile {
		return "VOLATILE"
	}
	return "CONSISTENT"
}

// Arg is the rule by which the binder converts one argument of an overload.
// Each rule names the types it accepts; an argument of another type is a
// positioned type error naming the function as the user wrote it.
type Arg uint8

const (
	// Varchar takes VARCHAR (or NULL, cast to VARCHAR); no implicit casts.
	Varchar Arg = iota + 1
	// Text takes any scalar and casts it to VARCHAR (concat's arguments).
	Text
	// Number takes any number and keeps its type; NULL and literals that
	// only read as numbers become DOUBLE.
	Number
	// Integer takes an integer (or a literal that reads as one), cast to
	// BIGINT.
	Integer
	// Int32 is Integer cast to INTEGER.
	Int32
	// Str casts the argument to VARCHAR, allowing implicit casts.
	Str
	// BigInt casts to BIGINT; a VARCHAR that is not a literal is an error.
	BigInt
	// Double casts to DOUBLE; a VARCHAR that is not a literal is an error.
	Double
	// Temporal takes DATE or TIMESTAMP as they are, TIMESTAMP WITH TIME
	// ZONE as the session's local time, and casts the rest to TIMESTAMP
	// (TIME is an error, as DuckDB has no implicit TIME to TIMESTAMP); a
	// VARCHAR that is not a literal is an error.
	Temporal
	// Instant is Temporal with TIMESTAMP WITH TIME ZONE taken as its UTC
	// instant (epoch_us of an instant counts from the instant).
	Instant
	// Interval takes an INTERVAL (or NULL).
	Interval
	// Any takes any type as it is.
	Any
	// UUID takes a UUID (or a string literal, read as one).
	UUID
	// List takes a LIST. [] (a list of NULLs) is an INTEGER[]; a NULL is
	// a NULL list of the overload's Element argument's type, or of
	// INTEGER.
	List
	// Element is cast to the element type of the overload's first List
	// argument (list_contains' element).
	Element
	// SameList is cast to the type of the overload's first List argument
	// (list_has_any's second list); it must be a list or NULL.
	SameList
	// Map takes a MAP (or NULL).
	Map
	// MapKey is cast to the key type of the overload's first Map argument.
	MapKey
	// ListOrString is List, or a VARCHAR as it is (list_slice of a
	// string slices its characters).
	ListOrString
	// Lists is List for a LIST of LISTs (flatten): [] and [NULL] are
	// "NULL"[][], as DuckDB types them.
	Lists
	// Entries is List for a LIST of two-field STRUCTs, a map's key and
	// value (map_from_entries): [] is STRUCT(k INTEGER, v INTEGER)[].
	Entries
	// AggList is List for a list aggregate (list_count): a NULL of no
	// type makes the call a NULL of type NULL, as DuckDB binds the
	// aggregate over the list.
	AggList
	// AggNumbers is AggList for a LIST of numbers (list_sum, list_avg).
	AggNumbers
	// Unified is cast to the common type of every Unified argument of the
	// call (list_value's elements); NULLs alone stay NULL, as DuckDB
	// types [NULL] "NULL"[].
	Unified
	// UnifiedList is a LIST (or NULL) cast to the common list type of
	// every UnifiedList argument (list_concat's lists); [] and NULLs
	// alone are "NULL"[], and NULLs of no type alone make the call a NULL
	// of type NULL, as in DuckDB.
	UnifiedList
	// Texts is List cast to VARCHAR[] (string_agg of a list's elements).
	Texts
	// Bools is List for a LIST of BOOLEANs (bool_and of a list's
	// elements).
	Bools
	// Doubles is List cast to DOUBLE[] (the variance of a list's
	// elements); its elements must be numbers.
	Doubles
	// Integers is List for a LIST of integers or of BITs (bit_and of a
	// list's elements).
	Integers
	// Struct takes a STRUCT; a NULL of no type makes the call a NULL of
	// type NULL, as DuckDB types struct_extract(NULL, 'a').
	Struct
	// FieldName is a constant VARCHAR naming a field of the overload's
	// Struct argument (any case); the binder converts it to the field's
	// 0-based position, a BIGINT constant, and a NULL name makes the call
	// NULL.
	FieldName
	// FieldIndex is a constant integer, the 1-based position of a field
	// of an unnamed STRUCT (row(…)); the binder converts it to the field's
	// 0-based position, a BIGINT constant, and refuses it on a named
	// STRUCT with DuckDB's message.
	FieldIndex
	// AggName is a constant VARCHAR naming an aggregate of the registry
	// (any of its names): the call is the scalar set "list_" + the
	// aggregate's name, over the other arguments (list_aggregate).
	AggName
	// Bit takes a BIT (or NULL, or a string literal read as one); an
	// overload with it goes before the VARCHAR ones of its set, which
	// take any type.
	Bit
)

// Accepts reports whether a value of type t goes to an argument of the
// rule as it is or by the rule's own conversion: the binder and the
// executor choose among the overloads taking as many arguments by it
// (Set.Choose). A NULL of no type goes anywhere.
func (a Arg) Accepts(t columnar.Type) bool {
	if t.ID == columnar.Null {
		return true
	}
	switch a {
	case Varchar:
		return t.ID == columnar.Varchar || t.ID == columnar.Enum
	case List, AggList, AggNumbers, UnifiedList, SameList, Lists, Entries, Texts, Bools, Doubles, Integers:
		return t.ID == columnar.List
	case ListOrString:
		return t.ID == columnar.List || t.ID == columnar.Varchar
	case Map:
		return t.ID == columnar.Map
	case Struct:
		return t.ID == columnar.Struct
	case FieldName, AggName:
		return t.ID == columnar.Varchar
	case FieldIndex:
		return t.IsInteger()
	case Interval:
		return t.ID == columnar.Interval
	case Bit:
		return t.ID == columnar.Bit
	case Temporal, Instant:
		return !t.IsNumeric() // range(1, 10, NULL) is the BIGINT overload, not the TIMESTAMP one
	}
	return true // the rule converts the rest, or reports the error
}

// IsList reports whether the rule takes a LIST (the binder converts these
// alike: listArg).
func (a Arg) IsList() bool {
	switch a {
	case List, ListOrString, Lists, Entries, AggList, AggNumbers, Texts, Bools, Doubles, Integers:
		return true
	}
	return false
}

// Nested reports whether the rule takes its type from another argument
// (Element, SameList, MapKey, the field of a Struct): the binder converts
// those last.
func (a Arg) Nested() bool {
	return a == Element || a == SameList || a == MapKey || a == FieldName || a == FieldIndex
}

// TypeName is how duckdb_functions() shows the argument type.
func (a Arg) TypeName() string {
	switch a {
	case Varchar, Str:
		return "VARCHAR"
	case Text:
		return "ANY"
	case Number:
		return "NUMERIC"
	case Integer, BigInt:
		return "BIGINT"
	case Int32:
		return "INTEGER"
	case Double:
		return "DOUBLE"
	case Temporal, Instant:
		return "TIMESTAMP"
	case Interval:
		return "INTERVAL"
	case UUID:
		return "UUID"
	case Bit:
		return "BIT"
	case List, SameList, AggList, UnifiedList:
		return "ANY[]"
	case Texts:
		return "VARCHAR[]"
	case Bools:
		return "BOOLEAN[]"
	case Doubles:
		return "DOUBLE[]"
	case Integers:
		return "BIGINT[]"
	case AggNumbers:
		return "NUMERIC[]"
	case Lists:
		return "ANY[][]"
	case Entries:
		return "STRUCT(K, V)[]"
	case ListOrString:
		return "ANY"
	case Map:
		return "MAP(ANY, ANY)"
	case Struct:
		return "STRUCT"
	case FieldName, AggName:
		return "VARCHAR"
	case FieldIndex:
		return "BIGINT"
	}
	return "ANY"
}

// Derive says how an overload's result type follows from the converted
// type of its SameAs argument: as it is, or a part of a LIST or MAP. A
// NULL argument of a List or Map rule (a NULL of no type) makes the
// result NULL, of the type OfNull gives, as DuckDB types it.
type Derive uint8

const (
	// AsIs is the argument's type.
	AsIs Derive = iota
	// Elem is the element type of a LIST (list_extract); of a VARCHAR,
	// VARCHAR (a string's elements are characters).
	Elem
	// Keys is a LIST of a MAP's key type (map_keys).
	Keys
	// Values is a LIST of a MAP's value type (map_values, map_extract).
	Values
	// Value is a MAP's value type (map_extract_value).
	Value
	// EntryList is a LIST of a MAP's entries, STRUCT(key, value)
	// (map_entries).
	EntryList
	// FromEntries is the MAP of a list of key-value structs' field types
	// (map_from_entries).
	FromEntries
	// ListOf is a LIST of the argument's type (list_value).
	ListOf
	// Sum is the type sum() gives over a LIST's elements (list_sum):
	// HUGEINT of integers, DECIMAL(38, s) of DECIMAL(p, s), DOUBLE of
	// floats and UHUGEINT.
	Sum
	// Field is the type of the STRUCT's field that the overload's
	// FieldName argument names (struct_extract): Overload.Result reads
	// the constant.
	Field
)

// Of derives the result type from the argument's type t.
func (d Derive) Of(t columnar.Type) columnar.Type {
	switch d {
	case Elem:
		if t.ID == columnar.Varchar {
			return t
		}
		return t.Elem()
	case Keys:
		return columnar.ListOf(t.Fields()[0].Type)
	case Values:
		return columnar.ListOf(t.Fields()[1].Type)
	case Value:
		return t.Fields()[1].Type
	case EntryList:
		return columnar.ListOf(t.Elem())
	case FromEntries:
		f := t.Elem().Fields()
		return columnar.MapOf(f[0].Type, f[1].Type)
	case ListOf:
		return columnar.ListOf(t)
	case Sum:
		switch e := t.Elem(); {
		case e.Phys() == columnar.PhysFloat || e.ID == columnar.Uhugeint:
			return columnar.TFloat64
		case e.ID == columnar.Decimal || e.ID == columnar.Decimal128:
			return columnar.DecimalType(columnar.MaxDecimal, int(e.Scale))
		}
		return columnar.THugeint
	}
	return t
}

// OfNull is the result type when the argument is a NULL of no type:
// NULL, or a LIST of NULL for the parts of a map that are lists
// (map_keys(NULL) is "NULL"[] in DuckDB).
func (d Derive) OfNull() columnar.Type {
	switch d {
	case Keys, Values:
		return columnar.ListOf(columnar.TNull)
	case EntryList: // DuckDB: the entries of MAP(INTEGER, INTEGER)
		return columnar.ListOf(columnar.MapOf(columnar.TInt32, columnar.TInt32).Elem())
	}
	return columnar.TNull
}

// Default is an argument an overload leaves out that the binder supplies
// when it binds the call, from the session's settings (list_sort's
// order): inserted at position At of the bound call's arguments.
type Default struct {
	At    int
	Value Setting
}

// Setting is the session setting a Default reads.
type Setting uint8

const (
	// SortOrder is 'ASC' or 'DESC', the session's default_order.
	SortOrder Setting = iota + 1
	// ReverseSortOrder is the opposite of the session's default_order
	// (list_reverse_sort).
	ReverseSortOrder
	// NullOrder is 'NULLS FIRST' or 'NULLS LAST', the session's
	// default_null_order for the call's order (the bound argument before
	// it, a constant 'ASC' or 'DESC').
	NullOrder
)

// Kernel computes a function over the live rows of one batch from its
// evaluated arguments into out. For a strict overload the rows with a NULL
// argument are already cleared in out.Valid and the kernel skips them.
type Kernel func(args []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error

// Factory chooses the kernel, once, when the executor builds the call:
// for the argument types, the constant arguments (consts[i] is non-nil
// when argument i is a constant, such as date_part's part name) and the
// result type. An error is the call's (an unknown part name).
type Factory func(args []columnar.Type, consts []*columnar.Value, ret columnar.Type) (Kernel, error)

// Overload is one signature of a function.
type Overload struct {
	// Params names the parameters (duckdb_functions' parameters column).
	Params []string
	// Args converts each argument; with Variadic the last one repeats, so
	// the overload takes len(Args) or more arguments.
	Args     []Arg
	Variadic bool
	// Returns is the result type, unless SameAs names (1-based) the
	// argument whose converted type the result has.
	Returns columnar.Type
	SameAs  int
	// Derive, with SameAs, takes a part of that argument's type (its
	// element type, its map's keys).
	Derive Derive
	// Kernel builds the executor's kernel.
	Kernel Factory
	// SeesNulls marks an overload whose kernel handles NULL arguments
	// itself (concat skips them); otherwise a NULL argument gives NULL.
	SeesNulls bool
	// Defaults are the arguments the binder adds to the call's, in
	// order, and Calls the set whose overload of that many arguments runs
	// the bound call ("": this one): list_reverse_sort(l) is
	// list_sort(l, 'DESC', 'NULLS LAST') under the default settings.
	Defaults []Default
	Calls    string
}

// Result is the overload's result type for the converted argument types
// (and the constant arguments, consts[i] nil where argument i is not
// one): Returns, or SameAs's type derived by Derive. A Field result needs
// its FieldName or FieldIndex argument converted to the field's position.
func (o *Overload) Result(args []columnar.Type, consts []*columnar.Value) columnar.Type {
	if o.SameAs == 0 {
		return o.Returns
	}
	t := args[o.SameAs-1]
	if o.Derive == Field {
		for i := range args {
			if r := o.Arg(i); (r == FieldName || r == FieldIndex) && consts[i] != nil && !consts[i].Null {
				return t.Fields()[consts[i].I].Type
			}
		}
	}
	return o.Derive.Of(t)
}

// Takes reports whether the overload accepts n arguments.
func (o *Overload) Takes(n int) bool {
	if o.Variadic {
		return n >= len(o.Args)
	}
	return n == len(o.Args)
}

// Arg returns the rule for argument i (0-based) of a call that Takes.
func (o *Overload) Arg(i int) Arg {
	if i >= len(o.Args) {
		return o.Args[len(o.Args)-1]
	}
	return o.Args[i]
}

// ReturnName is how duckdb_functions() shows the result type.
func (o *Overload) ReturnName() string {
	if o.SameAs > 0 && o.Derive == FromEntries {
		return "MAP(K, V)"
	}
	if o.SameAs > 0 && o.Derive == ListOf {
		return "ANY[]"
	}
	if o.SameAs > 0 && o.Derive != AsIs {
		return "ANY"
	}
	if o.SameAs > 0 {
		return o.Args[o.SameAs-1].TypeName()
	}
	if o.Returns.ID == columnar.Null && o.Kernel == nil {
		return "ANY" // no kernel, no type: the binder types each call (current_setting)
	}
	return o.Returns.String()
}

// Set is a function: every overload of one name.
type Set struct {
	Name       string
	Aliases    []string
	Kind       Kind
	Stability  Stability
	Categories []string // family, as duckdb_functions' categories: string, math, date, list, …
	// Description is one line (a sentence, no final period needed).
	Description string
	// Examples are calls that run; tests/ runs every one.
	Examples  []string
	Overloads []Overload
	// CustomBind marks a function the binder types with its own code
	// (sql/bind_func_*.go: constant folding, DECIMAL scales, unification
	// of argument types); its overloads then describe it and supply the
	// kernels.
	CustomBind bool
	// Internal marks a name the binder produces itself (tz_local,
	// interval_of, …): users do not write it, and completion and
	// duckdb_functions() leave it out.
	Internal bool
}

// Overload returns the first overload taking n arguments, or nil.
func (s *Set) Overload(n int) *Overload {
	for i := range s.Overloads {
		if s.Overloads[i].Takes(n) {
			return &s.Overloads[i]
		}
	}
	return nil
}

// Choose returns the overload for arguments of the types ts: the first
// that takes as many and whose rules accept every type (Arg.Accepts),
// as DuckDB picks length(VARCHAR) or length(ANY[]) by the argument. When
// none accepts them, it is the first that takes as many, whose
// conversions report the error; ok is then false if another overload
// takes as many too (the error should name them all). nil when no
// overload takes len(ts) arguments.
func (s *Set) Choose(ts []columnar.Type) (o *Overload, ok bool) {
	takes := 0
	for i := range s.Overloads {
		c := &s.Overloads[i]
		if !c.Takes(len(ts)) {
			continue
		}
		takes++
		if o == nil {
			o = c
		}
		accepts := true
		for k, t := range ts {
			accepts = accepts && c.Arg(k).Accepts(t)
		}
		if accepts {
			return c, true
		}
	}
	return o, takes < 2
}

// Arity describes the argument counts the overloads take, for errors:
// "1", "1 or 2", "2 to 4", "1 or more".
func (s *Set) Arity() string {
	var ns []int
	for _, o := range s.Overloads {
		if o.Variadic {
			return itoa(len(o.Args)) + " or more"
		}
		ns = append(ns, len(o.Args))
	}
	switch {
	case len(ns) == 0:
		return "0"
	case len(ns) == 1:
		return itoa(ns[0])
	case len(ns) > 2 && ns[len(ns)-1]-ns[0] == len(ns)-1:
		return itoa(ns[0]) + " to " + itoa(ns[len(ns)-1])
	}
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = itoa(n)
	}
	return strings.Join(parts, " or ")
}

// Signature is the one-line form of the set for completion, with the
// arguments some overloads leave out in brackets:
// substring(string VARCHAR, start BIGINT[, length BIGINT]) → VARCHAR.
// Overloads that differ in more than trailing arguments show the first.
func (s *Set) Signature() string {
	if len(s.Overloads) == 0 {
		return s.Name + "()"
	}
	long, short := &s.Overloads[0], len(s.Overloads[0].Args)
	for i := range s.Overloads {
		o := &s.Overloads[i]
		if len(o.Args) > len(long.Args) {
			long = o
		}
		short = min(short, len(o.Args))
	}
	for i := range s.Overloads {
		o := &s.Overloads[i]
		if o.ReturnName() != long.ReturnName() || o.Variadic != long.Variadic ||
			!slices.Equal(o.Args, long.Args[:len(o.Args)]) {
			long, short = &s.Overloads[0], len(s.Overloads[0].Args)
			break
		}
	}
	var sb strings.Builder
	sb.WriteString(s.Name)
	sb.WriteByte('(')
	for i, a := range long.Args {
		switch {
		case i >= short:
			sb.WriteString("[, ")
		case i > 0:
			sb.WriteString(", ")
		}
		if i < len(long.Params) {
			sb.WriteString(long.Params[i])
			sb.WriteByte(' ')
		}
		sb.WriteString(a.TypeName())
		if long.Variadic && i == len(long.Args)-1 {
			sb.WriteString(", …")
		}
	}
	sb.WriteString(strings.Repeat("]", len(long.Args)-short))
	sb.WriteString(") → ")
	if s.Kind == Table {
		sb.WriteString("table")
	} else {
		sb.WriteString(long.ReturnName())
	}
	return sb.String()
}

func itoa(n int) string { return columnar.IntValue(columnar.TInt64, int64(n)).String() }
