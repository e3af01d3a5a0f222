package lakesql_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// snapshotIDs renders the ids of the snapshots as queryRows prints them, sorted.
func snapshotIDs(t *testing.T, s *lakesql.Session) []string {
	t.Helper()
	tbl, err := s.Warehouse().LoadTable(context.Background(), "db", "t")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, snap := range tbl.Metadata().Snapshots() {
		ids = append(ids, fmt.Sprint(snap.SnapshotID))
	}
	slices.Sort(ids)
	return ids
}

func TestMetadataTablesDescribeTheSnapshots(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	ids := snapshotIDs(t, s)
	current := fmt.Sprint(snaps[2].SnapshotID)
	for q, want := range map[string][]string{
		"SELECT snapshot_id FROM db.t.snapshots":                           ids,
		"SELECT snapshot_id FROM lakesql.db.t.snapshots":                   ids,
		"SELECT DISTINCT operation FROM db.t.snapshots":                    {"append"},
		"SELECT count(*) FROM db.t.snapshots WHERE parent_id IS NULL":      {"1"},
		"SELECT snapshot_id FROM db.t.history":                             ids,
		"SELECT count(*) FROM db.t.history WHERE is_current_ancestor":      {"3"},
		"SELECT count(*), sum(record_count) FROM db.t.files":               {"3|3"},
		"SELECT DISTINCT file_format, spec_id, content FROM db.t.files":    {"PARQUET|0|0"},
		"SELECT partition, record_count, file_count FROM db.t.partitions":  {"{ts_day=2026-01-15}|1|1", "{ts_day=2026-01-16}|2|2"},
		"SELECT count(*), sum(added_data_files_count) FROM db.t.manifests": {"3|3"},
		"SELECT name, type, snapshot_id FROM db.t.refs":                    {"main|BRANCH|" + current},
		// A metadata table is a relation like any other: aliases, joins.
		"SELECT h.snapshot_id FROM db.t.history h JOIN db.t.snapshots s ON h.parent_id = s.snapshot_id WHERE s.parent_id IS NULL": {fmt.Sprint(snaps[1].SnapshotID)},
		"SELECT snapshots.operation FROM db.t.snapshots WHERE snapshot_id = " + current:                                           {"append"},
	} {
		if got := testutil.Rows(t, s, q); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", q, got, want)
		}
	}
	var inOrder []string
	for _, snap := range snaps {
		inOrder = append(inOrder, fmt.Sprint(snap.SnapshotID))
	}
	if got := testutil.RowsInOrder(t, s, "SELECT snapshot_id FROM db.t.snapshots ORDER BY committed_at"); !slices.Equal(got, inOrder) {
		t.Errorf("snapshots by commit time = %v, want %v", got, inOrder)
	}
}

func TestMetadataTablesRenderNestedValuesAsText(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	threeAppends(t, s)
	for q, want := range map[string]string{
		"SELECT summary FROM db.t.snapshots WHERE parent_id IS NULL":                                   "added-data-files=1, added-files-size=",
		"SELECT lower_bounds FROM db.t.files WHERE record_count = 1 AND file_path LIKE '%2026-01-15%'": "{1=1, 2=2026-01-15 10:00:00.000000}",
		"SELECT null_value_counts FROM db.t.files WHERE file_path LIKE '%2026-01-15%'":                 "{1=0, 2=0}",
		"SELECT partition_summaries FROM db.t.manifests WHERE added_data_files_count = 1 LIMIT 1":      "[{contains_null=false, contains_nan=false, lower_bound=2026-01-",
	} {
		got := testutil.Rows(t, s, q)
		if len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("%s = %v, want one row containing %q", q, got, want)
		}
	}
}

func TestMetadataTablesOfATableWithoutSnapshots(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT)")
	for _, meta := range []string{"snapshots", "history", "files", "partitions", "manifests", "refs"} {
		q := "SELECT count(*) FROM db.t." + meta
		if got := testutil.Rows(t, s, q); !slices.Equal(got, []string{"0"}) {
			t.Errorf("%s = %v, want 0", q, got)
		}
	}
}

func TestMetadataTableNames(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	threeAppends(t, s)
	// Three parts starting with the catalog name are catalog.ns.table.
	if got := testutil.Rows(t, s, "SELECT count(*) FROM lakesql.db.t"); !slices.Equal(got, []string{"3"}) {
		t.Errorf("lakesql.db.t counts %v rows, want 3", got)
	}
	for q, want := range map[string]string{
		"SELECT * FROM db.t.foo":          "unknown metadata table t.foo (known: snapshots, history, files, partitions, manifests, refs)",
		"SELECT * FROM lakesql.db.t.foo":  "unknown metadata table t.foo (known: snapshots, history, files, partitions, manifests, refs)",
		"SELECT * FROM other.db.t":        "unknown catalog other",
		"SELECT * FROM other.db.t.files":  "unknown catalog other",
		"SELECT * FROM db.nope.snapshots": "table db.nope does not exist",
	} {
		_, err := s.Exec(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want %q", q, err, want)
		}
	}
}

func TestShowPartitions(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	threeAppends(t, s)
	res, err := s.Exec(context.Background(), "SHOW PARTITIONS db.t")
	if err != nil {
		t.Fatal(err)
	}
	res.Close()
	var names []string
	for _, f := range res.Schema.Fields() {
		names = append(names, f.Name)
	}
	if want := []string{"ts_day", "spec_id", "record_count", "file_count"}; !slices.Equal(names, want) {
		t.Errorf("SHOW PARTITIONS columns = %v, want %v", names, want)
	}
	if got, want := testutil.Rows(t, s, "SHOW PARTITIONS db.t"), []string{"2026-01-15|0|1|1", "2026-01-16|0|2|2"}; !slices.Equal(got, want) {
		t.Errorf("SHOW PARTITIONS = %v, want %v", got, want)
	}
	testutil.Exec(t, s, "CREATE TABLE db.flat (id BIGINT)")
	if _, err := s.Exec(context.Background(), "SHOW PARTITIONS db.flat"); err == nil || err.Error() != "table db.flat is not partitioned" {
		t.Errorf("SHOW PARTITIONS of an unpartitioned table: got error %v", err)
	}
}

func TestDescribeHistoryAndDetail(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	snaps := threeAppends(t, s)
	// Newest first, as Delta prints it.
	var want []string
	for _, snap := range slices.Backward(snaps) {
		parent := "NULL"
		if snap.ParentSnapshotID != nil {
			parent = fmt.Sprint(*snap.ParentSnapshotID)
		}
		want = append(want, fmt.Sprintf("%d|%d|%s|append", snap.SequenceNumber, snap.SnapshotID, parent))
	}
	var got []string
	for _, row := range testutil.RowsInOrder(t, s, "DESCRIBE HISTORY db.t") {
		cells := strings.Split(row, "|")
		got = append(got, strings.Join([]string{cells[0], cells[2], cells[3], cells[4]}, "|"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("DESCRIBE HISTORY = %v, want %v", got, want)
	}
	detail := testutil.Rows(t, s, "DESCRIBE DETAIL db.t")
	if len(detail) != 1 {
		t.Fatalf("DESCRIBE DETAIL has %d rows, want 1", len(detail))
	}
	cells := strings.Split(detail[0], "|")
	wantCells := map[int]string{0: "iceberg", 2: "lakesql.db.t", 5: "[ts_day]", 6: "3", 7: "3", 10: "2", 11: fmt.Sprint(snaps[2].SnapshotID)}
	for i, w := range wantCells {
		if cells[i] != w {
			t.Errorf("DESCRIBE DETAIL column %d = %q, want %q (row %s)", i, cells[i], w, detail[0])
		}
	}
}
