package columnar

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

// IntervalParts is DuckDB's INTERVAL: months, days and microseconds, each kept
// apart, because a month has no fixed number of days and a day (in a time
// zone) no fixed number of hours. '35:10:00' stays 35 hours, '2 years' stays
// 24 months; only comparison folds them (see CompareIntervals).
type IntervalParts struct {
	Months int32
	Days   int32
	Micros int64
}

// Calendar lengths DuckDB uses when it must compare or fold intervals.
const (
	DaysPerMonth   = 30
	MicrosPerMonth = DaysPerMonth * MicrosPerDay
)

// IntervalSize is the length of an INTERVAL's byte form in a vector.
//
// A vector of INTERVALs holds byte strings (PhysBytes): the first 16 bytes
// are the interval's total length in microseconds (a month as 30 days, a
// day as 24 hours) as a sign-flipped big-endian 128-bit integer, so that
// byte order is DuckDB's interval order and every operator that sorts
// byte strings handles intervals unchanged; the last 16 bytes are the
// three fields as given, so the value prints as it was written ('30 days'
// and '1 month' compare equal but print apart).
const IntervalSize = 32

const intervalKeySize = 16

// total128 is iv's total length in microseconds as a 128-bit integer
// (hi, lo): DuckDB compares intervals by it, so '1 month' = '30 days' and
// '1 month' - '4 days' = '26 days'.
func (iv IntervalParts) total128() (hi int64, lo uint64) {
	add := func(x int64, c uint64) {
		neg := x < 0
		u := uint64(x)
		if neg {
			u = -u
		}
		h, l := bits.Mul64(u, c)
		if neg { // two's complement of (h, l)
			l = ^l + 1
			h = ^h
			if l == 0 {
				h++
			}
		}
		var carry uint64
		lo, carry = bits.Add64(lo, l, 0)
		hi = int64(uint64(hi) + h + carry)
	}
	add(int64(iv.Months), MicrosPerMonth)
	add(int64(iv.Days), MicrosPerDay)
	add(iv.Micros, 1)
	return hi, lo
}

// AppendIntervalBytes appends the byte form of iv (IntervalSize bytes).
func AppendIntervalBytes(dst []byte, iv IntervalParts) []byte {
	hi, lo := iv.total128()
	dst = binary.BigEndian.AppendUint64(dst, uint64(hi)^(1<<63))
	dst = binary.BigEndian.AppendUint64(dst, lo)
	dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Months))
	dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Days))
	return binary.BigEndian.AppendUint64(dst, uint64(iv.Micros))
}

// IntervalOrderKey returns the normalized prefix of an INTERVAL's byte
// form: equal keys are equal intervals, and key order is interval order.
func IntervalOrderKey(b []byte) []byte {
	if len(b) == IntervalSize {
		return b[:intervalKeySize]
	}
	return b
}

// IntervalFromBytes decodes a byte form written by AppendIntervalBytes; any
// other length decodes as the zero interval.
func IntervalFromBytes(b []byte) IntervalParts {
	if len(b) != IntervalSize {
		return IntervalParts{}
	}
	return IntervalParts{
		Months: int32(binary.BigEndian.Uint32(b[16:])),
		Days:   int32(binary.BigEndian.Uint32(b[20:])),
		Micros: int64(binary.BigEndian.Uint64(b[24:])),
	}
}

// IntervalValue returns iv as a Value. S holds the byte form; I holds
// FoldedMicros, for consumers that want one number (a Go time.Duration).
func IntervalValue(iv IntervalParts) Value {
	return Value{Type: TInterval, S: string(AppendIntervalBytes(nil, iv)), I: iv.FoldedMicros()}
}

// Interval returns the INTERVAL held by v. A Value built with
// IntValue(TInterval, us) (no byte form) is us microseconds.
func (v Value) Interval() IntervalParts {
	if len(v.S) == IntervalSize {
		return IntervalFromBytes([]byte(v.S))
	}
	return IntervalParts{Micros: v.I}
}

// IntervalAt returns row i of an INTERVAL vector (not Const-aware: pass the
// row to read).
func (v *Vector) IntervalAt(i int) IntervalParts { return IntervalFromBytes(v.bytesAt(i)) }

// SetInterval stores iv at row i (a fresh byte form: rows may share storage).
func (v *Vector) SetInterval(i int, iv IntervalParts) {
	v.Bytes[i] = AppendIntervalBytes(make([]byte, 0, IntervalSize), iv)
}

// FoldedMicros is iv in microseconds with a month as 30 days and a day as
// 24 hours, saturating at the int64 range: the one-number view (Go's
// time.Duration, epoch) where DuckDB folds too.
func (iv IntervalParts) FoldedMicros() int64 {
	f := float64(iv.Months)*MicrosPerMonth + float64(iv.Days)*MicrosPerDay + float64(iv.Micros)
	if f >= math.MaxInt64 || f <= math.MinInt64 {
		if f > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return int64(iv.Months)*MicrosPerMonth + int64(iv.Days)*MicrosPerDay + iv.Micros
}

// CompareIntervals orders two intervals as DuckDB does: by their total
// length, a month as 30 days and a day as 24 hours.
func CompareIntervals(a, b IntervalParts) int {
	ah, al := a.total128()
	bh, bl := b.total128()
	switch {
	case ah < bh:
		return -1
	case ah > bh:
		return 1
	case al < bl:
		return -1
	case al > bl:
		return 1
	}
	return 0
}

// AppendInterval formats iv as DuckDB does: "N year(s)", "N month(s)",
// "N day(s)" for the non-zero calendar parts, then the microseconds as
// [-]HH:MM:SS[.ffffff] (hours past 24 kept, trailing zeros trimmed), each
// part with its own sign; "00:00:00" for the zero interval.
func AppendInterval(dst []byte, iv IntervalParts) []byte {
	start := len(dst)
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, n, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if n != 1 && n != -1 {
			dst = append(dst, 's')
		}
	}
	part(int64(iv.Months/12), "year")
	part(int64(iv.Months%12), "month")
	part(int64(iv.Days), "day")
	if iv.Micros == 0 && len(dst) > start {
		return dst
	}
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	u := uint64(iv.Micros)
	if iv.Micros < 0 {
		dst = append(dst, '-')
		u = -u
	}
	h, m, s, f := u/3_600_000_000, u/60_000_000%60, u/1_000_000%60, u%1_000_000
	if h < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendUint(dst, h, 10)
	dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10))
	if f != 0 {
		fs := strconv.Itoa(int(f) + 1_000_000)[1:]
		for fs[len(fs)-1] == '0' {
			fs = fs[:len(fs)-1]
		}
		dst = append(dst, '.')
		dst = append(dst, fs...)
	}
	return dst
}
