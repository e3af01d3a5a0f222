package lakesql

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// TuneGC sets the Go garbage collector for query work, as the lakesql
// binary does at start. Scans allocate fast and keep little alive; most of
// their batch buffers come back through the query buffer pool, and GOGC=200
// halves the collections of what remains. Measured on the harness's Q4 and
// Q7 (2 cores), 200 is within a few percent of 400, while a rewrite of
// 1.1·10^7 rows peaks at 1.7 GB instead of 2.8 GB (1.5 GB at 100). The
// soft memory limit, half of the memory the process may use, makes the
// collector work harder before a large heap (a hash join's build side)
// could grow to three times its live size. GOGC and GOMEMLIMIT in the
// environment win.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		if total := usableMemory(); total > 0 {
			debug.SetMemoryLimit(total / 2)
		}
	}
}

// usableMemory is the machine's memory, or the container's limit (cgroup
// v2 memory.max) when that is lower; 0 when unknown.
func usableMemory() int64 {
	total := physicalMemory()
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && limit > 0 && (total == 0 || limit < total) {
			total = limit // "max" (no limit) does not parse
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
