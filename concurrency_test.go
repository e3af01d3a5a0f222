package lakesql_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/catalog/restserver"
	"github.com/lakesql/lakesql/internal/testutil"
)

// conflictError matches the one-line error a writer may fail with when
// another process committed to the table first.
var conflictError = regexp.MustCompile(`^Error: .*(another writer committed|concurrent commit|commit conflict|lost to a concurrent writer)`)

// rawCommitRace matches iceberg-go's own errors for a commit that lost the
// race with another writer, to point at them when they reach the user.
var rawCommitRace = regexp.MustCompile(`requirement failed: branch "main" has changed|commit failed, refresh and try again`)

// cliRun is the outcome of one lakesql process.
type cliRun struct {
	what   string
	took   time.Duration
	code   int
	stdout string
	stderr string
}

// runCLI runs the lakesql binary with args and reports its exit status.
func runCLI(bin, what string, args ...string) cliRun {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	run := cliRun{what: what, took: time.Since(start), stdout: stdout.String(), stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.Exited():
		run.code = exitErr.ExitCode()
	default:
		run.code = -1
		run.stderr += fmt.Sprintf("[process: %v]", err)
	}
	return run
}

// outcome classifies a run: ok, conflict, or a failure the test reports.
func (r cliRun) outcome() string {
	switch {
	case r.code == 0:
		return "ok"
	case r.code == 1 && strings.Count(r.stderr, "\n") == 1 && strings.HasSuffix(r.stderr, "\n") &&
		conflictError.MatchString(r.stderr):
		return "conflict"
	default:
		return "failed"
	}
}

// Two OS processes write the same table at once: one compacts it with
// rewrite_data_files (rewrite-all), the other appends rows. Either may lose
// the race with a one-line conflict error, but no committed row may be lost
// or duplicated, and iceberg-go must read the result.
func TestRewriteAndInsertFromTwoProcesses(t *testing.T) {
	twoProcessWrites(t, func(string) string { return "" })
}

// The same two processes committing through an SQL catalog on PostgreSQL.
func TestRewriteAndInsertFromTwoProcessesOnPostgres(t *testing.T) {
	uri := testutil.Postgres(t)
	twoProcessWrites(t, func(string) string { return uri })
}

// The same two processes committing through "lakesql serve --rest" (its
// handler, in this test's process) as their REST catalog.
func TestRewriteAndInsertFromTwoProcessesThroughRESTServer(t *testing.T) {
	twoProcessWrites(t, func(tmp string) string {
		wh, err := catalog.Open(filepath.Join(tmp, "warehouse"), nil)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(restserver.New(wh, "").Handler())
		t.Cleanup(srv.Close)
		return srv.URL
	})
}

// twoProcessWrites runs the two writers on a warehouse in a temporary
// folder, with the catalog catalogURI(folder) ("": the folder's).
func twoProcessWrites(t *testing.T, catalogURI func(tmp string) string) {
	bin := buildLakesql(t)
	tmp := t.TempDir()

	// A table of many small files: one INSERT each.
	dir := filepath.Join(tmp, "warehouse")
	uri := catalogURI(tmp)
	opts := lakesql.Options{Warehouse: dir, CatalogURI: uri}
	where := []string{"--warehouse", dir}
	if uri != "" {
		where = append(where, "--catalog-uri", uri)
	}
	s := testutil.OpenWith(t, opts)
	testutil.Exec(t, s, "CREATE NAMESPACE db", "CREATE TABLE db.t (id BIGINT, src STRING, n INT)")
	const setupInserts = 8
	for i := range setupInserts {
		testutil.Exec(t, s, fmt.Sprintf("INSERT INTO db.t VALUES (%d, 'setup', %d), (%d, 'setup', %d), (%d, 'setup', %d)",
			3*i, i, 3*i+1, i, 3*i+2, i))
	}
	original := testutil.Rows(t, s, "SELECT * FROM db.t")
	s.Close()
	if len(original) != 3*setupInserts {
		t.Fatalf("setup: %d rows, want %d", len(original), 3*setupInserts)
	}

	// Each round starts a rewrite and an INSERT process together; every
	// round's INSERT has its own ids.
	const rounds = 10
	const rowsPerInsert = 2
	insertRows := func(round int) []string {
		var rows []string
		for k := range rowsPerInsert {
			rows = append(rows, fmt.Sprintf("%d|insert|%d", 1000+10*round+k, round))
		}
		return rows
	}
	rewriteSQL := "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all','true'))"
	var runs [2][]cliRun
	concurrentStart := time.Now()
	for round := range rounds {
		var values []string
		for k := range rowsPerInsert {
			values = append(values, fmt.Sprintf("(%d, 'insert', %d)", 1000+10*round+k, round))
		}
		var rewrite, insert cliRun
		var wg sync.WaitGroup
		wg.Go(func() {
			rewrite = runCLI(bin, fmt.Sprintf("rewrite %d", round), append(where, "--format", "csv", "-e", rewriteSQL)...)
		})
		wg.Go(func() {
			insert = runCLI(bin, fmt.Sprintf("insert %d", round), append(where, "-e", "INSERT INTO db.t VALUES "+strings.Join(values, ", "))...)
		})
		wg.Wait()
		runs[0] = append(runs[0], rewrite)
		runs[1] = append(runs[1], insert)
	}
	t.Logf("%d rounds of both processes in %s", rounds, time.Since(concurrentStart).Round(time.Millisecond))

	counts := map[string]map[string]int{"rewrite": {}, "insert": {}}
	want := slices.Clone(original)
	var notInserted, unknown []string // rows of INSERTs that conflicted, that failed otherwise
	for i, kind := range []string{"rewrite", "insert"} {
		for round, r := range runs[i] {
			o := r.outcome()
			counts[kind][o]++
			switch o {
			case "failed":
				hint := "not a one-line conflict error"
				if rawCommitRace.MatchString(r.stderr) {
					hint = "lost a commit race, reported with iceberg-go's raw error instead of a conflict message"
				}
				t.Errorf("%s (took %s): exit %d, %s\nstdout:\n%s\nstderr:\n%s", r.what, r.took.Round(time.Millisecond), r.code, hint, r.stdout, r.stderr)
			case "conflict":
				t.Logf("%s: %s", r.what, strings.TrimSpace(r.stderr))
			}
			if kind == "insert" {
				switch o {
				case "ok":
					want = append(want, insertRows(round)...)
				case "conflict":
					notInserted = append(notInserted, insertRows(round)...)
				default:
					unknown = append(unknown, insertRows(round)...)
				}
			}
		}
	}
	t.Logf("rewrite_data_files: %d committed, %d conflicted, %d failed; INSERT: %d committed, %d conflicted, %d failed",
		counts["rewrite"]["ok"], counts["rewrite"]["conflict"], counts["rewrite"]["failed"],
		counts["insert"]["ok"], counts["insert"]["conflict"], counts["insert"]["failed"])
	slices.Sort(want)

	s = testutil.OpenWith(t, opts)
	got := testutil.Rows(t, s, "SELECT * FROM db.t")
	// An INSERT that failed otherwise (reported above) may or may not have
	// committed: its rows are checked for duplicates only.
	withoutUnknown := slices.DeleteFunc(slices.Clone(got), func(r string) bool { return slices.Contains(unknown, r) })
	for i := 1; i < len(got); i++ {
		if got[i] == got[i-1] {
			t.Errorf("row %s is in the table more than once", got[i])
		}
	}
	for _, r := range notInserted {
		if slices.Contains(got, r) {
			t.Errorf("row %s of an INSERT that reported a conflict (nothing changed) is in the table", r)
		}
	}
	for _, r := range unknown {
		t.Logf("row %s of a failed INSERT: in the table %v", r, slices.Contains(got, r))
	}
	if !slices.Equal(withoutUnknown, want) {
		t.Errorf("lakesql reads, after the concurrent writes: %s", testutil.DiffRows(withoutUnknown, want))
	}
	var view testutil.IcebergGoView
	if uri == "" {
		view = testutil.IcebergGo(t, dir, "db", "t", 0)
	} else {
		other, err := catalog.OpenConfig(context.Background(), catalog.Config{Name: "lakesql", Warehouse: dir, URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		view = testutil.IcebergGoFrom(t, other.Catalog(), "db", "t", 0)
	}
	if !slices.Equal(view.Rows, got) {
		t.Errorf("iceberg-go reads other rows than lakesql: %s", testutil.DiffRows(view.Rows, got))
	}
	if counts["rewrite"]["ok"] > 0 {
		ops := testutil.RowsInOrder(t, s, "SELECT operation FROM db.t.snapshots ORDER BY committed_at")
		if !slices.Contains(ops, "replace") {
			t.Errorf("%d rewrites exited 0 but no replace snapshot was committed: %v", counts["rewrite"]["ok"], ops)
		}
	}
}
