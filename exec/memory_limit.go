package exec

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
)

// The memory limit is the process's, as DuckDB's memory_limit is its
// database instance's: every query of every session shares it. It is the
// Go collector's soft limit too, so the heap's garbage is collected harder
// as the process nears it. A session of a server may hold a lower limit of
// its own (WithMemoryLimit): its statements spill and stop by that one,
// and the process's stays the ceiling. ORDER BY, GROUP BY, DISTINCT, hash joins and
// windows write rows to temporary files when they would take more than
// their share of it (sort_merge.go, hash_aggregate_spill.go,
// distinct_spill.go, hash_join_spill.go, window_spill.go); what cannot
// spill (a window without PARTITION BY) stops with one line near it
// (checkMemory).
var (
	memoryLimit   atomic.Int64 // bytes; 0 for none
	tempDirectory atomic.Pointer[string]
	defaultsOnce  sync.Once
)

// spillShare is the part of the memory limit one buffering operator may
// hold before it spills: sorting a run needs about twice the run's size
// (the rows, their concatenation and the sorted copy being written).
const spillShare = 0.3

// DefaultMemoryLimit is 75 % of the memory the process may use (the
// machine's, or its container's cgroup limit when lower), or GOMEMLIMIT
// when that is set; 0 when unknown.
func DefaultMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return envMemoryLimit
	}
	return usableMemory() / 4 * 3
}

// envMemoryLimit is the collector's limit as the process started, which
// GOMEMLIMIT set: read before any SET memory_limit changes it.
var envMemoryLimit = debug.SetMemoryLimit(-1)

// MemoryLimit is the current memory limit in bytes, 0 for none; until
// SetMemoryLimit is called, the default (which leaves the collector's soft
// limit as it is: a program using lakesql as a library keeps its own).
func MemoryLimit() int64 {
	defaultsOnce.Do(func() { memoryLimit.Store(DefaultMemoryLimit()) })
	return memoryLimit.Load()
}

// SetMemoryLimit sets the memory limit (0: none) and the collector's soft
// limit with it.
func SetMemoryLimit(bytes int64) {
	defaultsOnce.Do(func() {})
	memoryLimit.Store(bytes)
	if bytes > 0 {
		debug.SetMemoryLimit(bytes)
	} else {
		debug.SetMemoryLimit(1<<63 - 1)
	}
}

// TempDirectory is where operators spill: SetTempDirectory's folder, else
// the system's temporary folder.
func TempDirectory() string {
	if d := tempDirectory.Load(); d != nil {
		return *d
	}
	return os.TempDir()
}

// SetTempDirectory sets where operators spill; "" restores the default.
func SetTempDirectory(dir string) {
	if dir == "" {
		tempDirectory.Store(nil)
		return
	}
	tempDirectory.Store(&dir)
}

type memoryLimitKey struct{}

// WithMemoryLimit returns ctx whose statements' operators spill and stop by
// a session's memory limit of bytes (0: the process's) rather than the
// process's; the lower of the two applies.
func WithMemoryLimit(ctx context.Context, bytes int64) context.Context {
	return context.WithValue(ctx, memoryLimitKey{}, bytes)
}

// memoryLimitOf is the memory limit of the statement of ctx.
func memoryLimitOf(ctx context.Context) int64 {
	limit := MemoryLimit()
	if own, _ := ctx.Value(memoryLimitKey{}).(int64); own > 0 && (limit <= 0 || own < limit) {
		return own
	}
	return limit
}

// spillThreshold is how many bytes of rows one operator may hold before it
// spills; 0 for no limit.
func spillThreshold(ctx context.Context) int64 {
	return int64(float64(memoryLimitOf(ctx)) * spillShare)
}

// liveHeap is the heap the last garbage collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// formatLimit is the statement's memory limit as SET shows it.
func formatLimit(ctx context.Context) string { return FormatBytes(max(memoryLimitOf(ctx), 0)) }

// usableMemory is the machine's memory, or the container's limit (cgroup
// v2 memory.max, cgroup v1 memory.limit_in_bytes) when that is lower; 0
// when unknown.
func usableMemory() int64 {
	total := physicalMemory()
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// "max" (v2) does not parse; v1 writes a huge number for none.
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && limit > 0 && (total == 0 || limit < total) {
			total = limit
		}
	}
	return total
}

// physicalMemory is MemTotal from /proc/meminfo in bytes, or 0 where that
// is unknown.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

// batchBytes is the size of a batch's buffers (a sliced batch counts its
// buffers whole).
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, col := range b.Columns() {
		n += dataBytes(col.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, child := range d.Children() {
		n += dataBytes(child)
	}
	return n
}

// exhaustedShare is the part of the memory limit the live heap may reach
// while an operator that cannot spill buffers rows.
const exhaustedShare = 0.9

// checkMemory fails an operator that cannot spill (named by what) once the
// live heap passes exhaustedShare of the memory limit: one line saying so,
// rather than the process dying short of memory.
func checkMemory(ctx context.Context, what string) error {
	limit := memoryLimitOf(ctx)
	if limit > 0 && float64(liveHeap()) > exhaustedShare*float64(limit) {
		return fmt.Errorf("%s needs more memory than memory_limit (%s) allows and cannot spill to disk yet; raise memory_limit or make the input smaller", what, formatLimit(ctx))
	}
	return nil
}
