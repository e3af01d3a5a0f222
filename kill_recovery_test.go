package lakesql_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// killState is what the committed statements imply about db.t: the ids of
// its rows (row id has p = id % 4 and v = id % 1000) and the columns ALTER
// added. Keeping ids rather than rows keeps the model small and lets it
// apply DELETE predicates and partition overwrites exactly.
type killState struct {
	ids     []int64 // sorted
	columns int
}

// summary is the state as the test's check query prints it: count, sum of
// id, sum of v.
func (k killState) summary() string {
	var sumID, sumV int64
	for _, id := range k.ids {
		sumID += id
		sumV += id % 1000
	}
	return fmt.Sprintf("%d|%d|%d", len(k.ids), sumID, sumV)
}

// without drops the ids keep rejects.
func (k killState) without(drop func(int64) bool) killState {
	k.ids = slices.DeleteFunc(slices.Clone(k.ids), drop)
	return k
}

// with adds the ids of [lo, hi) that keep accepts.
func (k killState) with(lo, hi int64, keep func(int64) bool) killState {
	ids := slices.Clone(k.ids)
	for id := lo; id < hi; id++ {
		if keep(id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	k.ids = ids
	return k
}

// killStep is one statement the test runs in a child process and may kill:
// its SQL and the state it leaves when it commits.
type killStep struct {
	kind  string
	sql   string
	after killState
}

var killKinds = []string{"insert", "delete", "overwrite", "rewrite", "alter", "expire"}

// nextStep makes a statement of the given kind on top of state; fresh is the
// first id no row has had yet.
func nextStep(kind string, state killState, fresh *int64, rng *rand.Rand) killStep {
	all := func(int64) bool { return true }
	rows := func(lo, hi int64, where string) string {
		return fmt.Sprintf("SELECT id, CAST(id %% 4 AS INT), id %% 1000 FROM range(%d, %d)%s", lo, hi, where)
	}
	switch kind {
	case "insert":
		lo, n := *fresh, 1000+rng.Int64N(40000)
		*fresh += n
		return killStep{kind, "INSERT INTO db.t (id, p, v) " + rows(lo, lo+n, ""), state.with(lo, lo+n, all)}
	case "delete":
		r := rng.Int64N(7)
		return killStep{kind, fmt.Sprintf("DELETE FROM db.t WHERE id %% 7 = %d", r),
			state.without(func(id int64) bool { return id%7 == r })}
	case "overwrite":
		// Dynamic overwrite: the partition p = x is replaced by new rows.
		x := rng.Int64N(4)
		lo, n := *fresh, 400+rng.Int64N(40000)
		*fresh += n
		inX := func(id int64) bool { return id%4 == x }
		return killStep{kind, fmt.Sprintf("INSERT OVERWRITE db.t (id, p, v) %s", rows(lo, lo+n, fmt.Sprintf(" WHERE id %% 4 = %d", x))),
			state.without(inX).with(lo, lo+n, inX)}
	case "rewrite":
		return killStep{kind, "CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', 'true'))", state}
	case "alter":
		after := state
		after.columns++
		return killStep{kind, fmt.Sprintf("ALTER TABLE db.t ADD COLUMN c%d BIGINT", after.columns), after}
	case "expire":
		return killStep{kind, "CALL system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 2)", state}
	}
	panic("unknown kind " + kind)
}

// killRun is the outcome of one child process.
type killRun struct {
	killed bool
	code   int
	took   time.Duration
	stderr string
}

// runAndKill runs sql in a lakesql process and sends it SIGKILL after delay
// unless it has exited by then.
func runAndKill(t *testing.T, bin, dir, sql string, delay time.Duration) killRun {
	t.Helper()
	cmd := exec.Command(bin, "--warehouse", dir, "--format", "csv", "-e", sql)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	timer := time.AfterFunc(delay, func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
		}
	})
	_ = cmd.Wait()
	close(done)
	timer.Stop()
	run := killRun{took: time.Since(start), stderr: stderr.String()}
	status := cmd.ProcessState.Sys().(syscall.WaitStatus)
	run.killed = status.Signaled() && status.Signal() == syscall.SIGKILL
	run.code = cmd.ProcessState.ExitCode()
	return run
}

// readState reads db.t's count and sums and its column count with lakesql
// and with iceberg-go; both must agree.
func readState(t *testing.T, dir string) (summary string, columns int) {
	t.Helper()
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	defer s.Close()
	got := testutil.RowsInOrder(t, s, "SELECT count(*), coalesce(sum(id), 0), coalesce(sum(v), 0) FROM db.t")
	columns = len(testutil.Table(t, s, "db", "t").Schema().Fields()) - 3

	var n, sumID, sumV int64
	for _, row := range testutil.IcebergGoRows(t, dir, "db", "t") {
		cells := strings.Split(row, "|")
		id, err1 := strconv.ParseInt(cells[0], 10, 64)
		v, err2 := strconv.ParseInt(cells[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("iceberg-go reads row %q", row)
		}
		n, sumID, sumV = n+1, sumID+id, sumV+v
	}
	if other := fmt.Sprintf("%d|%d|%d", n, sumID, sumV); other != got[0] {
		t.Fatalf("lakesql reads count|sum(id)|sum(v) = %s, iceberg-go %s", got[0], other)
	}
	return got[0], columns
}

// checkNoOrphans runs remove_orphan_files with no age limit and checks
// that every file left in the table folder is referenced by its metadata.
func checkNoOrphans(t *testing.T, dir string) {
	t.Helper()
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir}, "SET vacuum_retention_check = false",
		"CALL system.remove_orphan_files(table => 'db.t', older_than => TIMESTAMP '2999-01-01 00:00:00')")
	s.Close()
	referenced := testutil.ReferencedFiles(t, dir, "db", "t")
	var left []string
	for _, f := range testutil.FilesBelow(t, filepath.Join(dir, "db", "t")) {
		if _, found := slices.BinarySearch(referenced, f); !found {
			left = append(left, f)
		}
	}
	if len(left) > 0 {
		t.Fatalf("after remove_orphan_files, %d unreferenced files remain in the table folder: %v", len(left), left)
	}
}

// A lakesql process killed (SIGKILL) at a random point of INSERT, DELETE,
// INSERT OVERWRITE, rewrite_data_files, ALTER or expire_snapshots leaves
// the table exactly as before the statement or exactly as after it, as
// lakesql and iceberg-go read it; a statement that ran to its end left it
// as after; and remove_orphan_files then leaves no unreferenced file.
// `make stress` kills 100 times, `make test` once per kind.
func TestKilledWriterLeavesLastCommittedState(t *testing.T) {
	bin := buildLakesql(t)
	wantKills, maxSteps := len(killKinds), 4*len(killKinds)
	if stressMode() {
		wantKills, maxSteps = 100, 400
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))

	dir := t.TempDir()
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir}, "CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT, p INT, v BIGINT) PARTITIONED BY (p)",
		"INSERT INTO db.t SELECT id, CAST(id % 4 AS INT), id % 1000 FROM range(0, 20000)")
	s.Close()
	took := map[string]time.Duration{}
	state := killState{}.with(0, 20000, func(int64) bool { return true })
	fresh := int64(20000)

	// took estimates each kind's run time, so that kills land anywhere in
	// it; until a kind has run to its end, an INSERT run unkilled here
	// stands for it.
	first := nextStep("insert", state, &fresh, rng)
	if run := runAndKill(t, bin, dir, first.sql, time.Minute); run.code != 0 {
		t.Fatalf("%s: %s", first.sql, run.stderr)
	} else {
		state = first.after
		took["default"] = run.took
	}
	kills := map[string]int{}
	totalKills, committedKills := 0, 0
	for step := 0; step < maxSteps && totalKills < wantKills; step++ {
		kind := killKinds[step%len(killKinds)]
		if stressMode() {
			kind = killKinds[rng.IntN(len(killKinds))]
		}
		next := nextStep(kind, state, &fresh, rng)
		estimate := orDefault(took[kind], took["default"])
		delay := time.Duration(rng.Int64N(int64(estimate) * 11 / 10))
		run := runAndKill(t, bin, dir, next.sql, delay)

		summary, columns := readState(t, dir)
		before, after := state.summary(), next.after.summary()
		switch {
		case run.killed && summary == after && columns == next.after.columns:
			state = next.after
			totalKills++
			committedKills++
			kills[kind]++
		case run.killed && summary == before && columns == state.columns:
			totalKills++
			kills[kind]++
		case run.killed:
			t.Fatalf("step %d: %s killed after %s: the table reads %s with %d added columns; before it %s with %d, after %s with %d",
				step, next.sql, delay, summary, columns, before, state.columns, after, next.after.columns)
		case run.code == 0:
			if summary != after || columns != next.after.columns {
				t.Fatalf("step %d: %s succeeded but the table reads %s with %d added columns, want %s with %d",
					step, next.sql, summary, columns, after, next.after.columns)
			}
			state = next.after
			took[kind] = (took[kind]*2 + run.took) / 3
		default:
			// A statement may fail (e.g. a claim left by the killed one),
			// but with one line, and changing nothing.
			if strings.Count(run.stderr, "\n") != 1 || !strings.HasPrefix(run.stderr, "Error: ") {
				t.Errorf("step %d: %s failed with other than one error line:\n%s", step, next.sql, run.stderr)
			} else {
				t.Logf("step %d: %s: %s", step, kind, strings.TrimSpace(run.stderr))
			}
			if summary != before || columns != state.columns {
				t.Fatalf("step %d: %s failed but the table reads %s with %d added columns, want %s with %d",
					step, next.sql, summary, columns, before, state.columns)
			}
		}
		checkNoOrphans(t, dir)
	}
	t.Logf("%d kills (%d after the commit) %v; the table ends with %d rows, %d added columns", totalKills, committedKills, kills, len(state.ids), state.columns)
	if totalKills < wantKills {
		t.Errorf("only %d of %d runs were killed before they ended", totalKills, wantKills)
	}
}

// orDefault returns d, or def when d is zero.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
