package lakesql_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// tableFolder is db.t's folder in the session's warehouse.
func tableFolder(s *lakesql.Session) string { return filepath.Join(s.Warehouse().Dir(), "db", "t") }

// ageFiles sets the modification time of every file of db.t to a week ago,
// so that only references, not age, keep them from orphan removal.
func ageFiles(t *testing.T, s *lakesql.Session) {
	t.Helper()
	old := time.Now().Add(-7 * 24 * time.Hour)
	for _, f := range testutil.FilesBelow(t, tableFolder(s)) {
		p := filepath.Join(tableFolder(s), f)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// writeStray writes a file no metadata references under db.t, modified age ago.
func writeStray(t *testing.T, s *lakesql.Session, rel string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(tableFolder(s), rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Add(-age)
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
	return p
}

// future is a TIMESTAMP literal an hour from now, so that every snapshot is
// older than it.
func anHourFromNow() string {
	return "TIMESTAMP '" + time.Now().Add(time.Hour).UTC().Format("2006-01-02 15:04:05") + "'"
}

func TestExpireSnapshotsDeletesOnlyUnreferencedFiles(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, p VARCHAR) PARTITIONED BY (p)")
	snaps := commitEach(t, s,
		"INSERT INTO db.t VALUES (1, 'a'), (2, 'b')",
		"INSERT INTO db.t VALUES (3, 'a')",
		"DELETE FROM db.t WHERE id = 1", // rewrites partition a's first file
		"INSERT INTO db.t VALUES (4, 'c')",
	)
	want := testutil.Rows(t, s, "SELECT * FROM db.t ORDER BY id")
	before := testutil.FilesBelow(t, tableFolder(s))

	got := testutil.Rows(t, s, "CALL system.expire_snapshots(table => 'db.t', older_than => "+anHourFromNow()+", retain_last => 2)")
	// Two snapshots go: the first append's data file (rewritten by the
	// DELETE) and manifest, and two manifest lists. The second append's
	// manifest and file live on in the DELETE's snapshot.
	if wantCounts := []string{"1|0|0|1|2|0"}; !slices.Equal(got, wantCounts) {
		t.Fatalf("expire_snapshots = %v, want %v", got, wantCounts)
	}
	after := testutil.FilesBelow(t, tableFolder(s))
	deleted := slices.DeleteFunc(slices.Clone(before), func(f string) bool { return slices.Contains(after, f) })
	if len(deleted) != 4 {
		t.Errorf("deleted %v, want 4 files", deleted)
	}
	ids := testutil.Rows(t, s, "SELECT snapshot_id FROM db.t.snapshots")
	wantIDs := []string{fmt.Sprint(snaps[2].SnapshotID), fmt.Sprint(snaps[3].SnapshotID)}
	slices.Sort(ids)
	slices.Sort(wantIDs)
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("snapshots left %v, want %v", ids, wantIDs)
	}
	if got := testutil.Rows(t, s, "SELECT * FROM db.t ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("rows after expiry %v, want %v", got, want)
	}
	// Every remaining snapshot still has all its files.
	if got := testutil.IcebergGo(t, s.Warehouse().Dir(), "db", "t", snaps[2].SnapshotID).Rows; len(got) != 2 {
		t.Errorf("iceberg-go reads %d rows at the retained snapshot, want 2", len(got))
	}
	if got := testutil.IcebergGo(t, s.Warehouse().Dir(), "db", "t", 0).Rows; len(got) != 3 {
		t.Errorf("iceberg-go reads %d rows, want 3", len(got))
	}
	testutil.WantError(t, s, fmt.Sprintf("SELECT * FROM db.t VERSION AS OF %d", snaps[0].SnapshotID),
		fmt.Sprintf("table db.t has no snapshot %d", snaps[0].SnapshotID))

	// Nothing more is old enough by default.
	if got := testutil.Rows(t, s, "CALL system.expire_snapshots('db.t')"); !slices.Equal(got, []string{"0|0|0|0|0|0"}) {
		t.Errorf("second expire_snapshots = %v, want nothing deleted", got)
	}
}

func TestExpireSnapshotsByID(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT)")
	snaps := commitEach(t, s, "INSERT INTO db.t VALUES (1)", "INSERT INTO db.t VALUES (2)", "INSERT INTO db.t VALUES (3)")

	// Young snapshots are kept by age; the ones named go regardless.
	got := testutil.Rows(t, s, fmt.Sprintf("CALL system.expire_snapshots(table => 'db.t', snapshot_ids => array(%d))", snaps[1].SnapshotID))
	// Appends keep every earlier manifest, so only the manifest list goes.
	if !slices.Equal(got, []string{"0|0|0|0|1|0"}) {
		t.Fatalf("expire_snapshots = %v, want one manifest list deleted", got)
	}
	if got := testutil.Rows(t, s, "SELECT count(*) FROM db.t.snapshots"); !slices.Equal(got, []string{"2"}) {
		t.Fatalf("%v snapshots left, want 2", got)
	}
	if got := testutil.Rows(t, s, "SELECT id FROM db.t ORDER BY id"); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("rows %v", got)
	}
	testutil.WantError(t, s, fmt.Sprintf("CALL system.expire_snapshots('db.t', snapshot_ids => array(%d))", snaps[2].SnapshotID),
		fmt.Sprintf("cannot expire snapshot %d of db.t: branch main points at it", snaps[2].SnapshotID))
	testutil.WantError(t, s, "CALL system.expire_snapshots('db.t', snapshot_ids => array(42))", "table db.t has no snapshot 42 (it has 2;")
	testutil.WantError(t, s, "CALL system.expire_snapshots('db.t', snapshot_ids => 42)", "argument snapshot_ids must be an array")
	testutil.WantError(t, s, "CALL system.expire_snapshots('db.t', retain_last => 0)", "argument retain_last must be at least 1")
}

func TestRemoveOrphanFiles(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "SET vacuum_retention_check = false")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, p VARCHAR) PARTITIONED BY (p)",
		"INSERT INTO db.t VALUES (1, 'a'), (2, 'b')",
		"DELETE FROM db.t WHERE id = 1")
	ageFiles(t, s)
	oldData := writeStray(t, s, "data/p=a/stray.parquet", 4*24*time.Hour)
	oldMeta := writeStray(t, s, "metadata/stray-m0.avro", 4*24*time.Hour)
	young := writeStray(t, s, "data/p=b/in-flight.parquet", time.Hour)
	before := testutil.FilesBelow(t, tableFolder(s))
	wantOrphans := []string{oldData, oldMeta}

	got := testutil.Rows(t, s, "CALL system.remove_orphan_files(table => 'db.t', dry_run => true)")
	if !slices.Equal(got, wantOrphans) {
		t.Fatalf("dry run lists %v, want %v", got, wantOrphans)
	}
	if after := testutil.FilesBelow(t, tableFolder(s)); !slices.Equal(after, before) {
		t.Fatalf("dry run deleted files: before %v, after %v", before, after)
	}
	if got := testutil.Rows(t, s, "CALL system.remove_orphan_files('db.t')"); !slices.Equal(got, wantOrphans) {
		t.Fatalf("remove_orphan_files = %v, want %v", got, wantOrphans)
	}
	for _, p := range wantOrphans {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s not deleted: %v", p, err)
		}
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("the young file was deleted: %v", err)
	}
	// With older_than now, the young file goes too.
	now := "TIMESTAMP '" + time.Now().Add(time.Second).UTC().Format("2006-01-02 15:04:05") + "'"
	if got := testutil.Rows(t, s, "CALL system.remove_orphan_files('db.t', "+now+")"); !slices.Equal(got, []string{young}) {
		t.Fatalf("remove_orphan_files(older_than => now) = %v, want %v", got, young)
	}
	if got := testutil.Rows(t, s, "SELECT id FROM db.t"); !slices.Equal(got, []string{"2"}) {
		t.Fatalf("rows %v, want 2", got)
	}
	if got := testutil.IcebergGo(t, s.Warehouse().Dir(), "db", "t", 0).Rows; len(got) != 1 {
		t.Errorf("iceberg-go reads %d rows, want 1", len(got))
	}
	testutil.WantError(t, s, "CALL system.remove_orphan_files('db.t', location => '/tmp')", "location /tmp is not inside the table's location")
}

func TestMaintenanceKeepsFilesOfRegisteredTables(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "SET vacuum_retention_check = false")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT)", "INSERT INTO db.t VALUES (1)")
	tbl := testutil.Table(t, s, "db", "t")
	testutil.Exec(t, s, fmt.Sprintf("CALL system.register_table('db.r', '%s')", tbl.MetadataLocation()))
	ageFiles(t, s)
	before := testutil.FilesBelow(t, tableFolder(s))
	const refused = "table db.r was registered from "
	testutil.WantError(t, s, "CALL system.remove_orphan_files('db.r')", refused)
	testutil.WantError(t, s, "CALL system.expire_snapshots('db.r', "+anHourFromNow()+")", refused)
	testutil.WantError(t, s, "VACUUM db.r RETAIN 0 HOURS", refused)
	if after := testutil.FilesBelow(t, tableFolder(s)); !slices.Equal(after, before) {
		t.Fatalf("files changed: before %v, after %v", before, after)
	}
}

func TestRollbackAndSetCurrentSnapshot(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	id := func(i int) string { return fmt.Sprint(snaps[i].SnapshotID) }
	count := func() string { return testutil.Rows(t, s, "SELECT count(*) FROM db.t")[0] }

	got := testutil.Rows(t, s, "CALL system.rollback_to_snapshot('db.t', "+id(0)+")")
	if want := []string{id(2) + "|" + id(0)}; !slices.Equal(got, want) {
		t.Fatalf("rollback_to_snapshot = %v, want %v", got, want)
	}
	if c := count(); c != "1" {
		t.Fatalf("after rollback: %s rows, want 1", c)
	}
	// The later snapshots are no longer ancestors of the current one.
	testutil.WantError(t, s, "CALL system.rollback_to_snapshot('db.t', "+id(2)+")",
		"snapshot "+id(2)+" is not an ancestor of the current snapshot "+id(0)+" of db.t")
	got = testutil.Rows(t, s, "CALL system.set_current_snapshot(table => 'db.t', snapshot_id => "+id(2)+")")
	if want := []string{id(0) + "|" + id(2)}; !slices.Equal(got, want) {
		t.Fatalf("set_current_snapshot = %v, want %v", got, want)
	}
	if c := count(); c != "3" {
		t.Fatalf("after set_current_snapshot: %s rows, want 3", c)
	}
	// Just after the second commit: back to the second snapshot.
	at := time.UnixMilli(snaps[1].TimestampMs + 1).UTC().Format("2006-01-02 15:04:05.000")
	got = testutil.Rows(t, s, "CALL system.rollback_to_timestamp('db.t', TIMESTAMP '"+at+"')")
	if want := []string{id(2) + "|" + id(1)}; !slices.Equal(got, want) {
		t.Fatalf("rollback_to_timestamp = %v, want %v", got, want)
	}
	if c := count(); c != "2" {
		t.Fatalf("after rollback_to_timestamp: %s rows, want 2", c)
	}
	if got := testutil.IcebergGo(t, s.Warehouse().Dir(), "db", "t", 0).Rows; len(got) != 2 {
		t.Errorf("iceberg-go reads %d rows, want 2", len(got))
	}
	testutil.WantError(t, s, "CALL system.rollback_to_timestamp('db.t', TIMESTAMP '2000-01-01 00:00:00')",
		"no ancestor of the current snapshot of db.t was committed before 2000-01-01 00:00:00")
	testutil.WantError(t, s, "CALL system.set_current_snapshot('db.t', 7)", "table db.t has no snapshot 7 (it has 3;")
	testutil.WantError(t, s, "CALL system.set_current_snapshot('db.t')", "needs exactly one of snapshot_id and ref")
}

func TestVacuum(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "SET vacuum_retention_check = false")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, p VARCHAR) PARTITIONED BY (p)")
	commitEach(t, s,
		"INSERT INTO db.t VALUES (1, 'a'), (2, 'b')",
		"DELETE FROM db.t WHERE id = 1",
		"INSERT INTO db.t VALUES (3, 'a')")
	ageFiles(t, s)
	stray := writeStray(t, s, "data/stray.parquet", 10*24*time.Hour)

	// The default retention, a week, keeps every snapshot: they are young.
	if got := testutil.Rows(t, s, "VACUUM db.t"); !slices.Equal(got, []string{"0|0|0|0|0|0|1"}) {
		t.Fatalf("VACUUM = %v, want only the stray file deleted", got)
	}
	before := testutil.FilesBelow(t, tableFolder(s))
	preview := testutil.Rows(t, s, "VACUUM db.t RETAIN 0 HOURS DRY RUN")
	var kinds []string
	for _, row := range preview {
		kinds = append(kinds, row[strings.LastIndex(row, "|")+1:])
	}
	slices.Sort(kinds)
	// Partition a's first file, rewritten by the DELETE, its manifest, and
	// the two expired snapshots' manifest lists.
	if want := []string{"data", "manifest", "manifest list", "manifest list"}; !slices.Equal(kinds, want) {
		t.Fatalf("VACUUM DRY RUN lists %v, want kinds %v", preview, want)
	}
	if after := testutil.FilesBelow(t, tableFolder(s)); !slices.Equal(after, before) {
		t.Fatalf("DRY RUN deleted files")
	}
	if got := testutil.Rows(t, s, "VACUUM db.t RETAIN 0 HOURS"); !slices.Equal(got, []string{"2|1|0|1|2|0|0"}) {
		t.Fatalf("VACUUM RETAIN 0 HOURS = %v", got)
	}
	if _, err := os.Stat(stray); !os.IsNotExist(err) {
		t.Errorf("stray file kept: %v", err)
	}
	if got := testutil.Rows(t, s, "SELECT id FROM db.t ORDER BY id"); !slices.Equal(got, []string{"2", "3"}) {
		t.Fatalf("rows %v, want 2 and 3", got)
	}
	if got := testutil.Rows(t, s, "SELECT count(*) FROM db.t.snapshots"); !slices.Equal(got, []string{"1"}) {
		t.Fatalf("%v snapshots left, want 1", got)
	}
	if got := testutil.IcebergGo(t, s.Warehouse().Dir(), "db", "t", 0).Rows; len(got) != 2 {
		t.Errorf("iceberg-go reads %d rows, want 2", len(got))
	}
	testutil.WantError(t, s, "VACUUM db.t RETAIN 2000000 HOURS", "VACUUM RETAIN takes 0 to 1000000 hours, got 2000000")
}
