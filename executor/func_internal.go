package executor

import "github.com/b2sql/b2sql/function"

// The calls the binder makes itself, which users do not write: operators
// it types as calls (a & b, a << n), INTERVAL arithmetic and literals,
// calendar months, TIME averages and the TIMESTAMP WITH TIME ZONE
// conversions in the session's zone (the zone's name is the last argument).
func init() {
	function.Register(
		internalRows("math", "bit_and", "a & b in the wider integer type", fnBitAnd),
		internalRows("math", "bit_or", "a | b in the wider integer type", fnBitOr),
		internalRows("math", "bit_not", "~a within a's type", fnBitNot),
		internalRows("math", "shift_left", "a << n; overflow of a's type is an error", fnShiftLeft),
		internalRows("math", "shift_right", "a >> n; 0 from the width on", fnShiftRight),
		internalRows("date", "add_months", "TIMESTAMP ± months, the day clamped to the month's end", fnAddMonths),
		internalRows("date", "interval_of", "n units of m µs (INTERVAL (n) DAY, to_days(n)), with calendar months for TIMESTAMP ± it", fnIntervalOf),
		internalRows("date", "interval_mul", "INTERVAL × number", fnIntervalMul),
		internalRows("date", "interval_div", "INTERVAL / number (x/0 is NULL)", fnIntervalDiv),
		internalRows("date", "time_avg", "the average of TIME values", fnTimeAvg),
		internalRows("date", "time_of_micros", "the TIME of microseconds since midnight", fnTimeOfMicros),
		internalRows("date", "time_of_avg", "the TIME of an average of microseconds", fnTimeOfAvg),
		internalRows("date", "time_micros", "microseconds since midnight of a TIME", fnEpochScaled(1)),
		internalRows("date", "tz_local", "the local time of an instant in a zone", fnTZLocal),
		internalRows("date", "tz_instant", "the instant of a local time in a zone", fnTZInstant),
		internalRows("date", "tz_timetz", "the local TIME WITH TIME ZONE of an instant in a zone (its time of day and the zone's offset)", fnTZTimeTZ),
		internalRows("date", "tz_text", "DuckDB's text of an instant in a zone, with the offset", fnTZText),
		internalRows("date", "tz_parse", "the instant text names in a zone; an error for bad text", fnTZParse(false)),
		internalRows("date", "try_tz_parse", "tz_parse, NULL for bad text", fnTZParse(true)),
		internalRows("date", "tz_offset", "the zone's UTC offset at an instant, in seconds", fnTZOffset),
		internalRows("date", "tz_add", "instant + INTERVAL: months and days on the local calendar", fnTZAdd(1)),
		internalRows("date", "tz_sub", "instant - INTERVAL: months and days on the local calendar", fnTZAdd(-1)),
		internalRows("date", "tz_diff", "instant - instant: whole local days, then the microseconds left", fnTZDiff),
		internalRows("math", "stat_check", "a skewness or kurtosis, or DuckDB's out-of-range error where it is not finite", fnStatCheck),
		internalRows("date", "strftime_tz", "strftime of an instant's local time; %z and %Z are the zone's", fnStrftimeTZ),
	)
}
