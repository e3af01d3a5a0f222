package lakesql

import (
	"os"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/gcpercent"
)

// TuneGC sets the Go garbage collector for query work, as the lakesql
// binary does at start. Scans allocate fast and keep little alive; most of
// their batch buffers come back through the query buffer pool, and GOGC=200
// halves the collections of what remains. Measured on the harness's Q4 and
// Q7 (2 cores), 200 is within a few percent of 400, while a rewrite of
// 1.1·10^7 rows peaks at 1.7 GB instead of 2.8 GB (1.5 GB at 100). The
// soft memory limit is the memory limit (SET memory_limit; by default 75 %
// of the memory the process may use): the collector works harder before a
// large heap (a hash join's build side) could grow to three times its live
// size. GOGC and GOMEMLIMIT in the environment win.
func TuneGC() {
	gcpercent.Set()
	if os.Getenv("GOMEMLIMIT") == "" {
		exec.SetMemoryLimit(exec.DefaultMemoryLimit())
	}
}
