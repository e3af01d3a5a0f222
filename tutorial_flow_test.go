package lakesql

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/lakesql/lakesql/internal/demo"
)

// icebergGoView is what iceberg-go's own catalog and scanner see of a table.
type icebergGoView struct {
	rows      []string // sorted, as tableRows renders them
	specs     int      // partition specs in the metadata
	fileSpecs []int32  // spec ids of the planned data files, sorted, distinct
	snapshot  int64    // current snapshot id
}

// readWithIcebergGo loads ns.name through a fresh iceberg-go Hadoop catalog
// on dir and scans it, at snapshotID when it is not 0.
func readWithIcebergGo(t *testing.T, dir, ns, name string, snapshotID int64) icebergGoView {
	t.Helper()
	ctx := context.Background()
	cat, err := hadoop.NewCatalog("other", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, table.Identifier{ns, name})
	if err != nil {
		t.Fatalf("iceberg-go LoadTable %s.%s: %v", ns, name, err)
	}
	var opts []table.ScanOption
	if snapshotID != 0 {
		opts = append(opts, table.WithSnapshotID(snapshotID))
	}
	view := icebergGoView{specs: len(tbl.Metadata().PartitionSpecs())}
	if snap := tbl.CurrentSnapshot(); snap != nil {
		view.snapshot = snap.SnapshotID
	}
	tasks, err := tbl.Scan(opts...).PlanFiles(ctx)
	if err != nil {
		t.Fatalf("iceberg-go PlanFiles %s.%s (snapshot %d): %v", ns, name, snapshotID, err)
	}
	for _, task := range tasks {
		if id := task.File.SpecID(); !slices.Contains(view.fileSpecs, id) {
			view.fileSpecs = append(view.fileSpecs, id)
		}
	}
	slices.Sort(view.fileSpecs)
	arrowTable, err := tbl.Scan(opts...).ToArrowTable(ctx)
	if err != nil {
		t.Fatalf("iceberg-go scan %s.%s (snapshot %d): %v", ns, name, snapshotID, err)
	}
	defer arrowTable.Release()
	view.rows = tableRows(arrowTable)
	return view
}

// diffRows describes how two sorted row lists differ, briefly.
func diffRows(got, want []string) string {
	var missing, extra []string
	i, j := 0, 0
	for i < len(got) || j < len(want) {
		switch {
		case j == len(want) || i < len(got) && got[i] < want[j]:
			extra = append(extra, got[i])
			i++
		case i == len(got) || want[j] < got[i]:
			missing = append(missing, want[j])
			j++
		default:
			i++
			j++
		}
	}
	head := func(rows []string) string {
		if len(rows) > 5 {
			return strings.Join(rows[:5], "\n  ") + fmt.Sprintf("\n  … and %d more", len(rows)-5)
		}
		return strings.Join(rows, "\n  ")
	}
	return fmt.Sprintf("%d rows vs %d wanted; %d missing:\n  %s\n%d unexpected:\n  %s",
		len(got), len(want), len(missing), head(missing), len(extra), head(extra))
}

// The seed tutorial's flow on demo data: after each step iceberg-go's own
// catalog and scanner load the table and read the rows lakesql reads, with
// the partition specs and per-file spec ids the step should leave; the
// snapshot before the rewrite still reads the same rows, in both engines.
func TestTutorialFlowStaysReadableByIceberg(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := demo.Build(ctx, demo.Options{Warehouse: dir, Days: 7, EventsPerDay: 500}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, Options{Warehouse: dir, Catalog: "oleander"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	const events = "oleander." + demo.Namespace + "." + demo.EventsTable

	// check compares both engines after a step and returns the rows and
	// the current snapshot id.
	check := func(step string, wantSpecs int, wantFileSpecs []int32) ([]string, int64) {
		t.Helper()
		rows := queryRows(t, s, "SELECT * FROM "+events)
		view := readWithIcebergGo(t, dir, demo.Namespace, demo.EventsTable, 0)
		if !slices.Equal(view.rows, rows) {
			t.Fatalf("%s: iceberg-go reads other rows than lakesql: %s", step, diffRows(view.rows, rows))
		}
		if view.specs != wantSpecs {
			t.Fatalf("%s: iceberg-go sees %d partition specs, want %d", step, view.specs, wantSpecs)
		}
		if !slices.Equal(view.fileSpecs, wantFileSpecs) {
			t.Fatalf("%s: iceberg-go plans files of specs %v, want %v", step, view.fileSpecs, wantFileSpecs)
		}
		// lakesql's files metadata table agrees on the spec ids.
		var lakesqlSpecs []int32
		for _, r := range queryRows(t, s, "SELECT DISTINCT spec_id FROM "+events+".files") {
			id, err := strconv.ParseInt(r, 10, 32)
			if err != nil {
				t.Fatalf("%s: spec_id %q: %v", step, r, err)
			}
			lakesqlSpecs = append(lakesqlSpecs, int32(id))
		}
		slices.Sort(lakesqlSpecs)
		if !slices.Equal(lakesqlSpecs, wantFileSpecs) {
			t.Fatalf("%s: lakesql's files table lists specs %v, want %v", step, lakesqlSpecs, wantFileSpecs)
		}
		// And on the current snapshot: the last one committed.
		snaps := queryRowsInOrder(t, s, "SELECT snapshot_id FROM "+events+".snapshots ORDER BY committed_at")
		if last := snaps[len(snaps)-1]; last != strconv.FormatInt(view.snapshot, 10) {
			t.Fatalf("%s: lakesql's last snapshot is %s, iceberg-go's current one %d", step, last, view.snapshot)
		}
		return rows, view.snapshot
	}

	initial, initialSnap := check("initial demo", 1, []int32{0})
	if len(initial) != 7*500 {
		t.Fatalf("demo has %d events, want %d", len(initial), 7*500)
	}

	mustExec(t, s, "SET spark.sql.session.timeZone = UTC", `ALTER TABLE `+events+`
		ADD PARTITION FIELD day(event_time)`)
	altered, _ := check("after ADD PARTITION FIELD day(event_time)", 2, []int32{0})
	if !slices.Equal(altered, initial) {
		t.Fatalf("ADD PARTITION FIELD changed the rows: %s", diffRows(altered, initial))
	}

	mustExec(t, s, `INSERT INTO `+events+` VALUES
		(900001, TIMESTAMP '2026-01-08 09:15:00', 'S20260108-000001', 42, 'page_view', NULL, NULL, NULL, NULL, 'mobile', 'DE'),
		(900002, TIMESTAMP '2026-01-08 09:16:30', 'S20260108-000001', 42, 'product_view', 'P00042', 'Kitchen', 19.99, NULL, 'mobile', 'DE'),
		(900003, TIMESTAMP '2026-01-01 23:59:59', 'S20260101-999999', 7, 'search', NULL, NULL, NULL, NULL, 'desktop', 'US')`)
	beforeRewrite, beforeRewriteSnap := check("after INSERT under day(event_time)", 2, []int32{0, 1})
	if len(beforeRewrite) != len(initial)+3 {
		t.Fatalf("after the INSERT: %d rows, want %d", len(beforeRewrite), len(initial)+3)
	}
	for _, id := range []string{"900001|", "900002|", "900003|"} {
		if !slices.ContainsFunc(beforeRewrite, func(r string) bool { return strings.HasPrefix(r, id) }) {
			t.Fatalf("inserted event %s missing", strings.TrimSuffix(id, "|"))
		}
	}

	got := queryRows(t, s, `CALL oleander.system.rewrite_data_files(
		table => 'tutorial.retail_clickstream_events',
		options => map('rewrite-all', 'true'))`)
	if len(got) != 1 || !strings.HasSuffix(got[0], "|0") {
		t.Fatalf("rewrite_data_files result %v, want one row with no failed files", got)
	}
	afterRewrite, afterRewriteSnap := check("after rewrite_data_files rewrite-all", 2, []int32{1})
	if !slices.Equal(afterRewrite, beforeRewrite) {
		t.Fatalf("rewrite_data_files changed the rows: %s", diffRows(afterRewrite, beforeRewrite))
	}
	if afterRewriteSnap == beforeRewriteSnap {
		t.Fatalf("rewrite_data_files committed no snapshot")
	}
	ops := queryRowsInOrder(t, s, "SELECT operation FROM "+events+".snapshots ORDER BY committed_at")
	if !slices.Equal(ops, []string{"append", "append", "replace"}) {
		t.Fatalf("snapshot operations %v, want append (demo), append (INSERT), replace (rewrite)", ops)
	}

	// Time travel to the snapshots before the rewrite, in both engines.
	for _, tt := range []struct {
		name  string
		snap  int64
		rows  []string
		specs []int32
	}{
		{"pre-rewrite snapshot", beforeRewriteSnap, beforeRewrite, []int32{0, 1}},
		{"initial snapshot", initialSnap, initial, []int32{0}},
	} {
		for _, clause := range []string{"FOR SYSTEM_VERSION AS OF %d", "VERSION AS OF %d"} {
			q := "SELECT * FROM " + events + " " + fmt.Sprintf(clause, tt.snap)
			if rows := queryRows(t, s, q); !slices.Equal(rows, tt.rows) {
				t.Fatalf("lakesql %s (%s): %s", tt.name, q, diffRows(rows, tt.rows))
			}
		}
		view := readWithIcebergGo(t, dir, demo.Namespace, demo.EventsTable, tt.snap)
		if !slices.Equal(view.rows, tt.rows) {
			t.Fatalf("iceberg-go scan at the %s %d: %s", tt.name, tt.snap, diffRows(view.rows, tt.rows))
		}
		if !slices.Equal(view.fileSpecs, tt.specs) {
			t.Fatalf("iceberg-go plans files of specs %v at the %s, want %v", view.fileSpecs, tt.name, tt.specs)
		}
	}
}
