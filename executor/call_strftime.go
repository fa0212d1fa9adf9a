package executor

import (
	"fmt"
	"strings"
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// fnStrftime formats a DATE or TIMESTAMP with DuckDB's strftime codes:
//
//	%Y %y %m %d %e %H %I %M %S %j  year, 2-digit year, month, day (%e unpadded), hour, 12-hour, minute, second, day of year
//	%-y %-m %-d %-H %-I %-M %-S %-j  the same without zero padding
//	%f %g %n                 microseconds (6 digits), milliseconds (3), nanoseconds (9)
//	%p %b %h %B %a %A %w %u  AM/PM, month and weekday names, weekday 0–6 from Sunday, ISO weekday 1–7
//	%U %W %V %G              week of the year from Sunday, from Monday, ISO week, ISO year
//	%c %x %X                 %Y-%m-%d %H:%M:%S, %Y-%m-%d, %H:%M:%S
//	%z %Z %%                 UTC offset (+00), zone name (empty for a TIMESTAMP), %
func fnStrftime(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	tm := time.UnixMicro(micros(a[0])).UTC()
	if a[0].Type.ID == columnar.TimestampNS {
		tm = columnar.TimestampUnitToTime(a[0].Type, a[0].I) // %n shows its nanoseconds
	}
	var b strings.Builder
	if err := appendStrftime(&b, tm, a[1].S); err != nil {
		return columnar.Value{}, err
	}
	return columnar.StringValue(b.String()), nil
}

func appendStrftime(b *strings.Builder, tm time.Time, f string) error {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		pad := true
		if f[i] == '-' && i+1 < len(f) {
			pad = false
			i++
		}
		num := func(n, width int) {
			if pad {
				fmt.Fprintf(b, "%0*d", width, n)
			} else {
				fmt.Fprintf(b, "%d", n)
			}
		}
		c := f[i]
		if !pad && !strings.ContainsRune("ymdHIMSj", rune(c)) {
			return fmt.Errorf("strftime: unsupported format code %%-%c", c)
		}
		switch c {
		case 'Y':
			b.WriteString(strftimeYear(tm.Year()))
		case 'y':
			num(int(absInt64(int64(tm.Year()))%100), 2)
		case 'm':
			num(int(tm.Month()), 2)
		case 'd':
			num(tm.Day(), 2)
		case 'e':
			fmt.Fprintf(b, "%d", tm.Day())
		case 'H':
			num(tm.Hour(), 2)
		case 'I':
			h := tm.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(tm.Minute(), 2)
		case 'S':
			num(tm.Second(), 2)
		case 'j':
			num(tm.YearDay(), 3)
		case 'f':
			fmt.Fprintf(b, "%06d", tm.Nanosecond()/1000)
		case 'g':
			fmt.Fprintf(b, "%03d", tm.Nanosecond()/1000000)
		case 'n':
			fmt.Fprintf(b, "%09d", tm.Nanosecond())
		case 'p':
			if tm.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'b', 'h':
			b.WriteString(tm.Month().String()[:3])
		case 'B':
			b.WriteString(tm.Month().String())
		case 'a':
			b.WriteString(tm.Weekday().String()[:3])
		case 'A':
			b.WriteString(tm.Weekday().String())
		case 'w':
			fmt.Fprintf(b, "%d", int(tm.Weekday()))
		case 'u':
			fmt.Fprintf(b, "%d", (int(tm.Weekday())+6)%7+1)
		case 'U':
			fmt.Fprintf(b, "%02d", (tm.YearDay()-1+7-int(tm.Weekday()))/7)
		case 'W':
			fmt.Fprintf(b, "%02d", (tm.YearDay()-1+7-(int(tm.Weekday())+6)%7)/7)
		case 'V':
			_, w := tm.ISOWeek()
			fmt.Fprintf(b, "%02d", w)
		case 'G':
			y, _ := tm.ISOWeek()
			fmt.Fprintf(b, "%04d", y)
		case 'c':
			if err := appendStrftime(b, tm, "%Y-%m-%d %H:%M:%S"); err != nil {
				return err
			}
		case 'x':
			fmt.Fprintf(b, "%s-%02d-%02d", strftimeYear(tm.Year()), int(tm.Month()), tm.Day())
		case 'X':
			fmt.Fprintf(b, "%02d:%02d:%02d", tm.Hour(), tm.Minute(), tm.Second())
		case 'z':
			_, off := tm.Zone()
			b.Write(columnar.AppendZoneOffset(nil, int64(off)))
		case 'Z':
			if loc := tm.Location(); loc != time.UTC { // a local TIMESTAMP has no zone
				b.WriteString(loc.String())
			}
		case '%':
			b.WriteByte('%')
		default:
			return fmt.Errorf("strftime: unsupported format code %%%c", c)
		}
	}
	return nil
}

// strftimeYear is %Y as DuckDB prints it: four digits at least, and a
// year before 0 (astronomical: -5 is 6 BC) as a minus and its digits.
func strftimeYear(y int) string {
	if y < 0 {
		return fmt.Sprintf("-%d", -y)
	}
	return fmt.Sprintf("%04d", y)
}
