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

// snapshotIDs renders the ids of the snapshots as testutil.Rows prints them, sorted.
func snapshotIDs(t *testing.T, s *lakesql.Session) []string {
	t.Helper()
	tbl := testutil.Table(t, s, "db", "t")
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
		"SELECT partition, record_count, file_count FROM db.t.partitions":  {"{'ts_day': 2026-01-15}|1|1", "{'ts_day': 2026-01-16}|2|2"},
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

// TestShowPartitions checks the column names of SHOW PARTITIONS, which a
// golden script does not print; its rows are in ddl/metadata_tables.test.
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
	if want := []string{"ts_day", "spec_id", "record_count", "file_count", "avg_file_size_in_bytes", "small_files"}; !slices.Equal(names, want) {
		t.Errorf("SHOW PARTITIONS columns = %v, want %v", names, want)
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
	wantCells := map[int]string{0: "iceberg", 2: "lakesql.db.t", 5: "[ts_day]", 6: "3", 7: "3", 10: "2", 11: fmt.Sprint(snaps[2].SnapshotID),
		// Two partitions; the two tiny files of 2026-01-16 are small files.
		12: "2", 14: "1"}
	for i, w := range wantCells {
		if cells[i] != w {
			t.Errorf("DESCRIBE DETAIL column %d = %q, want %q (row %s)", i, cells[i], w, detail[0])
		}
	}
}
