package lakesql_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// liveEntries describes the live entries of a table's current snapshot, by
// file path: content, snapshot id, data and file sequence numbers,
// partition spec and first row id (format v3). A manifest rewrite must leave all of them as they were.
func liveEntries(t *testing.T, s *lakesql.Session, ns, name string) map[string]string {
	t.Helper()
	ctx := context.Background()
	tbl := testutil.Table(t, s, ns, name)
	fs, err := tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	manifests, err := tbl.CurrentSnapshot().Manifests(fs)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range manifests {
		entries, err := m.FetchEntries(fs, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			df := e.DataFile()
			out[df.FilePath()] = fmt.Sprintf("content %d, snapshot %d, sequence %d, file sequence %s, spec %d, first row id %s",
				df.ContentType(), e.SnapshotID(), e.SequenceNum(), optional(e.FileSequenceNum()), df.SpecID(), optional(df.FirstRowID()))
		}
	}
	return out
}

func optional(n *int64) string {
	if n == nil {
		return "NULL"
	}
	return fmt.Sprint(*n)
}

func sameEntries(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("%d live entries after the rewrite, %d before", len(after), len(before))
	}
	for _, path := range slices.Sorted(maps.Keys(before)) {
		if after[path] != before[path] {
			t.Errorf("%s: %q after the rewrite, %q before", path, after[path], before[path])
		}
	}
}

// rewriteManifests runs CALL system.rewrite_manifests and returns its
// counts: manifests rewritten and added.
func rewriteManifests(t *testing.T, s *lakesql.Session, name string) (rewritten, added string) {
	t.Helper()
	got := testutil.Rows(t, s, "CALL system.rewrite_manifests('"+name+"')")
	rewritten, added, _ = strings.Cut(got[0], "|")
	return rewritten, added
}

// TestRewriteManifestsKeepsDeletesAndTimeTravel: rewrite_manifests on a
// table with position deletes (merge-on-read DELETE) and equality deletes
// (iceberg-go's writer), whose data files sit in 50 manifests of one file
// and two of a later commit: every live entry keeps its snapshot id and
// sequence numbers, so the deletes apply to the same rows; the answers now
// and at the older snapshots are unchanged, and a statement that read the
// table before the rewrite finds no conflict with it.
func TestRewriteManifestsKeepsDeletesAndTimeTravel(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db",
		// 1 byte: every file gets a manifest of its own.
		"CREATE TABLE db.t (id BIGINT, d DATE, v STRING) PARTITIONED BY (d) TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read', 'commit.manifest.target-size-bytes' = '1')",
		"INSERT INTO db.t SELECT id, date_add(DATE '2026-01-01', CAST(id % 50 AS INT)), CAST(id AS STRING) FROM range(500)",
		"ALTER TABLE db.t UNSET TBLPROPERTIES ('commit.manifest.target-size-bytes')",
		"INSERT INTO db.t SELECT id, date_add(DATE '2026-01-01', CAST(id % 50 AS INT)), NULL FROM range(500, 600)",
		"DELETE FROM db.t WHERE id % 7 = 0")
	first := testutil.RowsInOrder(t, s, "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at LIMIT 1")[0]
	commitEqualityDeletes(t, s, []string{"id", "d"}, []string{"id"}, `[{"id": 3, "d": "2026-01-04"}, {"id": 501, "d": "2026-01-02"}, {"id": 999, "d": "2026-01-10"}]`)
	testutil.WantRows(t, s, "SELECT content, count(*) FROM db.t.manifests GROUP BY content", "0|52", "1|2")

	const (
		all    = "SELECT count(*), sum(id), count(v), count(DISTINCT d) FROM db.t"
		oneDay = "SELECT id FROM db.t WHERE d = DATE '2026-02-05' ORDER BY id"
	)
	read := testutil.Table(t, s, "db", "t")
	before := liveEntries(t, s, "db", "t")
	wantAll, wantDay := testutil.Rows(t, s, all), testutil.RowsInOrder(t, s, oneDay)
	beforeID := testutil.Rows(t, s, "SELECT snapshot_id FROM db.t.refs WHERE name = 'main'")[0]
	wantFirst := testutil.Rows(t, s, strings.Replace(all, "db.t", "db.t FOR VERSION AS OF "+first, 1))
	// 600 rows less 86 multiples of 7, and 3 and 501; 500 have a v.
	if wantAll[0] != "512|153611|427|50" {
		t.Fatalf("before the rewrite: %v", wantAll)
	}

	if rewritten, added := rewriteManifests(t, s, "db.t"); rewritten != "52" || added != "4" {
		t.Fatalf("rewrite_manifests: %s rewritten, %s added; want 52 and 4 (100 files: 32, 32, 32, 4)", rewritten, added)
	}
	sameEntries(t, before, liveEntries(t, s, "db", "t"))
	testutil.WantRows(t, s, "SELECT content, count(*) FROM db.t.manifests GROUP BY content", "0|4", "1|2")
	testutil.WantRows(t, s, all, wantAll...)
	if got := testutil.RowsInOrder(t, s, oneDay); !slices.Equal(got, wantDay) {
		t.Errorf("one day after the rewrite: %v, want %v", got, wantDay)
	}
	testutil.WantRows(t, s, strings.Replace(all, "db.t", "db.t FOR VERSION AS OF "+beforeID, 1), wantAll...)
	testutil.WantRows(t, s, strings.Replace(all, "db.t", "db.t FOR VERSION AS OF "+first, 1), wantFirst...)
	testutil.WantContains(t, testutil.Explain(t, s, oneDay), "manifests 1/4")

	// A statement that read the table before the rewrite (a DELETE or a
	// compaction of all its files) commits after it without conflict: the
	// files and their deletes are the same.
	cur := testutil.Table(t, s, "db", "t")
	ctx := context.Background()
	files, err := storage.PlanScan(ctx, s.Warehouse().FS(), storage.ScanRequest{Metadata: read.Metadata(), Snapshot: read.CurrentSnapshot(), Schema: read.Schema()})
	if err != nil {
		t.Fatal(err)
	}
	if err := storage.CheckConflicts(ctx, s.Warehouse().FS(), nil, read, cur, files.Files, false); err != nil {
		t.Errorf("a commit read before rewrite_manifests: %v", err)
	}
	// After the rewrite the table takes writes as before.
	testutil.Exec(t, s, "DELETE FROM db.t WHERE d = DATE '2026-02-05'", "INSERT INTO db.t VALUES (1000, DATE '2026-02-05', 'x')")
	testutil.WantRows(t, s, oneDay, "1000")
}

// TestRewriteManifestsKeepsDeletionVectors: a Trino table (format v3)
// whose deletion vectors point at its data files, in two data manifests:
// they become one, every entry keeps its sequence numbers (and its
// first_row_id, which iceberg-go reads into the entry), and the vectors
// still delete the same rows, now and at the snapshot before Trino's
// second delete.
func TestRewriteManifestsKeepsDeletionVectors(t *testing.T) {
	dir := dmlCopyFixture(t, "deletion_vectors")
	s, _ := testutil.Open(t, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.dv', metadata_file => '"+filepath.Join(dir, "metadata", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json")+"')")
	testutil.WantRows(t, s, "SELECT content, count(*) FROM fx.dv.manifests GROUP BY content", "0|2", "1|2")
	const beforeSecondDelete = "SELECT c1 FROM fx.dv FOR VERSION AS OF 7026943662205930455 ORDER BY c1"
	const now = "SELECT c1 FROM fx.dv ORDER BY c1"
	wantOld, wantNow := testutil.RowsInOrder(t, s, beforeSecondDelete), testutil.RowsInOrder(t, s, now)
	before := liveEntries(t, s, "fx", "dv")
	if rewritten, added := rewriteManifests(t, s, "fx.dv"); rewritten == "0" || added != "1" {
		t.Fatalf("rewrite_manifests: %s rewritten, %s added; want all data manifests into 1", rewritten, added)
	}
	sameEntries(t, before, liveEntries(t, s, "fx", "dv"))
	if got := testutil.RowsInOrder(t, s, now); !slices.Equal(got, wantNow) {
		t.Errorf("after the rewrite: %v, want %v", got, wantNow)
	}
	if got := testutil.RowsInOrder(t, s, beforeSecondDelete); !slices.Equal(got, wantOld) {
		t.Errorf("at the older snapshot after the rewrite: %v, want %v", got, wantOld)
	}
}
