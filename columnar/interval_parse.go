package columnar

import (
	"math"
	"strings"
)

// intervalUnit is one unit of interval text and where its fraction goes.
type intervalUnit uint8

const (
	unitMicro intervalUnit = iota
	unitMilli
	unitSecond
	unitMinute
	unitHour
	unitDay
	unitWeek
	unitMonth
	unitQuarter
	unitYear
	unitDecade
	unitCentury
	unitMillennium
)

// intervalUnitNames are the unit spellings DuckDB accepts (case-insensitive).
var intervalUnitNames = map[string]intervalUnit{}

func init() {
	for u, names := range map[intervalUnit]string{
		unitMicro:      "microsecond microseconds us usec usecs usecond useconds",
		unitMilli:      "millisecond milliseconds ms msec msecs msecond mseconds",
		unitSecond:     "second seconds s sec secs",
		unitMinute:     "minute minutes m min mins",
		unitHour:       "hour hours h hr hrs",
		unitDay:        "day days d",
		unitWeek:       "week weeks w",
		unitMonth:      "month months mon mons",
		unitQuarter:    "quarter quarters",
		unitYear:       "year years y yr yrs",
		unitDecade:     "decade decades dec decs",
		unitCentury:    "century centuries c cent cents",
		unitMillennium: "millennium millennia millenium millenia mil mils millenniums",
	} {
		for _, n := range strings.Fields(names) {
			intervalUnitNames[n] = u
		}
	}
}

// IntervalUnitMonths returns the months in one unit named name (years 12,
// quarters 3, …), 0 for a unit of fixed length; ok is false for a name
// that is no interval unit.
func IntervalUnitMonths(name string) (months int64, ok bool) {
	u, ok := intervalUnitNames[strings.ToLower(name)]
	if !ok {
		return 0, false
	}
	switch u {
	case unitMonth:
		return 1, true
	case unitQuarter:
		return 3, true
	case unitYear:
		return 12, true
	case unitDecade:
		return 120, true
	case unitCentury:
		return 1200, true
	case unitMillennium:
		return 12000, true
	}
	return 0, true
}

// IntervalOfUnits returns n whole units of the unit named name as an
// interval (to_days(n), INTERVAL (n) HOUR, …); ok is false for an unknown
// unit or a result out of range.
func IntervalOfUnits(n int64, name string) (IntervalParts, bool) {
	u, ok := intervalUnitNames[strings.ToLower(name)]
	if !ok {
		return IntervalParts{}, false
	}
	var acc intervalAcc
	acc.add(u, n, 0, 1)
	return acc.result()
}

// intervalAcc sums interval parts in int64 before narrowing months and
// days to int32.
type intervalAcc struct {
	months, days, micros int64
	overflow             bool
}

func (a *intervalAcc) addTo(dst *int64, n, mul int64) {
	if n != 0 && (mul > math.MaxInt64/abs64(n)) {
		a.overflow = true
		return
	}
	x := n * mul
	s := *dst + x
	if (x > 0 && s < *dst) || (x < 0 && s > *dst) {
		a.overflow = true
		return
	}
	*dst = s
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// add adds sign·(whole + frac/10^6) units of u. A fraction spills one
// position down, as DuckDB's: years (and longer) into whole months,
// quarters and months into whole days, weeks and days into microseconds;
// what is left below that is dropped, and so is a fraction of a microsecond.
func (a *intervalAcc) add(u intervalUnit, whole, frac, sign int64) {
	w := sign * whole
	f := sign * frac // millionths of a unit
	switch u {
	case unitMicro:
		a.addTo(&a.micros, w, 1)
	case unitMilli, unitSecond, unitMinute, unitHour:
		per := [...]int64{unitMilli: 1_000, unitSecond: 1_000_000, unitMinute: 60_000_000, unitHour: 3_600_000_000}[u]
		a.addTo(&a.micros, w, per)
		a.addTo(&a.micros, f*per/1_000_000, 1)
	case unitDay:
		a.spill(&a.days, &a.micros, w, f, 1, MicrosPerDay)
	case unitWeek:
		a.spill(&a.days, &a.micros, w, f, 7, MicrosPerDay)
	case unitMonth:
		a.spill(&a.months, &a.days, w, f, 1, DaysPerMonth)
	case unitQuarter:
		a.spill(&a.months, &a.days, w, f, 3, DaysPerMonth)
	default:
		per := [...]int64{unitYear: 12, unitDecade: 120, unitCentury: 1200, unitMillennium: 12000}[u]
		a.addTo(&a.months, w, per)
		a.addTo(&a.months, f*per/1_000_000, 1)
	}
}

// spill adds w + f/10^6 units of per big-field units: the whole part to
// *big, the fraction left below one big unit as next-field units (next per
// big unit) to *small, truncated.
func (a *intervalAcc) spill(big, small *int64, w, f, per, next int64) {
	a.addTo(big, w, per)
	f *= per
	a.addTo(big, f/1_000_000, 1)
	a.addTo(small, f%1_000_000*next/1_000_000, 1)
}

func (a *intervalAcc) result() (IntervalParts, bool) {
	if a.overflow || a.months != int64(int32(a.months)) || a.days != int64(int32(a.days)) {
		return IntervalParts{}, false
	}
	return IntervalParts{Months: int32(a.months), Days: int32(a.days), Micros: a.micros}, true
}

// ParseInterval reads DuckDB's interval text: "2 years 1 month", "1d2h",
// "-2Y 4 days 5 Hours 3S 20mS", "1 day 02:00:00", "35:10:00" (hours past 24
// kept), "1.5 days" (a fraction spills one unit down, see add), "42" (a
// lone number is seconds), "@ 1 day", "3 days ago" (negated). Units are
// case-insensitive and may follow the number without a space. ok is false
// for anything else, or a months or days total beyond the int32 range.
func ParseInterval(s string) (IntervalParts, bool) {
	var acc intervalAcc
	i, n := 0, len(s)
	skipSpace := func() {
		for i < n && isSpaceByte(s[i]) {
			i++
		}
	}
	skipSpace()
	if i < n && s[i] == '@' {
		i++
		skipSpace()
	}
	if i == n {
		return IntervalParts{}, false
	}
	parts := 0
	for {
		skipSpace()
		if i == n {
			break
		}
		if parts > 0 && strings.EqualFold(strings.TrimSpace(s[i:]), "ago") {
			acc.months, acc.days, acc.micros = -acc.months, -acc.days, -acc.micros
			break
		}
		sign := int64(1)
		if s[i] == '-' {
			sign = -1
			i++
		}
		start := i
		var whole int64
		for i < n && isDigitByte(s[i]) {
			if whole > (math.MaxInt64-int64(s[i]-'0'))/10 {
				return IntervalParts{}, false
			}
			whole = whole*10 + int64(s[i]-'0')
			i++
		}
		if i == start {
			return IntervalParts{}, false
		}
		if i < n && s[i] == ':' {
			// A time of day with unbounded hours: [-]H:MM[:SS[.ffffff]]. The
			// text after it is not read, as in DuckDB.
			us, ok := parseIntervalClock(whole, s[i:])
			if !ok {
				return IntervalParts{}, false
			}
			acc.addTo(&acc.micros, sign*us, 1)
			parts++
			break
		}
		var frac int64
		if i < n && s[i] == '.' {
			i++
			// Millionths of the unit; the seventh digit rounds them.
			for k, scale := 0, int64(100_000); i < n && isDigitByte(s[i]); k, i = k+1, i+1 {
				switch {
				case k < 6:
					frac += int64(s[i]-'0') * scale
					scale /= 10
				case k == 6 && s[i] >= '5':
					frac++
				}
			}
		}
		skipSpace()
		us := i
		for i < n && isLetterByte(s[i]) {
			i++
		}
		if us == i {
			// A lone number, with nothing before or after it, is seconds.
			if parts == 0 && i == n {
				acc.add(unitSecond, whole, frac, sign)
				parts++
				break
			}
			return IntervalParts{}, false
		}
		word := strings.ToLower(s[us:i])
		if word == "ago" {
			return IntervalParts{}, false
		}
		u, ok := intervalUnitNames[word]
		if !ok {
			// DuckDB's one-letter spellings are case-sensitive only in
			// that "M" is minutes and "MS" milliseconds, as "m" and "ms".
			return IntervalParts{}, false
		}
		acc.add(u, whole, frac, sign)
		parts++
	}
	return acc.result()
}

// parseIntervalClock reads ":MM[:SS[.ffffff]]" after h hours (an empty
// field after a colon reads as 0, as DuckDB's '00:00:' does).
func parseIntervalClock(h int64, s string) (int64, bool) {
	if h > math.MaxInt64/3_600_000_000 {
		return 0, false
	}
	total := h * 3_600_000_000
	fields := strings.SplitN(s[1:], ":", 2)
	field := func(f string, per int64, last bool) bool {
		j, v := 0, int64(0)
		for j < len(f) && isDigitByte(f[j]) && j < 2 {
			v = v*10 + int64(f[j]-'0')
			j++
		}
		if v >= 60 {
			return false
		}
		total += v * per
		rest := f[j:]
		if last && strings.HasPrefix(rest, ".") {
			scale := int64(100_000)
			for k := 1; k < len(rest) && isDigitByte(rest[k]); k++ {
				total += int64(rest[k]-'0') * scale
				scale /= 10
			}
			return true
		}
		return strings.TrimSpace(rest) == "" || (!last && rest == "")
	}
	if !field(fields[0], 60_000_000, len(fields) == 1) {
		return 0, false
	}
	if len(fields) == 2 && !field(fields[1], 1_000_000, true) {
		return 0, false
	}
	return total, true
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isDigitByte(c byte) bool  { return c >= '0' && c <= '9' }
func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
