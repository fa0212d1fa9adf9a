package planner

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/index"
)

// Explain renders the operator tree, one operator a line, children indented
// under "└─"/"├─". With analyze it adds what each operator produced and what
// each scan read and skipped.
func (b *Built) Explain(analyze bool) string {
	var sb strings.Builder
	var walk func(op executor.Operator, prefix, childPrefix string)
	walk = func(op executor.Operator, prefix, childPrefix string) {
		sb.WriteString(prefix)
		sb.WriteString(op.String())
		if analyze {
			if in, ok := op.(*executor.Instrumented); ok {
				fmt.Fprintf(&sb, "  (rows=%d time=%s)", in.Stats.Rows, in.Stats.Elapsed.Round(time.Microsecond))
			}
			if s, ok := b.ScanStats(op); ok && s.UnitName != "" {
				fmt.Fprintf(&sb, "  [%s: %d total, %d skipped, %d all-match; read %d rows, %s]",
					s.UnitName, s.UnitsTotal, s.UnitsSkipped, s.UnitsAllTrue, s.RowsRead, byteSize(s.BytesRead))
			}
		}
		sb.WriteByte('\n')
		kids := op.Children()
		for i, k := range kids {
			if i == len(kids)-1 {
				walk(k, childPrefix+"└─ ", childPrefix+"   ")
			} else {
				walk(k, childPrefix+"├─ ", childPrefix+"│  ")
			}
		}
	}
	walk(b.Root, "", "")
	return strings.TrimRight(sb.String(), "\n")
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Progress sums the scan counters of the plan: units (row groups, chunks)
// to read, skipped and finished, and rows and bytes read so far. Safe to
// call while the plan runs.
func (b *Built) Progress() (total, skipped, done, rows, bytes int64) {
	seen := map[*index.ScanStats]bool{}
	for _, s := range b.scans {
		if seen[s] {
			continue
		}
		seen[s] = true
		total += atomic.LoadInt64(&s.UnitsTotal)
		skipped += atomic.LoadInt64(&s.UnitsSkipped)
		done += atomic.LoadInt64(&s.UnitsDone)
		rows += atomic.LoadInt64(&s.RowsRead)
		bytes += atomic.LoadInt64(&s.BytesRead)
	}
	return
}
