package planner

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/b2sql/b2sql/executor"
	"github.com/b2sql/b2sql/executor/memory"
	"github.com/b2sql/b2sql/index"
)

// Explain renders the operator tree, one operator a line, children indented
// under "└─"/"├─". With analyze it adds what each operator produced and what
// each scan read and skipped.
func (b *Built) Explain(analyze bool) string {
	var sb strings.Builder
	var merges []*executor.PartitionMerge // seen so far: their sources' partials are copies
	// walk renders one node. ops are its copies: a Gather's workers run
	// copies of one pipeline and the tree shows it once, each operator with
	// the rows of every copy added up and the time of the slowest (a
	// build side the copies share is one operator, counted once).
	var walk func(ops []executor.Operator, prefix, childPrefix string)
	walk = func(ops []executor.Operator, prefix, childPrefix string) {
		op := ops[0]
		sb.WriteString(prefix)
		sb.WriteString(op.String())
		if analyze {
			if _, ok := op.(*executor.Instrumented); ok {
				var rows int64
				var elapsed time.Duration
				for _, o := range ops {
					if in, ok := o.(*executor.Instrumented); ok {
						rows += in.Stats.Rows
						elapsed = max(elapsed, in.Stats.Elapsed)
					}
				}
				fmt.Fprintf(&sb, "  (rows=%d time=%s)", rows, elapsed.Round(time.Microsecond))
			}
			sb.WriteString(memoryUse(ops)) // explain_memory.go
			if s, ok := b.ScanStats(op); ok && s.UnitName != "" {
				sb.WriteString("  " + scanCounters(s, b.remote[s]))
			}
		}
		sb.WriteByte('\n')
		if m, ok := unwrap(op).(*executor.PartitionMerge); ok {
			merges = append(merges, m)
		}
		kids := childCopies(ops, merges)
		for i, k := range kids {
			if i == len(kids)-1 {
				walk(k, childPrefix+"└─ ", childPrefix+"   ")
			} else {
				walk(k, childPrefix+"├─ ", childPrefix+"│  ")
			}
		}
	}
	// A WITH entry computed once is shown once, before the plan whose
	// "CTE scan" operators read it.
	for _, c := range b.ctes {
		walk([]executor.Operator{c}, "", "")
	}
	walk([]executor.Operator{b.Tree()}, "", "")
	if len(b.Rules) > 0 {
		sb.WriteString("rules applied: " + strings.Join(b.Rules, ", "))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// childCopies returns, for each child of ops[0], its copies under every op
// of ops, each operator once. A Parallel operator's one child is all its
// copies, and so is a PartitionMerge's source's: the workers' partials.
func childCopies(ops []executor.Operator, merges []*executor.PartitionMerge) [][]executor.Operator {
	if s, ok := unwrap(ops[0]).(*executor.PartitionSource); ok {
		for _, m := range merges {
			if p := m.PartialCopies(s); p != nil {
				return [][]executor.Operator{p}
			}
		}
	}
	if _, ok := unwrap(ops[0]).(executor.Parallel); ok {
		var all []executor.Operator
		seen := map[executor.Operator]bool{}
		for _, o := range ops {
			for _, c := range unwrap(o).(executor.Parallel).Copies() {
				if !seen[c] {
					seen[c] = true
					all = append(all, c)
				}
			}
		}
		return [][]executor.Operator{all}
	}
	kids := ops[0].Children()
	out := make([][]executor.Operator, len(kids))
	for i := range kids {
		seen := map[executor.Operator]bool{}
		for _, o := range ops {
			ks := o.Children()
			if i < len(ks) && !seen[ks[i]] {
				seen[ks[i]] = true
				out[i] = append(out[i], ks[i])
			}
		}
	}
	return out
}

// unwrap returns the operator an Instrumented wraps.
func unwrap(op executor.Operator) executor.Operator {
	if in, ok := op.(*executor.Instrumented); ok {
		return in.Operator
	}
	return op
}

// scanCounters renders what a scan read and skipped, e.g.
// "[blocks: 100 total, 97 skipped (block_pruning 90, topk_pruning 7),
// 1 all-match, late_materialization 2 with other columns left compressed;
// pages: 3 of 40 skipped; read 2048 rows, 1.0 MiB on disk, 4.0 MiB
// decompressed]". Rules that skipped nothing are left out.
func scanCounters(s *index.ScanStats, remote IOReporter) string {
	var b strings.Builder
	b.WriteString("[")
	if ft := atomic.LoadInt64(&s.FilesTotal); ft > 0 {
		// A many-file scan: files its partition predicates left unopened.
		fmt.Fprintf(&b, "files: %d total, %d skipped; ", ft, atomic.LoadInt64(&s.FilesSkipped))
	}
	fmt.Fprintf(&b, "%s: %d total, %d skipped", s.UnitName, atomic.LoadInt64(&s.UnitsTotal), atomic.LoadInt64(&s.UnitsSkipped))
	var by []string
	for r := index.ScanRule(0); r < index.NumScanRules; r++ {
		if n := atomic.LoadInt64(&s.SkippedBy[r]); n > 0 && r != index.LateMaterialization {
			by = append(by, fmt.Sprintf("%s %d", r, n))
		}
	}
	if len(by) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(by, ", "))
	}
	fmt.Fprintf(&b, ", %d all-match", atomic.LoadInt64(&s.UnitsAllTrue))
	// Late materialization reads a unit's filter columns: the unit is not
	// skipped, only the decoding of its other columns.
	if n := atomic.LoadInt64(&s.SkippedBy[index.LateMaterialization]); n > 0 {
		fmt.Fprintf(&b, ", %s %d with other columns left compressed", index.LateMaterialization, n)
	}
	if pt := atomic.LoadInt64(&s.PagesTotal); pt > 0 {
		fmt.Fprintf(&b, "; pages: %d of %d skipped", atomic.LoadInt64(&s.PagesSkipped), pt)
	}
	if d := atomic.LoadInt64(&s.DictUnits); d > 0 {
		fmt.Fprintf(&b, "; %d column chunks as dictionary codes (%s)", d, index.DictCodes)
	}
	fmt.Fprintf(&b, "; read %d rows, %s on disk", atomic.LoadInt64(&s.RowsRead), byteSize(atomic.LoadInt64(&s.BytesRead)))
	if d := atomic.LoadInt64(&s.BytesDecompressed); d > 0 {
		fmt.Fprintf(&b, ", %s decompressed", byteSize(d))
	}
	if remote != nil {
		io, _ := remote.IO()
		share := 0.0
		if io.Size > 0 {
			share = 100 * float64(io.Bytes) / float64(io.Size)
		}
		fmt.Fprintf(&b, "; remote: %d %s, fetched %s of %s (%.1f%%)",
			io.Requests, plural(io.Requests, "request", "requests"), byteSize(io.Bytes), byteSize(io.Size), share)
	}
	b.WriteString("]")
	return b.String()
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

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Fetched sums what the plan's remote tables fetched since they were
// opened: requests and bytes (each table once, however many scans read
// it). Safe to call
// while the plan runs.
func (b *Built) Fetched() (requests, bytes int64) {
	seen := map[IOReporter]bool{}
	for _, t := range b.remote {
		if seen[t] {
			continue
		}
		seen[t] = true
		io, _ := t.IO()
		requests += io.Requests
		bytes += io.Bytes
	}
	return
}

// FileProgress sums the many-file scans' file counters: files to read,
// skipped unopened by partition predicates, and finished. Safe to call
// while the plan runs.
func (b *Built) FileProgress() (total, skipped, done int64) {
	seen := map[*index.ScanStats]bool{}
	for _, s := range b.scans {
		if seen[s] {
			continue
		}
		seen[s] = true
		total += atomic.LoadInt64(&s.FilesTotal)
		skipped += atomic.LoadInt64(&s.FilesSkipped)
		done += atomic.LoadInt64(&s.FilesDone)
	}
	return
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

// memoryUse is what EXPLAIN ANALYZE adds to an operator that reserves
// memory: its peak reservation and what it spilled, added up over its
// copies (they run at the same time); "" when it reserved nothing.
func memoryUse(ops []executor.Operator) string {
	var peak, spilled int64
	for _, o := range ops {
		if mr, ok := unwrap(o).(executor.MemoryReporter); ok {
			p, s := mr.MemoryUse()
			peak += p
			spilled += s
		}
	}
	if peak == 0 && spilled == 0 {
		return ""
	}
	s := "  [memory peak " + memory.FormatSize(peak)
	if spilled > 0 {
		s += ", spilled " + memory.FormatSize(spilled)
	}
	return s + "]"
}
