// Command b2decode times b2sql's blosc2 chunk decoding against c-blosc2's on
// the same chunks: bench/cblosc2/decode.c compresses one 2 MiB chunk per
// codec x filter pipeline x column shape with c-blosc2 (python-blosc2's
// defaults: clevel 5, automatic blocksize, AUTO_SPLIT), times c-blosc2's
// single-threaded decompression and writes the chunks, the data and c.tsv
// to a directory; b2decode decodes each chunk on one thread with a reused
// b2.Decoder (best thread CPU time of -runs, the clock decode.c uses),
// checks the bytes against the data, and prints
// both speeds and b2sql's as a percentage of c-blosc2's.
//
//	cd bench && go run ./cmd/b2decode -dir /work/data/perf/chunks
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/b2sql/b2sql/bench/internal/proc"
	"github.com/b2sql/b2sql/formats/b2"
)

func main() {
	dir := flag.String("dir", "/work/data/perf/chunks", "directory written by bench/cblosc2/decode")
	runs := flag.Int("runs", 20, "timed decodes per chunk (best is reported)")
	only := flag.String("only", "", "only chunks whose name contains this")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the decodes to this file")
	flag.Parse()
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		check(err)
		check(pprof.StartCPUProfile(pf))
		defer pprof.StopCPUProfile()
	}
	runtime.LockOSThread()
	f, err := os.Open(filepath.Join(*dir, "c.tsv"))
	check(err)
	defer f.Close()
	fmt.Printf("load %s; one thread each, best of %d; MB/s of decompressed bytes\n\n", proc.LoadAvg(), *runs)
	fmt.Println("| codec × filters × column | ratio | blocksize | c-blosc2 MB/s | b2sql MB/s | b2sql / c-blosc2 |")
	fmt.Println("|---|---|---|---|---|---|")
	raws := map[string][]byte{}
	d := b2.NewDecoder()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 5 || fs[0] == "name" || !strings.Contains(fs[0], *only) {
			continue
		}
		name := fs[0]
		nbytes, _ := strconv.Atoi(fs[1])
		cbytes, _ := strconv.Atoi(fs[2])
		cns, _ := strconv.ParseFloat(fs[4], 64)
		shape := name[strings.LastIndex(name[:strings.LastIndex(name, "_")], "_")+1:]
		raw := raws[shape]
		if raw == nil {
			raw, err = os.ReadFile(filepath.Join(*dir, shape+".raw"))
			check(err)
			raws[shape] = raw
		}
		chunk, err := os.ReadFile(filepath.Join(*dir, name+".chunk"))
		check(err)
		dst := make([]byte, nbytes)
		best := time.Duration(1 << 62)
		for r := 0; r < *runs; r++ {
			t0 := threadCPU()
			n, err := d.Decompress(dst, chunk)
			el := threadCPU() - t0
			check(err)
			if n != nbytes || !bytes.Equal(dst, raw) {
				check(fmt.Errorf("%s: decoded bytes differ from the data", name))
			}
			best = min(best, el)
		}
		cMBs := float64(nbytes) / cns * 1e3
		goMBs := float64(nbytes) / float64(best.Nanoseconds()) * 1e3
		fmt.Printf("| %s | %.2f | %s | %.0f | %.0f | %.0f%% |\n", strings.ReplaceAll(name, "_", " "),
			float64(nbytes)/float64(cbytes), fs[3], cMBs, goMBs, 100*goMBs/cMBs)
	}
	check(sc.Err())
}

// threadCPU is the CPU time of the calling OS thread (main locks itself to
// one): decode.c measures the same clock, so neither counts time spent
// waiting for a core on a loaded machine.
func threadCPU() time.Duration {
	var ts unix.Timespec
	check(unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts))
	return time.Duration(ts.Nano())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "b2decode:", err)
		os.Exit(1)
	}
}
