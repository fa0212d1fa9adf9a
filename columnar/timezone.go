package columnar

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones work without the system's zoneinfo
)

// TIMESTAMP WITH TIME ZONE holds an instant (UTC microseconds); a time
// zone turns it into local wall-clock time and back. These are the
// conversions DuckDB's ICU extension makes in the session's TimeZone:
//
//   - InstantToLocal adds the zone's offset at that instant;
//   - LocalToInstant finds the instant whose local time is the given one.
//     A local time that happens twice (clocks set back) and one that never
//     happens (clocks set forward) are resolved with the zone's standard
//     (non-daylight-saving) offset, as DuckDB does: 01:30 on the day New
//     York leaves DST is 01:30-05, and 02:30 on the day it enters DST is
//     read as 02:30-05, shown as 03:30-04.
//
// Infinite payloads stay infinite through both.

var zones sync.Map // zone name as given → *time.Location

// LoadZone returns the time zone named name: an IANA name ("Europe/Paris",
// any letter case), "UTC" or "GMT". Go's embedded zone database is used
// when the system has none.
func LoadZone(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	loc, err := loadZone(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}

func loadZone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	if n == "" || strings.EqualFold(n, "local") {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	for _, c := range []string{n, strings.ToUpper(n), titleZone(n)} {
		if loc, err := time.LoadLocation(c); err == nil {
			return loc, nil
		}
	}
	return nil, fmt.Errorf("unknown time zone %q", name)
}

// ZoneName is the canonical spelling of a zone name LoadZone accepts
// ("europe/amsterdam" → "Europe/Amsterdam").
func ZoneName(name string) (string, error) {
	loc, err := LoadZone(name)
	if err != nil {
		return "", err
	}
	return loc.String(), nil
}

// titleZone upper-cases the first letter of each word of a zone name
// ("america/new_york" → "America/New_York"), so that names match in any
// case as in DuckDB.
func titleZone(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// zoneOffset is the offset from UTC in microseconds of loc at instant us.
func zoneOffset(us int64, loc *time.Location) int64 {
	_, off := time.UnixMicro(us).In(loc).Zone()
	return int64(off) * 1e6
}

// InstantToLocal is the local wall-clock time in loc (a TIMESTAMP
// payload) of the instant us (a TIMESTAMP WITH TIME ZONE payload).
func InstantToLocal(us int64, loc *time.Location) int64 {
	if Infinity(TTimestamp, us) != 0 || loc == time.UTC {
		return us
	}
	return us + zoneOffset(us, loc)
}

// LocalToInstant is the instant whose local time in loc is local (see the
// package comment above for times that happen twice or never).
func LocalToInstant(local int64, loc *time.Location) int64 {
	if Infinity(TTimestamp, local) != 0 || loc == time.UTC {
		return local
	}
	// The offsets a day before and after bracket any one transition.
	const day = MicrosPerDay
	before, after := zoneOffset(local-day, loc), zoneOffset(local+day, loc)
	if before == after {
		if o := zoneOffset(local-before, loc); o == before {
			return local - before
		}
		// More than one transition within two days: take what holds.
		return local - zoneOffset(local-before, loc)
	}
	fits := func(o int64) bool { return zoneOffset(local-o, loc) == o }
	dst := func(o int64) bool { return time.UnixMicro(local - o).In(loc).IsDST() }
	fb, fa := fits(before), fits(after)
	switch {
	case fb && fa: // twice: the standard time's
		if dst(before) {
			return local - after
		}
		return local - before
	case fb:
		return local - before
	case fa:
		return local - after
	}
	// Never: read with the standard offset.
	if time.UnixMicro(local - day).In(loc).IsDST() {
		return local - after
	}
	return local - before
}

// AppendTimestampTZ appends DuckDB's text of the instant us in loc: the
// local time, then the offset as ±HH, with :MM when it has minutes
// ("2024-07-04 08:00:00-04", "2024-01-01 05:30:00+05:30").
func AppendTimestampTZ(dst []byte, us int64, loc *time.Location) []byte {
	if dst, ok := appendInfinity(dst, TTimestamp, us); ok {
		return dst
	}
	off := zoneOffset(us, loc)
	dst = AppendTimestamp(dst, us+off)
	return AppendZoneOffset(dst, off/1e6)
}

// AppendZoneOffset appends a UTC offset of secs seconds as DuckDB shows
// it: ±HH, then :MM when the minutes are not zero (seconds are dropped).
func AppendZoneOffset(dst []byte, secs int64) []byte {
	sign := byte('+')
	if secs < 0 {
		sign, secs = '-', -secs
	}
	dst = append(dst, sign)
	h, m := secs/3600, secs/60%60
	if h < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, h, 10)
	if m != 0 {
		dst = append(dst, ':')
		if m < 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, m, 10)
	}
	return dst
}

// ZoneOffsetSeconds is loc's offset from UTC at instant us, in seconds.
func ZoneOffsetSeconds(us int64, loc *time.Location) int64 { return zoneOffset(us, loc) / 1e6 }

// ParseTimestampTZ reads a TIMESTAMP WITH TIME ZONE text: a date or
// timestamp as ParseTimestamp reads it, with an offset ('+01', '+05:30',
// 'Z') or a zone name after a space ('2024-01-01 10:00:00 Europe/Paris');
// without either it is a local time in loc.
func ParseTimestampTZ(s string, loc *time.Location) (int64, bool) {
	s = strings.TrimSpace(s)
	if sign, ok := parseSpecial(s); ok {
		if sign == 0 {
			return 0, true
		}
		return InfinityOf(TTimestamp, sign), true
	}
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		if name := s[i+1:]; len(name) > 0 && isZoneName(name) {
			z, err := LoadZone(name)
			if err != nil {
				return 0, false
			}
			local, ok := parseLocal(s[:i])
			if !ok {
				return 0, false
			}
			return LocalToInstant(local, z), true
		}
	}
	if us, ok := parseOffset(s); ok {
		return us, true
	}
	local, ok := parseLocal(s)
	if !ok {
		return 0, false
	}
	return LocalToInstant(local, loc), true
}

// isZoneName reports a word that can only be a zone name: it starts with a
// letter (an offset starts with a sign, a time with a digit).
func isZoneName(w string) bool {
	c := w[0]
	return (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') && !strings.EqualFold(w, "Z")
}

// parseOffset reads a timestamp that carries an offset or a trailing Z.
func parseOffset(s string) (int64, bool) {
	if _, _, _, offset, ok := parseDateTime(s); !ok || !offset {
		return 0, false
	}
	us, _, ok := ParseTimestamp(s)
	return us, ok
}

// parseLocal reads a date or timestamp without an offset.
func parseLocal(s string) (int64, bool) {
	if _, _, _, offset, ok := parseDateTime(s); !ok || offset {
		return 0, false
	}
	us, _, ok := ParseTimestamp(s)
	return us, ok
}
