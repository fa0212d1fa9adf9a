package executor

import (
	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The string functions: case, trimming, length, substrings, padding,
// searching and concatenation. Lengths and positions count characters
// (runes) unless the description says bytes.
func init() {
	str := []string{"string"}
	v, b, i64, i32 := columnar.TVarchar, columnar.TBool, columnar.TInt64, columnar.TInt32
	s1 := func(ret columnar.Type, k function.Factory) []function.Overload {
		return []function.Overload{{Params: []string{"string"}, Args: []function.Arg{function.Varchar}, Returns: ret, Kernel: k}}
	}
	trim := func(left, right bool) []function.Overload {
		k := stateless(trimKernel(left, right))
		return []function.Overload{
			{Params: []string{"string"}, Args: []function.Arg{function.Varchar}, Returns: v, Kernel: k},
			{Params: []string{"string", "characters"}, Args: []function.Arg{function.Varchar, function.Varchar}, Returns: v, Kernel: k},
		}
	}
	strs := func(params ...string) []function.Arg {
		out := make([]function.Arg, len(params))
		for i := range out {
			out[i] = function.Str
		}
		return out
	}
	function.Register(
		&function.Set{Name: "lower", Aliases: []string{"lcase"}, Categories: str,
			Description: "The string in lower case", Examples: []string{"lower('Hello')"},
			Overloads: s1(v, fresh(func() kernel { return strMapKernel(appendLower) }))},
		&function.Set{Name: "upper", Aliases: []string{"ucase"}, Categories: str,
			Description: "The string in upper case", Examples: []string{"upper('Hello')"},
			Overloads: s1(v, fresh(func() kernel { return strMapKernel(appendUpper) }))},
		&function.Set{Name: "reverse", Categories: str,
			Description: "The characters of the string in reverse order", Examples: []string{"reverse('abc')"},
			Overloads: s1(v, fresh(func() kernel { return strMapKernel(appendReverse) }))},
		&function.Set{Name: "trim", Categories: str,
			Description: "The string without spaces, or without any of the characters, at either end",
			Examples:    []string{"trim('  a  ')", "trim('>>a<', '<>')"}, Overloads: trim(true, true)},
		&function.Set{Name: "ltrim", Categories: str,
			Description: "The string without spaces, or without any of the characters, at its start",
			Examples:    []string{"ltrim('  a')", "ltrim('>>a', '>')"}, Overloads: trim(true, false)},
		&function.Set{Name: "rtrim", Categories: str,
			Description: "The string without spaces, or without any of the characters, at its end",
			Examples:    []string{"rtrim('a  ')", "rtrim('a<<', '<')"}, Overloads: trim(false, true)},
		&function.Set{Name: "length", Aliases: []string{"char_length", "character_length", "len"}, Categories: str,
			Description: "The number of characters in the string (len and length of a list: its elements)",
			Examples:    []string{"length('héllo')"}, Overloads: s1(i64, stateless(lengthKernel))},
		&function.Set{Name: "substring", Aliases: []string{"substr"}, Categories: str,
			Description: "The characters from position start (1-based) to the end, or length of them",
			Examples:    []string{"substring('Hello', 2)", "substring('Hello', 2, 3)"},
			Overloads: []function.Overload{
				{Params: []string{"string", "start"}, Args: []function.Arg{function.Varchar, function.Integer}, Returns: v, Kernel: stateless(substringKernel)},
				{Params: []string{"string", "start", "length"}, Args: []function.Arg{function.Varchar, function.Integer, function.Integer}, Returns: v, Kernel: stateless(substringKernel)},
			}},
		&function.Set{Name: "concat", Categories: str,
			Description: "The arguments as text, joined; NULL arguments are skipped",
			Examples:    []string{"concat('a', 1, NULL, 'b')"},
			Overloads: []function.Overload{{Params: []string{"value"}, Args: []function.Arg{function.Text}, Variadic: true, Returns: v,
				Kernel: fresh(func() kernel { return concatKernel(false) }), SeesNulls: true}}},
		&function.Set{Name: "replace", Categories: str,
			Description: "The string with every occurrence of source replaced by target",
			Examples:    []string{"replace('banana', 'a', 'o')"},
			Overloads:   []function.Overload{{Params: []string{"string", "source", "target"}, Args: strs("", "", ""), Returns: v, Kernel: rows(fnReplace)}}},
		&function.Set{Name: "lpad", Categories: str,
			Description: "The string padded on the left with the characters to count characters, or cut to count",
			Examples:    []string{"lpad('7', 3, '0')"},
			Overloads: []function.Overload{{Params: []string{"string", "count", "character"},
				Args: []function.Arg{function.Str, function.BigInt, function.Str}, Returns: v, Kernel: rows(fnPad(true))}}},
		&function.Set{Name: "rpad", Categories: str,
			Description: "The string padded on the right with the characters to count characters, or cut to count",
			Examples:    []string{"rpad('7', 3, '.')"},
			Overloads: []function.Overload{{Params: []string{"string", "count", "character"},
				Args: []function.Arg{function.Str, function.BigInt, function.Str}, Returns: v, Kernel: rows(fnPad(false))}}},
		&function.Set{Name: "instr", Aliases: []string{"strpos"}, Categories: str,
			Description: "The position (1-based) of the first occurrence of search in the string, 0 if absent (POSITION(search IN string))",
			Examples:    []string{"instr('banana', 'n')"},
			Overloads:   []function.Overload{{Params: []string{"string", "search"}, Args: strs("", ""), Returns: i64, Kernel: rows(fnInstr)}}},
		&function.Set{Name: "left", Categories: str,
			Description: "The first count characters of the string; a negative count: all but the last -count",
			Examples:    []string{"left('Hello', 2)"},
			Overloads: []function.Overload{{Params: []string{"string", "count"},
				Args: []function.Arg{function.Str, function.BigInt}, Returns: v, Kernel: rows(fnLeft)}}},
		&function.Set{Name: "right", Categories: str,
			Description: "The last count characters of the string; a negative count: all but the first -count",
			Examples:    []string{"right('Hello', 2)"},
			Overloads: []function.Overload{{Params: []string{"string", "count"},
				Args: []function.Arg{function.Str, function.BigInt}, Returns: v, Kernel: rows(fnRight)}}},
		&function.Set{Name: "split_part", Categories: str,
			Description: "Field index (1-based; negative from the end) of the string split at separator, '' out of range",
			Examples:    []string{"split_part('a,b,c', ',', 2)"},
			Overloads: []function.Overload{{Params: []string{"string", "separator", "index"},
				Args: []function.Arg{function.Str, function.Str, function.BigInt}, Returns: v, Kernel: rows(fnSplitPart)}}},
		&function.Set{Name: "starts_with", Aliases: []string{"prefix"}, Categories: str,
			Description: "Whether the string begins with search", Examples: []string{"starts_with('abc', 'ab')"},
			Overloads: []function.Overload{{Params: []string{"string", "search"}, Args: strs("", ""), Returns: b, Kernel: rows(fnStartsWith)}}},
		&function.Set{Name: "ends_with", Aliases: []string{"suffix"}, Categories: str,
			Description: "Whether the string ends with search", Examples: []string{"ends_with('abc', 'bc')"},
			Overloads: []function.Overload{{Params: []string{"string", "search"}, Args: strs("", ""), Returns: b, Kernel: rows(fnEndsWith)}}},
		&function.Set{Name: "contains", Categories: str,
			Description: "Whether search occurs in the string", Examples: []string{"contains('abc', 'b')"},
			Overloads: []function.Overload{{Params: []string{"string", "search"}, Args: strs("", ""), Returns: b, Kernel: rows(fnContains)}}},
		&function.Set{Name: "strlen", Categories: str,
			Description: "The number of bytes in the string", Examples: []string{"strlen('héllo')"},
			Overloads: []function.Overload{{Params: []string{"string"}, Args: strs(""), Returns: i64, Kernel: rows(fnStrlen)}}},
		&function.Set{Name: "ascii", Categories: str,
			Description: "The code point of the first character of the string, 0 for ''", Examples: []string{"ascii('A')"},
			Overloads: []function.Overload{{Params: []string{"string"}, Args: strs(""), Returns: i32, Kernel: rows(fnASCII)}}},
		&function.Set{Name: "chr", Categories: str,
			Description: "The character of a Unicode code point", Examples: []string{"chr(65)"},
			Overloads: []function.Overload{{Params: []string{"code_point"}, Args: []function.Arg{function.BigInt}, Returns: v, Kernel: rows(fnChr)}}},
	)
}
