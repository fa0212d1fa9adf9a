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
			Description: "The number of characters in the string, or of elements in the list",
			Examples:    []string{"length('héllo')", "len([1, 2, 3])"},
			Overloads: append(append(s1(i64, stateless(lengthKernel)), bitOverloads("length")), function.Overload{Params: []string{"list"}, Args: []function.Arg{function.List},
				Returns: i64, Kernel: stateless(listLenKernel)})},
		&function.Set{Name: "substring", Aliases: []string{"substr"}, Categories: str,
			Description: "The characters from position start (1-based) to the end, or length of them",
			Examples:    []string{"substring('Hello', 2)", "substring('Hello', 2, 3)"},
			Overloads:   substringOverloads(stateless(substringKernel))},
		&function.Set{Name: "substring_grapheme", Categories: str,
			Description: "substring counting grapheme clusters (what a reader sees as one character) instead of characters",
			Examples:    []string{"substring_grapheme('🦆🤦🏼‍♂️🦆', 2, 1)"},
			Overloads:   substringOverloads(stateless(substringGraphemeKernel))},
		&function.Set{Name: "length_grapheme", Categories: str,
			Description: "The number of grapheme clusters (what a reader sees as one character) in the string",
			Examples:    []string{"length_grapheme('🤦🏼‍♂️🦆')"},
			Overloads:   s1(i64, stateless(lengthGraphemeKernel))},
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
		aka(scalar("string", "unicode", "The code point of the first character of the string, -1 for ''", ex("unicode('é')"),
			over(i32, rows(fnUnicode), param{"string", function.Str})), "ord"),
		&function.Set{Name: "chr", Categories: str,
			Description: "The character of a Unicode code point", Examples: []string{"chr(65)"},
			Overloads: []function.Overload{{Params: []string{"code_point"}, Args: []function.Arg{function.BigInt}, Returns: v, Kernel: rows(fnChr)}}},
	)
}

// The string functions computed row by row: repetition and translation,
// URL and base64 coding, edit distances and similarities, Unicode
// normalization, LIKE with an ESCAPE character, error().
func init() {
	v, i64, d, b := columnar.TVarchar, columnar.TInt64, columnar.TFloat64, columnar.TBool
	s, s2 := param{"string", function.Str}, param{"string2", function.Str}
	str := func(name, desc, example string, ret columnar.Type, f rowFunc, ps ...param) *function.Set {
		return scalar("string", name, desc, ex(example), over(ret, rows(f), ps...))
	}
	like := func(name, desc, example string, ilike, not bool) *function.Set {
		return str(name, desc, example, b, fnLikeEscape(ilike, not), s, param{"pattern", function.Str}, param{"escape", function.Str})
	}
	function.Register(
		str("repeat", "The string repeated count times ('' for count ≤ 0)", "repeat('ab', 3)", v, fnRepeat, s, param{"count", function.BigInt}),
		scalar("string", "path_join", "The paths joined with '/' and cleaned (repeated '/', '.' and '..' resolved); a scheme such as s3://bucket stays in front as the root; only the first may be absolute",
			ex("path_join('dir/sub', '../file')", "path_join('s3://bucket', 'a', 'b.parquet')"),
			function.Overload{Params: []string{"path"}, Args: []function.Arg{function.Str}, Variadic: true, Returns: v, Kernel: rows(fnPathJoin)}),
		scalar("string", "overlay", "The string with replacement put in place of length characters (default: replacement's length) from position start (OVERLAY(string PLACING replacement FROM start [FOR length]))",
			ex("overlay('abcdef' PLACING 'XX' FROM 3)", "overlay('abcdef', 'XX', 3, 0)"),
			over(v, rows(fnOverlay), s, param{"replacement", function.Str}, param{"start", function.BigInt}),
			over(v, rows(fnOverlay), s, param{"replacement", function.Str}, param{"start", function.BigInt}, param{"length", function.BigInt})),
		str("translate", "The string with each character of from replaced by the one at its position in to, or dropped", "translate('hello', 'el', 'ip')", v, fnTranslate,
			s, param{"from", function.Str}, param{"to", function.Str}),
		scalar("string", "bit_length", "The number of bits in the string or bitstring", ex("bit_length('abc')"), bitOverloads("bit_length"), over(i64, rows(fnBitLength), s)),
		str("url_encode", "The string with the characters URLs reserve percent-encoded", "url_encode('a b/c')", v, fnURLEncode, s),
		str("url_decode", "The string with percent-encoded characters decoded", "url_decode('a%20b')", v, fnURLDecode, s),
		aka(str("unbin", "The BLOB of a string of binary digits", "unbin('01000001')", columnar.TBlob, fnUnbin, s), "from_binary"),
		aka(str("unhex", "The BLOB of a string of hexadecimal digits", "unhex('4142')", columnar.TBlob, fnUnhex, s), "from_hex"),
		str("from_base64", "The BLOB of a base64 string", "from_base64('QUI=')", columnar.TBlob, fnFromBase64, s),
		aka(str("levenshtein", "The number of single-byte insertions, deletions and substitutions from string to string2", "levenshtein('kitten', 'sitting')", i64, fnLevenshtein, s, s2), "editdist3"),
		str("damerau_levenshtein", "levenshtein that also counts a swap of adjacent bytes as one edit", "damerau_levenshtein('ab', 'ba')", i64, fnDamerau, s, s2),
		aka(str("hamming", "The number of positions where two strings of the same length differ", "hamming('abc', 'abd')", i64, fnHamming, s, s2), "mismatches"),
		str("jaro_similarity", "The Jaro similarity of two strings, from 0 to 1", "jaro_similarity('duck', 'duke')", d, fnJaro(false), s, s2),
		str("jaro_winkler_similarity", "The Jaro–Winkler similarity of two strings, from 0 to 1", "jaro_winkler_similarity('duck', 'duke')", d, fnJaro(true), s, s2),
		str("jaccard", "The Jaccard similarity of the sets of bytes of two strings", "jaccard('duck', 'luck')", d, fnJaccard, s, s2),
		like("like_escape", "Whether the string matches the LIKE pattern, with escape as its escape character", "like_escape('a%', 'a$%', '$')", false, false),
		like("not_like_escape", "NOT like_escape", "not_like_escape('a%', 'a$%', '$')", false, true),
		like("ilike_escape", "like_escape ignoring case", "ilike_escape('A%', 'a$%', '$')", true, false),
		like("not_ilike_escape", "NOT ilike_escape", "not_ilike_escape('A%', 'a$%', '$')", true, true),
		str("nfc_normalize", "The string in Unicode normalization form C", "nfc_normalize('e\u0301')", v, fnNFC, s),
		str("strip_accents", "The string without accents (combining marks)", "strip_accents('café')", v, fnStripAccents, s),
		str("regexp_escape", "The string with the characters regular expressions reserve escaped", "regexp_escape('a.b')", v, fnRegexpEscape, s),
		scalar("string", "to_base", "The number in radix 2–36, zero-padded to min_length digits", ex("to_base(255, 16)", "to_base(5, 2, 8)"),
			over(v, rows(fnToBase), param{"number", function.BigInt}, param{"radix", function.BigInt}),
			over(v, rows(fnToBase), param{"number", function.BigInt}, param{"radix", function.BigInt}, param{"min_length", function.BigInt})),
		scalar("string", "error", "Fails the query with the message when evaluated", ex("CASE WHEN false THEN error('boom') END"),
			function.Overload{Params: []string{"message"}, Args: []function.Arg{function.Str}, Returns: columnar.TNull, Kernel: rowsNulls(fnError), SeesNulls: true}),
		customBind(scalar("string", "regexp_extract", "The text of group (0: the whole match) of the first match of the regular expression, '' when none", ex("regexp_extract('abc123', '[0-9]+')"),
			over(v, rows(fnRegexpExtract), s, param{"regex", function.Str}),
			over(v, rows(fnRegexpExtract), s, param{"regex", function.Str}, param{"group", function.BigInt}),
			over(v, rows(fnRegexpExtract), s, param{"regex", function.Str}, param{"group", function.BigInt}, param{"options", function.Str}),
			over(v, rows(fnRegexpExtract), s, param{"regex", function.Str}, param{"names", function.List}),
			over(v, rows(fnRegexpExtract), s, param{"regex", function.Str}, param{"names", function.List}, param{"options", function.Str}))),
		customBind(scalar("string", "regexp_extract_all", "The texts of group (0: the whole match) of every match of the regular expression", ex("regexp_extract_all('1a 2b 14m', '[0-9]+')"),
			over(columnar.ListOf(v), rows(fnRegexpExtractAll), s, param{"regex", function.Str}),
			over(columnar.ListOf(v), rows(fnRegexpExtractAll), s, param{"regex", function.Str}, param{"group", function.BigInt}),
			over(columnar.ListOf(v), rows(fnRegexpExtractAll), s, param{"regex", function.Str}, param{"group", function.BigInt}, param{"options", function.Str}),
			over(columnar.ListOf(v), rows(fnRegexpExtractAll), s, param{"regex", function.Str}, param{"names", function.List}),
			over(columnar.ListOf(v), rows(fnRegexpExtractAll), s, param{"regex", function.Str}, param{"names", function.List}, param{"options", function.Str}))),
		customBind(scalar("string", "md5", "The MD5 digest of the string's or blob's bytes, in hexadecimal", ex("md5('abc')"), over(v, rows(fnDigest(digestMD5)), param{"value", function.Varchar}))),
		customBind(scalar("string", "sha1", "The SHA-1 digest of the string's or blob's bytes, in hexadecimal", ex("sha1('abc')"), over(v, rows(fnDigest(digestSHA1)), param{"value", function.Varchar}))),
		customBind(scalar("string", "sha256", "The SHA-256 digest of the string's or blob's bytes, in hexadecimal", ex("sha256('abc')"), over(v, rows(fnDigest(digestSHA256)), param{"value", function.Varchar}))),
		customBind(scalar("string", "hash", "A 64-bit hash of the arguments, equal for equal values, never NULL", ex("hash('abc', 1)"),
			function.Overload{Params: []string{"value"}, Args: []function.Arg{function.Any}, Variadic: true, Returns: columnar.TUint64, Kernel: rowsNulls(fnHash), SeesNulls: true})),
		customBind(aka(scalar("string", "to_base64", "The base64 text of a blob's or string's bytes", ex("to_base64('AB')"), over(v, rows(fnToBase64), param{"blob", function.Varchar})), "base64")),
		customBind(aka(scalar("string", "to_hex", "The hexadecimal digits of a string's or blob's bytes, or of an integer", ex("to_hex(255)", "to_hex('AB')"), over(v, rows(fnToHex), param{"value", function.Any})), "hex")),
		customBind(aka(scalar("string", "bin", "The binary digits of a string's or blob's bytes, or of an integer", ex("bin(5)"), over(v, rows(fnBin), param{"value", function.Any})), "to_binary")),
		customBind(scalar("string", "octet_length", "The number of bytes of a string, blob or bitstring", ex("octet_length('héllo')"), over(i64, rows(fnOctetLength), param{"value", function.Varchar}), bitOverloads("octet_length"))),
		customBind(scalar("string", "printf", "The arguments formatted by a C-style format (%d %5.2f %-8s %x %c %%)", ex("printf('%05.1f|%-3s|', 3.14159, 'a')"),
			function.Overload{Params: []string{"format"}, Args: []function.Arg{function.Varchar}, Variadic: true, Returns: v, Kernel: rows(fnPrintf)})),
		customBind(scalar("string", "format", "The arguments formatted by an fmt-style format ({} {1} {:>8.2f} {:,})", ex("format('{} + {} = {}', 1, 2, 3)"),
			function.Overload{Params: []string{"format"}, Args: []function.Arg{function.Varchar}, Variadic: true, Returns: v, Kernel: rows(fnFormat)})),
		customBind(scalar("string", "concat_ws", "The arguments after the separator as text, joined by it; NULL arguments are skipped", ex("concat_ws(', ', 'a', NULL, 'b')"),
			function.Overload{Params: []string{"separator", "string"}, Args: []function.Arg{function.Str, function.Str}, Variadic: true, Returns: v, Kernel: rowsNulls(fnConcatWS), SeesNulls: true})),
		customBind(aka(scalar("string", "locate", "The position (1-based) of the first occurrence of search in the string, 0 if absent (search first)", ex("locate('n', 'banana')"),
			over(i64, nil, param{"search", function.Str}, s)), "position")),
		customBind(scalar("string", "regexp_full_match", "Whether the regular expression matches the whole string", ex("regexp_full_match('abc', 'a.c')"),
			over(b, nil, s, param{"regex", function.Str}), over(b, nil, s, param{"regex", function.Str}, param{"options", function.Str}))),
		customBind(scalar("string", "regexp_matches", "Whether the regular expression (RE2 syntax) matches part of the string; options: c i s m n p l", ex("regexp_matches('abc', 'b.')"),
			over(b, rows(fnRegexpMatches), s, param{"regex", function.Str}),
			over(b, rows(fnRegexpMatches), s, param{"regex", function.Str}, param{"options", function.Str}))),
		customBind(scalar("string", "regexp_replace", "The string with the first match of the regular expression replaced (every match with option g); \\1 refers to a group", ex("regexp_replace('abc', 'b', 'x')"),
			over(v, rows(fnRegexpReplace), s, param{"regex", function.Str}, param{"replacement", function.Str}),
			over(v, rows(fnRegexpReplace), s, param{"regex", function.Str}, param{"replacement", function.Str}, param{"options", function.Str}))),
	)
}
