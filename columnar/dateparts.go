package columnar

import (
	"sort"
	"strings"
)

// datePartNames maps every spelling of a date part DuckDB accepts
// (date_part, EXTRACT, date_trunc, date_diff) to its canonical name.
var datePartNames = map[string]string{}

func init() {
	for canon, names := range map[string][]string{
		"year":            {"year", "years", "y", "yr", "yrs"},
		"month":           {"month", "months", "mon", "mons"},
		"day":             {"day", "days", "d", "dayofmonth"},
		"decade":          {"decade", "decades", "dec", "decs"},
		"century":         {"century", "centuries", "cent", "c"},
		"millennium":      {"millennium", "millenniums", "millennia", "mil", "mils", "millenium"},
		"microsecond":     {"microsecond", "microseconds", "us", "usec", "usecs", "usecond", "useconds"},
		"millisecond":     {"millisecond", "milliseconds", "ms", "msec", "msecs", "msecond", "mseconds"},
		"second":          {"second", "seconds", "s", "sec", "secs"},
		"minute":          {"minute", "minutes", "m", "min", "mins"},
		"hour":            {"hour", "hours", "h", "hr", "hrs"},
		"epoch":           {"epoch"},
		"dow":             {"dow", "dayofweek", "weekday"},
		"isodow":          {"isodow"},
		"week":            {"week", "weeks", "w", "weekofyear"},
		"doy":             {"doy", "dayofyear"},
		"quarter":         {"quarter", "quarters"},
		"isoyear":         {"isoyear"},
		"yearweek":        {"yearweek"},
		"era":             {"era"},
		"julian":          {"julian"},
		"timezone":        {"timezone"},
		"timezone_hour":   {"timezone_hour"},
		"timezone_minute": {"timezone_minute"},
	} {
		for _, n := range names {
			datePartNames[n] = canon
		}
	}
}

// DatePartName returns the canonical name of date part s (any case).
func DatePartName(s string) (string, bool) {
	p, ok := datePartNames[strings.ToLower(s)]
	return p, ok
}

// DatePartSpellings lists every accepted spelling, sorted (for hints).
func DatePartSpellings() []string {
	out := make([]string, 0, len(datePartNames))
	for n := range datePartNames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// FloatDatePart reports the canonical parts whose value is a DOUBLE
// (seconds since the epoch, the Julian day with its fraction).
func FloatDatePart(p string) bool { return p == "epoch" || p == "julian" }
