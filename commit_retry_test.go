package lakesql_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/dml"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// A commit that removes files read from a snapshot another writer has
// since appended to is retried on top: the appended rows stay, as if the
// statement had committed first.
func TestReplaceRetriesOnTopOfConcurrentAppend(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	stale := testutil.Table(t, s, "db", "t")
	files, err := storage.PlanScan(context.Background(), s.Warehouse().FS(), storage.ScanRequest{Metadata: stale.Metadata(), Snapshot: stale.CurrentSnapshot(), Schema: stale.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (2)")
	if err := dml.CommitReplace(context.Background(), nil, stale, files.Files, nil); err != nil {
		t.Fatalf("replace on a snapshot another writer appended to: %v", err)
	}
	testutil.WantRows(t, s, "SELECT id FROM db.t", "2")
}

// A commit whose files a concurrent commit removed is not retried: it fails
// in one line and the table is as the other writer left it.
func TestReplaceConflictsWithConcurrentDelete(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1), (2)")
	stale := testutil.Table(t, s, "db", "t")
	files, err := storage.PlanScan(context.Background(), s.Warehouse().FS(), storage.ScanRequest{Metadata: stale.Metadata(), Snapshot: stale.CurrentSnapshot(), Schema: stale.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s, "DELETE FROM db.t WHERE id = 1")
	err = dml.CommitReplace(context.Background(), nil, stale, files.Files, nil)
	if err == nil || !strings.Contains(err.Error(), "commit to db.t failed: a concurrent commit removed 1 of the files this statement changes") ||
		strings.Contains(err.Error(), "\n") {
		t.Fatalf("replace of files a concurrent DELETE removed: got %v", err)
	}
	testutil.WantRows(t, s, "SELECT id FROM db.t", "2")
}

// A commit retried after a concurrent INSERT checks for conflicts against
// the snapshot it read, whose manifest list a concurrent expire_snapshots
// has deleted by then: the cache the statement planned through still holds
// the list, and the commit goes on top of the INSERT.
func TestReplaceRetriesAfterConcurrentExpire(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	stale := testutil.Table(t, s, "db", "t")
	cache := storage.NewManifestCache(1000)
	files, err := storage.PlanScan(context.Background(), s.Warehouse().FS(),
		storage.ScanRequest{Metadata: stale.Metadata(), Snapshot: stale.CurrentSnapshot(), Schema: stale.Schema(), Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (2)",
		"CALL system.expire_snapshots(table => 'db.t', older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
	if _, err := os.Stat(storage.LocalPath(stale.CurrentSnapshot().ManifestList)); !os.IsNotExist(err) {
		t.Fatalf("the expiry left the manifest list the commit read (%v): the test tests nothing", err)
	}
	if err := dml.CommitReplace(context.Background(), cache, stale, files.Files, nil); err != nil {
		t.Fatalf("replace on a snapshot expired since: %v", err)
	}
	testutil.WantRows(t, s, "SELECT id FROM db.t", "2")
}

// claimNextVersion creates the claim of table db.t's next metadata version,
// as a live writer that has not published yet holds it.
func claimNextVersion(t *testing.T, dir string) string {
	t.Helper()
	meta := filepath.Join(dir, "db", "t", "metadata")
	versions, err := filepath.Glob(filepath.Join(meta, "v*.metadata.json"))
	if err != nil || len(versions) == 0 {
		t.Fatalf("no metadata versions in %s (%v)", meta, err)
	}
	claim := filepath.Join(meta, fmt.Sprintf("v%d.metadata.json.claim", len(versions)+1))
	if err := os.WriteFile(claim, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	return claim
}

// Every write that cannot commit within commit_retry_timeout fails with
// one lakesql line and leaves no file behind: neither its data files nor
// the manifests of its attempts.
func TestCommitLostAfterRetryTimeout(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT, g INT) PARTITIONED BY (g)",
		"INSERT INTO db.t VALUES (1, 1), (2, 2)", "SET commit_retry_timeout = '300ms'")
	if rows := testutil.Rows(t, s, "SET commit_retry_timeout"); len(rows) != 1 || !strings.HasPrefix(rows[0], "commit_retry_timeout|300ms|") {
		t.Fatalf("SET commit_retry_timeout shows %q", rows)
	}
	before := testutil.FilesBelow(t, filepath.Join(dir, "db", "t"))
	claim := claimNextVersion(t, dir)
	for _, stmt := range []string{
		"INSERT INTO db.t VALUES (3, 3)",
		"INSERT OVERWRITE db.t VALUES (4, 1)",
		"DELETE FROM db.t WHERE id = 1",
		"UPDATE db.t SET id = 5 WHERE id = 2",
		"MERGE INTO db.t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN DELETE",
		"ALTER TABLE db.t ADD COLUMN c INT",
		"CALL system.rewrite_data_files(table => 'db.t', options => map('rewrite-all', 'true'))",
	} {
		start := time.Now()
		msg := testutil.Error(t, s, stmt)
		if !strings.HasPrefix(msg, "commit to db.t lost to a concurrent writer after ") || !strings.Contains(msg, "nothing was written") ||
			strings.Contains(msg, "\n") || rawLibraryError.MatchString(msg) {
			t.Errorf("%s: got %q, want one line saying the commit lost", stmt, msg)
		}
		if took := time.Since(start); took > 4*time.Second {
			t.Errorf("%s gave up after %s under a 300ms commit_retry_timeout", stmt, took)
		}
	}
	after := testutil.FilesBelow(t, filepath.Join(dir, "db", "t"))
	if left := slices.DeleteFunc(after, func(f string) bool { return slices.Contains(before, f) || strings.HasSuffix(f, ".claim") }); len(left) > 0 {
		t.Errorf("failed commits left files behind: %v", left)
	}
	if err := os.Remove(claim); err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s, "RESET commit_retry_timeout")
	if rows := testutil.Rows(t, s, "SET commit_retry_timeout"); len(rows) != 1 || !strings.HasPrefix(rows[0], "commit_retry_timeout|30s|") {
		t.Fatalf("after RESET, SET commit_retry_timeout shows %q", rows)
	}
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (3, 3)")
	testutil.WantRows(t, s, "SELECT id FROM db.t", "1", "2", "3")
}

// Concurrent UPDATEs of different partitions and INSERTs into one table,
// from sessions of their own, all commit: an UPDATE that loses a race is
// re-validated (no other writer touched its files) and retried on top, so
// no update and no inserted row is lost.
func TestConcurrentUpdatesOfDisjointPartitionsAllCommit(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (g INT, n INT) PARTITIONED BY (g)",
		"INSERT INTO db.t VALUES (0, 0), (1, 0), (2, 0), (3, 0)")
	const updaters, updates, inserts = 4, 5, 5
	errs := make(chan error, updaters*updates+inserts)
	var wg sync.WaitGroup
	for w := range updaters + 1 {
		other := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
		wg.Go(func() {
			for i := range updates {
				stmt := fmt.Sprintf("UPDATE db.t SET n = n + 1 WHERE g = %d", w)
				if w == updaters {
					stmt = fmt.Sprintf("INSERT INTO db.t VALUES (%d, %d)", 100+i, i)
				}
				if _, err := testutil.Try(other, stmt); err != nil {
					errs <- fmt.Errorf("%s: %w", stmt, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	testutil.WantRows(t, s, "SELECT g, n FROM db.t", "0|5", "1|5", "100|0", "101|1", "102|2", "103|3", "104|4", "2|5", "3|5")
}
