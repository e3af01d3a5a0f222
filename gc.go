package lakesql

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// TuneGC sets the Go garbage collector for query work, as the lakesql
// binary does at start. A query allocates its Arrow batches at a high rate
// but keeps few of them alive, so with the default GOGC=100 the collector
// runs every few megabytes and takes a fifth of the CPU of a scan. GOGC=400
// collects a quarter as often; the soft memory limit, half of the memory
// the process may use, makes the collector work harder before a large heap
// (a hash join's build side) could grow to five times its live size.
// GOGC and GOMEMLIMIT in the environment win.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
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
