package lakesql_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/procedures"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// openRewriteTable opens a session on a new warehouse with db.events
// (id, ts, kind) filled by one INSERT per day of January 2026, 1..days.
func openRewriteTable(t *testing.T, days int) (*lakesql.Session, string) {
	t.Helper()
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.events (id BIGINT, ts TIMESTAMP, kind STRING)")
	for d := 1; d <= days; d++ {
		testutil.Exec(t, s, fmt.Sprintf(`INSERT INTO db.events VALUES
			(%d, '2026-01-%02d 09:00:00', 'view'), (%d, '2026-01-%02d 17:30:00', NULL), (%d, '2026-01-%02d 23:59:59', 'buy')`,
			3*d, d, 3*d+1, d, 3*d+2, d))
	}
	return s, dir
}

// The tutorial: unpartitioned files are rewritten under the new day(ts) spec.
func TestRewriteDataFilesToNewSpec(t *testing.T) {
	s, dir := openRewriteTable(t, 4)
	before := testutil.Rows(t, s, "SELECT * FROM db.events")
	testutil.Exec(t, s, "ALTER TABLE db.events ADD PARTITION FIELD day(ts)")

	got := testutil.Rows(t, s, `CALL lakesql.system.rewrite_data_files(table => 'db.events', options => map('rewrite-all', 'true'))`)
	if !strings.HasPrefix(got[0], "4|4|") || !strings.HasSuffix(got[0], "|0") {
		t.Fatalf("result %v, want 4 files rewritten into 4, none failed", got)
	}
	if specs := testutil.Rows(t, s, "SELECT spec_id FROM db.events.files"); !slices.Equal(specs, []string{"1", "1", "1", "1"}) {
		t.Fatalf("spec ids after rewrite: %v", specs)
	}
	if after := testutil.Rows(t, s, "SELECT * FROM db.events"); !slices.Equal(after, before) {
		t.Fatalf("rows changed:\n%v\n%v", after, before)
	}
	// A spec 0 manifest may still be listed, recording the removals, but
	// it has no live file.
	plan := testutil.Explain(t, s, "SELECT count(*) FROM db.events WHERE ts >= '2026-01-02' AND ts < '2026-01-03'")
	spec0 := strings.Contains(plan, "spec 0") && !strings.Contains(plan, "spec 0 (unpartitioned): none; manifests 1/1, files 0/0")
	if spec0 || !strings.Contains(plan, "data files 1/4") {
		t.Fatalf("EXPLAIN after rewrite should read one file of spec 1 and none of spec 0:\n%s", plan)
	}
	if got := testutil.IcebergGoRows(t, dir, "db", "events"); !slices.Equal(got, before) {
		t.Fatalf("iceberg-go reads other rows than lakesql: %s", testutil.DiffRows(got, before))
	}
}

// An INSERT committed while the rewrite runs is kept, not duplicated.
func TestRewriteDataFilesKeepsConcurrentInsert(t *testing.T) {
	s, dir := openRewriteTable(t, 3)
	other := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	inserted := false
	procedures.BeforeRewriteCommit = func() {
		if !inserted {
			inserted = true
			testutil.Exec(t, other, "INSERT INTO db.events VALUES (100, '2026-02-01 00:00:00', 'late')")
		}
	}
	defer func() { procedures.BeforeRewriteCommit = nil }()
	want := append(testutil.Rows(t, s, "SELECT * FROM db.events"), "100|2026-02-01 00:00:00|late")
	slices.Sort(want)
	got := testutil.Rows(t, s, "CALL system.rewrite_data_files(table => 'db.events', options => map('rewrite-all', 'true'))")
	if !strings.HasPrefix(got[0], "3|1|") {
		t.Fatalf("result %v", got)
	}
	if rows := testutil.Rows(t, s, "SELECT * FROM db.events"); !slices.Equal(rows, want) {
		t.Fatalf("rows\n%v\nwant\n%v", rows, want)
	}
	if n := len(testutil.Rows(t, s, "SELECT spec_id FROM db.events.files")); n != 2 {
		t.Fatalf("%d files, want the rewritten one and the inserted one", n)
	}
}

// A file removed while the rewrite runs fails it cleanly: the table is as
// the concurrent commit left it, and the rewrite's new file is removed.
func TestRewriteDataFilesConflictLeavesTableUnchanged(t *testing.T) {
	s, dir := openRewriteTable(t, 3)
	other := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	var want, files []string
	procedures.BeforeRewriteCommit = func() {
		if want == nil {
			testutil.Exec(t, other, "DELETE FROM db.events WHERE id = 3")
			want = testutil.Rows(t, other, "SELECT * FROM db.events")
			files = testutil.FilesBelow(t, filepath.Join(dir, "db", "events", "data"))
		}
	}
	defer func() { procedures.BeforeRewriteCommit = nil }()
	testutil.WantError(t, s, "CALL system.rewrite_data_files(table => 'db.events', options => map('rewrite-all', 'true'))",
		"concurrent commit removed 1 of the files this statement changes")
	if rows := testutil.Rows(t, s, "SELECT * FROM db.events"); !slices.Equal(rows, want) {
		t.Fatalf("rows\n%v\nwant\n%v", rows, want)
	}
	left := testutil.FilesBelow(t, filepath.Join(dir, "db", "events", "data"))
	if len(left) != len(files)-1 || slices.ContainsFunc(left, func(f string) bool { return !slices.Contains(files, f) }) {
		t.Fatalf("data files after the failed rewrite\n%v\nwant those before its commit but its output\n%v", left, files)
	}
}

// An expire_snapshots that removes the snapshot a rewrite read, and deletes
// its manifest list, while the rewrite runs does not fail the rewrite: the
// rewrite has the manifest list in memory from its planning, and its
// commit checks for conflicts and commits on the table as the expiry left
// it.
func TestRewriteDataFilesSurvivesConcurrentExpire(t *testing.T) {
	s, dir := openRewriteTable(t, 3)
	other := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	read := testutil.Rows(t, s, "SELECT manifest_list FROM db.events.snapshots ORDER BY committed_at DESC LIMIT 1")
	expired := false
	procedures.BeforeRewriteCommit = func() {
		if !expired {
			expired = true
			testutil.Exec(t, other, "INSERT INTO db.events VALUES (100, '2026-02-01 00:00:00', 'late')",
				"CALL system.expire_snapshots(table => 'db.events', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
		}
	}
	defer func() { procedures.BeforeRewriteCommit = nil }()
	want := append(testutil.Rows(t, s, "SELECT * FROM db.events"), "100|2026-02-01 00:00:00|late")
	slices.Sort(want)
	got := testutil.Rows(t, s, "CALL system.rewrite_data_files(table => 'db.events', options => map('rewrite-all', 'true'))")
	if _, err := os.Stat(storage.LocalPath(read[0])); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the expiry left the rewrite's manifest list %s (%v): the test tests nothing", read[0], err)
	}
	if !strings.HasPrefix(got[0], "3|1|") {
		t.Fatalf("result %v", got)
	}
	if rows := testutil.Rows(t, s, "SELECT * FROM db.events"); !slices.Equal(rows, want) {
		t.Fatalf("rows\n%v\nwant\n%v", rows, want)
	}
}
