package lakesql_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// rawLibraryError matches what must never reach a user as a commit error:
// iceberg-go's own wording.
var rawLibraryError = regexp.MustCompile(`requirement failed|already claimed|could not open manifest|metadata file already exists|` +
	`failed to commit|refresh and try again`)

// doubledPrefix reports a message that says a prefix twice in a row
// ("rewrite of db.t: rewrite of db.t: …"), from two layers wrapping the
// same error.
func doubledPrefix(msg string) bool {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts)-1; i++ {
		if parts[i] == parts[i-1] {
			return true
		}
	}
	return false
}

// checkFailureLine reports a failed run whose standard error is not one
// lakesql line.
func checkFailureLine(t *testing.T, r cliRun) {
	t.Helper()
	if r.code == 0 {
		return
	}
	oneLine := strings.Count(r.stderr, "\n") == 1 && strings.HasSuffix(r.stderr, "\n") && strings.HasPrefix(r.stderr, "Error: ")
	if !oneLine || rawLibraryError.MatchString(r.stderr) || doubledPrefix(r.stderr) {
		t.Errorf("%s (exit %d after %s) failed with other than one lakesql line:\n%s", r.what, r.code, r.took.Round(time.Millisecond), r.stderr)
	}
}

// Eight lakesql processes insert twenty times each into one table while
// two more loop over rewrite_data_files and expire_snapshots on it. No
// committed row may be lost or duplicated, no failed INSERT may leave rows,
// and every failure is one line in lakesql's words. `make test` runs 4
// writers × 4 INSERTs.
func TestConcurrentWritersWithRewriteAndExpire(t *testing.T) {
	bin := buildLakesql(t)
	writers, inserts := 4, 4
	if stressMode() {
		writers, inserts = 8, 20
	}
	dir := filepath.Join(t.TempDir(), "warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir}, "CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT, writer INT, n INT)")
	s.Close()

	// rowsOf are the rows INSERT n of writer w adds: two, with ids of their own.
	rowsOf := func(w, n int) []string {
		id := 1000*w + 2*n
		return []string{fmt.Sprintf("%d|%d|%d", id, w, n), fmt.Sprintf("%d|%d|%d", id+1, w, n)}
	}
	runs := make([][]cliRun, writers)
	var writing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			for n := range inserts {
				rows := rowsOf(w, n)
				values := make([]string, len(rows))
				for i, r := range rows {
					values[i] = "(" + strings.ReplaceAll(r, "|", ", ") + ")"
				}
				runs[w] = append(runs[w], runCLI(bin, fmt.Sprintf("writer %d insert %d", w, n),
					"--warehouse", dir, "-e", "INSERT INTO db.t VALUES "+strings.Join(values, ", ")))
			}
		})
	}
	// The maintenance loops run until the writers are done.
	var stop atomic.Bool
	maintenance := map[string]string{
		"rewrite": "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', 'true'))",
		"expire":  "CALL system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)",
	}
	loops := map[string][]cliRun{}
	var mu sync.Mutex
	var looping sync.WaitGroup
	for what, sql := range maintenance {
		looping.Go(func() {
			for i := 0; !stop.Load(); i++ {
				r := runCLI(bin, fmt.Sprintf("%s %d", what, i), "--warehouse", dir, "--format", "csv", "-e", sql)
				mu.Lock()
				loops[what] = append(loops[what], r)
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	writing.Wait()
	stop.Store(true)
	looping.Wait()
	t.Logf("%d writers × %d INSERTs with rewrite and expire loops in %s", writers, inserts, time.Since(start).Round(time.Millisecond))

	var want, failed []string
	insertFailures := 0
	for w := range writers {
		for n, r := range runs[w] {
			checkFailureLine(t, r)
			if r.code == 0 {
				want = append(want, rowsOf(w, n)...)
			} else {
				insertFailures++
				failed = append(failed, rowsOf(w, n)...)
				t.Logf("%s: %s", r.what, strings.TrimSpace(r.stderr))
			}
		}
	}
	for what, rs := range loops {
		fails := 0
		for _, r := range rs {
			checkFailureLine(t, r)
			if r.code != 0 {
				fails++
				t.Logf("%s: %s", r.what, strings.TrimSpace(r.stderr))
			}
		}
		t.Logf("%s: %d runs, %d failed", what, len(rs), fails)
	}
	t.Logf("INSERT: %d runs, %d failed", writers*inserts, insertFailures)
	slices.Sort(want)

	s = testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	got := testutil.Rows(t, s, "SELECT * FROM db.t")
	for i := 1; i < len(got); i++ {
		if got[i] == got[i-1] {
			t.Errorf("row %s is in the table more than once", got[i])
		}
	}
	for _, r := range failed {
		if slices.Contains(got, r) {
			t.Errorf("row %s of an INSERT that failed is in the table", r)
		}
	}
	if !slices.Equal(slices.Compact(slices.Clone(got)), want) {
		t.Errorf("lakesql reads, after the concurrent writes: %s", testutil.DiffRows(got, want))
	}
	if other := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(other, got) {
		t.Errorf("iceberg-go reads other rows than lakesql: %s", testutil.DiffRows(other, got))
	}
}
