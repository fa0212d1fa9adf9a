package executor

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The date and timestamp functions computed row by row. Their DATE and
// TIMESTAMP arguments are calendar values; a TIMESTAMP WITH TIME ZONE is
// read in the session's zone (Temporal) or as its instant (Instant).
func init() {
	i64, v, date := columnar.TInt64, columnar.TVarchar, columnar.TDate
	ts := param{"ts", function.Temporal}
	part := param{"part", function.Str}
	date1 := func(name, desc, example string, ret columnar.Type, arg function.Arg, f rowFunc) *function.Set {
		return scalar("date", name, desc, ex(example), over(ret, rowsT(name, f), param{"ts", arg}))
	}
	big := func(name string) param { return param{name, function.BigInt} }
	function.Register(
		scalar("date", "make_date", "The DATE of a year, month and day; an error for a day that does not exist", ex("make_date(2024, 2, 29)"),
			over(date, rows(fnMakeDate), big("year"), big("month"), big("day"))),
		date1("last_day", "The last day of the month of ts", "last_day(DATE '2024-02-10')", date, function.Temporal, fnLastDay),
		date1("dayname", "The English name of the weekday of ts", "dayname(DATE '2024-02-10')", v, function.Temporal, fnDayName),
		date1("monthname", "The English name of the month of ts", "monthname(DATE '2024-02-10')", v, function.Temporal, fnMonthName),
		customBind(date1("epoch_us", "Microseconds from 1970-01-01 to ts", "epoch_us(TIMESTAMP '2024-01-01')", i64, function.Instant, fnEpochScaled(1))),
		customBind(date1("epoch_ns", "Nanoseconds from 1970-01-01 to ts", "epoch_ns(TIMESTAMP '2024-01-01')", i64, function.Instant, fnEpochScaled(1000))),
		date1("yearweek", "The ISO year × 100 + the ISO week of ts", "yearweek(DATE '2024-01-01')", i64, function.Temporal, fnYearWeek),
		date1("julian", "The Julian day number of ts, with the fraction of the day", "julian(DATE '2024-01-01')", columnar.TFloat64, function.Temporal, fnJulian),
		customBind(aka(scalar("date", "date_diff", "The number of part boundaries crossed from start to end", ex("date_diff('month', DATE '2024-01-31', DATE '2024-03-01')"),
			over(i64, rowsT("date_diff", fnDateDiff), part, param{"start", function.Temporal}, param{"end", function.Temporal})), "datediff")),
		customBind(aka(scalar("date", "date_sub", "The number of whole parts from start to end", ex("date_sub('month', DATE '2024-01-31', DATE '2024-03-01')"),
			over(i64, rowsT("date_sub", fnDateSub), part, param{"start", function.Temporal}, param{"end", function.Temporal})), "datesub")),
		scalar("date", "make_timestamp", "The TIMESTAMP of microseconds since 1970, or of a year, month, day, hour, minute and seconds",
			ex("make_timestamp(1700000000000000)", "make_timestamp(2024, 2, 29, 12, 30, 15.5)"),
			over(columnar.TTimestamp, rows(fnMakeTimestamp), big("micros")),
			over(columnar.TTimestamp, rows(fnMakeTimestamp), big("year"), big("month"), big("day"), big("hour"), big("minute"), param{"seconds", function.Double})),
		scalar("date", "make_timestamp_ms", "The TIMESTAMP of milliseconds since 1970", ex("make_timestamp_ms(1700000000000)"),
			over(columnar.TTimestamp, rows(fnMakeTimestampMS), big("millis"))),
		scalar("date", "make_timestamp_ns", "The TIMESTAMP_NS of nanoseconds since 1970", ex("make_timestamp_ns(1700000000000000000)"),
			over(columnar.TTimestampNS, rows(fnMakeTimestamp), big("nanos"))),
		customBind(aka(scalar("date", "date_part", "The part (year, month, day, hour, epoch, dow, …) of ts or of an interval (EXTRACT(part FROM ts))",
			ex("date_part('year', DATE '2024-02-10')"), over(i64, partKernel("date_part", DatePart, datePartKernel), param{"part", function.Str}, ts)), "datepart")),
		customBind(aka(scalar("date", "date_trunc", "ts truncated to the start of its part (year, quarter, month, week, day, hour, …)",
			ex("date_trunc('month', TIMESTAMP '2024-02-10 12:00')"), over(columnar.TTimestamp, partKernel("date_trunc", DateTrunc, dateTruncKernel), param{"part", function.Str}, ts)), "datetrunc")),
		customBind(scalar("date", "age", "The interval from start to end, field by field; age(ts) is from today at midnight", ex("age(TIMESTAMP '2024-03-01', TIMESTAMP '2023-01-15')"),
			over(columnar.TInterval, rowsT("age", fnAge), ts), over(columnar.TInterval, rowsT("age", fnAge), param{"end", function.Temporal}, param{"start", function.Temporal}))),
		customBind(scalar("date", "time_bucket", "The start of ts's bucket of the width, counted from origin (a Monday 2000-01-03, or 2000-01-01 for months, by default)",
			ex("time_bucket(INTERVAL 1 WEEK, DATE '2024-02-10')"),
			over(columnar.TTimestamp, rowsT("time_bucket", fnTimeBucket), param{"bucket_width", function.Interval}, ts),
			over(columnar.TTimestamp, rowsT("time_bucket", fnTimeBucket), param{"bucket_width", function.Interval}, ts, param{"origin", function.Temporal}))),
		customBind(scalar("date", "epoch_ms", "Milliseconds from 1970-01-01 to ts, or the TIMESTAMP of a count of milliseconds", ex("epoch_ms(DATE '2024-01-01')", "epoch_ms(1700000000000)"),
			over(i64, rowsT("epoch_ms", fnEpochMs), param{"ts", function.Instant}), over(columnar.TTimestamp, rowsT("epoch_ms", fnEpochMs), big("ms")))),
		scalar("date", "make_time", "The TIME of an hour, minute and seconds", ex("make_time(12, 30, 15.5)"),
			over(columnar.TTime, rows(fnMakeTime), big("hour"), big("minute"), param{"seconds", function.Double})),
		scalar("date", "current_date", "Today's date (UTC)", ex("current_date()"),
			function.Overload{Returns: date, Kernel: rowsNulls(fnCurrentDate), SeesNulls: true}),
		customBind(scalar("date", "strftime", "ts formatted with DuckDB's % codes; strftime(format, ts) is accepted too", ex("strftime(DATE '2024-02-10', '%d/%m/%Y')"),
			over(v, rowsT("strftime", fnStrftime), ts, param{"format", function.Str}))),
		customBind(scalar("date", "to_timestamp", "The TIMESTAMP WITH TIME ZONE of epoch seconds; to_timestamp(text, format) is strptime", ex("to_timestamp(1700000000)"),
			over(columnar.TTimestampTZ, rows(fnToTimestamp), param{"seconds", function.Double}))),
		customBind(scalar("date", "strptime", "The TIMESTAMP that text reads as in the format (DuckDB's % codes), or the first of a list of formats that reads it; an error when none does",
			ex("strptime('10/02/2024', '%d/%m/%Y')"), over(columnar.TTimestamp, rows(fnStrptime(false)), param{"text", function.Str}, param{"format", function.Str}))),
		customBind(scalar("date", "try_strptime", "strptime, NULL when the text does not read", ex("try_strptime('x', '%d/%m/%Y')"),
			over(columnar.TTimestamp, rows(fnStrptime(true)), param{"text", function.Str}, param{"format", function.Str}))),
	)
}

// The one-part shorthands of date_part (year(ts) is date_part('year', ts)),
// now() and its names, the INTERVAL constructors (to_days(n) is INTERVAL
// (n) DAY) and date_add: the binder rewrites them (sql/bind_func_dates.go,
// interval_calendar.go), so these entries describe them.
func init() {
	ts := param{"ts", function.Temporal}
	for _, p := range [][2]string{
		{"year", "year"}, {"month", "month"}, {"day", "day of the month"}, {"dayofmonth", "day of the month"},
		{"hour", "hour"}, {"minute", "minute"}, {"second", "second"}, {"millisecond", "milliseconds of the minute"},
		{"microsecond", "microseconds of the minute"}, {"nanosecond", "nanoseconds of the minute"}, {"quarter", "quarter"},
		{"week", "ISO week"}, {"weekofyear", "ISO week"}, {"dayofweek", "day of the week (0 = Sunday)"}, {"weekday", "day of the week (0 = Sunday)"},
		{"isodow", "ISO day of the week (1 = Monday)"}, {"dayofyear", "day of the year"}, {"decade", "decade"}, {"century", "century"},
		{"millennium", "millennium"}, {"isoyear", "ISO year"}, {"epoch", "seconds since 1970-01-01"},
		{"era", "era (1 AD, 0 BC)"}, {"timezone_hour", "hours of the session's UTC offset"},
		{"timezone_minute", "minutes (after the hours) of the session's UTC offset"},
	} {
		ret := columnar.TInt64
		if p[0] == "epoch" {
			ret = columnar.TFloat64
		}
		function.Register(customBind(scalar("date", p[0], "The "+p[1]+" of ts", ex(p[0]+"(TIMESTAMP '2024-02-10 12:34:56')"), over(ret, nil, ts))))
	}
	for _, u := range []string{"years", "months", "weeks", "days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "quarters", "decades", "centuries", "millennia"} {
		function.Register(customBind(scalar("date", "to_"+u, "An INTERVAL of n "+u, ex("to_"+u+"(2)"), over(columnar.TInterval, nil, param{"n", function.Double}))))
	}
	now := func(name, desc string, ret columnar.Type, aliases ...string) *function.Set {
		return customBind(aka(scalar("date", name, desc, ex(name+"()"), over(ret, nil)), aliases...))
	}
	function.Register(
		now("now", "The time the query started, as an instant", columnar.TTimestampTZ, "current_timestamp", "get_current_timestamp", "transaction_timestamp"),
		now("localtimestamp", "The time the query started, as the session's local time", columnar.TTimestamp, "current_localtimestamp"),
		now("current_time", "The time of day the query started, in the session's zone", columnar.TTime, "get_current_time", "localtime"),
		customBind(scalar("date", "timezone", "The instant of a local TIMESTAMP in the zone, or the local TIMESTAMP of an instant there (ts AT TIME ZONE zone)",
			ex("timezone('UTC', TIMESTAMP '2024-01-01 12:00:00')"), over(columnar.TTimestampTZ, nil, param{"zone", function.Str}, ts))),
		customBind(scalar("date", "date_add", "ts + interval", ex("date_add(DATE '2024-01-31', INTERVAL 1 MONTH)"),
			over(columnar.TTimestamp, nil, ts, param{"interval", function.Interval}))),
	)
}

// partKernel is the Factory of date_part and date_trunc: the part name is
// a constant (the binder checks it), checked against the argument's type
// once, here.
func partKernel(fn string, check func(string, columnar.Type, int64) (int64, error), k func(part string, t, ret columnar.Type) kernel) function.Factory {
	return func(ts []columnar.Type, consts []*columnar.Value, ret columnar.Type) (function.Kernel, error) {
		if fn == "date_part" && (consts[0] == nil || consts[0].Null) {
			return function.Kernel(datePartRowsKernel(ts[1])), nil // a part per row
		}
		if consts[0] == nil || consts[0].Null {
			return nil, errorf("%s needs a constant part name", fn)
		}
		part := strings.ToLower(consts[0].S)
		if _, err := check(part, ts[1], 0); err != nil {
			return nil, err
		}
		return function.Kernel(k(part, ts[1], ret)), nil
	}
}
