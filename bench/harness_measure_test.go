package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// measurement is one timed run of a target.
type measurement struct {
	elapsed time.Duration
	// peak is how far the process's resident set grew above where it stood
	// when the run started, in bytes, or -1 where Linux's peak counter
	// cannot be reset.
	peak   int64
	answer result
}

// measure runs a target once. A timed run starts warm: the Go heap keeps
// the memory earlier runs used, as DuckDB keeps its buffer pool; only
// garbage is collected first, so that one run's GC does not land in the
// next. A memory run (trackMemory) measures on the process, where both
// engines live: a Go GC hands free heap back to the OS and writing 5 to
// /proc/self/clear_refs resets VmHWM to the current VmRSS; after the run,
// VmHWM − VmRSS(before) is its peak growth. Memory an engine keeps between
// runs (DuckDB's buffer cache, lakesql's live heap) is in the baseline, not
// in the growth. Returning the heap to the OS makes the run fault its pages
// in again, so memory runs are not timed.
func measure(ctx context.Context, tg target, trackMemory bool) (measurement, error) {
	if tg.prepare != nil {
		if err := tg.prepare(ctx); err != nil {
			return measurement{}, err
		}
	}
	runtime.GC()
	canReset := false
	if trackMemory {
		debug.FreeOSMemory()
		canReset = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	}
	before, err := procStatusBytes("VmRSS")
	if err != nil {
		canReset = false
	}
	start := time.Now()
	answer, err := tg.run(ctx)
	m := measurement{elapsed: time.Since(start), peak: -1, answer: answer}
	if err != nil {
		return m, err
	}
	if canReset {
		if hwm, err := procStatusBytes("VmHWM"); err == nil {
			m.peak = max(0, hwm-before)
		}
	}
	return m, nil
}

// procStatusBytes reads a "kB" field of /proc/self/status.
func procStatusBytes(field string) (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		return kb * 1024, err
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("/proc/self/status has no %s", field)
}
