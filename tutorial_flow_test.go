package lakesql_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/internal/demo"
	"github.com/lakesql/lakesql/internal/testutil"
)

// The seed tutorial's flow on demo data: after each step iceberg-go's own
// catalog and scanner load the table and read the rows lakesql reads, with
// the partition specs and per-file spec ids the step should leave; the
// snapshot before the rewrite still reads the same rows, in both engines.
func TestTutorialFlowStaysReadableByIceberg(t *testing.T) {
	tutorialFlow(t, t.TempDir(), "", nil)
}

// The same flow on a warehouse in S3 (versitygw).
func TestTutorialFlowOnObjectStorage(t *testing.T) {
	tutorialFlow(t, testutil.StartS3(t).Location("warehouse"), "", nil)
}

// The same flow with the tables in an SQL catalog on SQLite.
func TestTutorialFlowOnSQLiteCatalog(t *testing.T) {
	dir := t.TempDir()
	tutorialFlow(t, filepath.Join(dir, "warehouse"), "sqlite:"+filepath.Join(dir, "catalog.db"), nil)
}

// The same flow with the tables in an SQL catalog on PostgreSQL.
func TestTutorialFlowOnPostgresCatalog(t *testing.T) {
	tutorialFlow(t, filepath.Join(t.TempDir(), "warehouse"), testutil.Postgres(t), nil)
}

// The same flow on Azure storage (Azurite's blob service), through
// iceberg-go's gocloud Azure I/O configured with the adls.* properties:
// with the warehouse's own (filesystem) catalog, which commits with
// conditional writes there too, and with an SQL catalog on SQLite.
func TestTutorialFlowOnAzure(t *testing.T) {
	az := testutil.StartAzurite(t)
	tutorialFlow(t, az.Location("warehouse"), "", az.Props())
	tutorialFlow(t, az.Location("sqlite-warehouse"), "sqlite:"+filepath.Join(t.TempDir(), "catalog.db"), az.Props())
}

// tutorialFlow runs the flow on the warehouse dir (a folder or an object
// store location) with the catalog of catalogURI ("": the folder's) and
// the catalog properties props (the object store's).
func tutorialFlow(t *testing.T, dir, catalogURI string, props map[string]string) {
	ctx := context.Background()
	if err := demo.Build(ctx, demo.Options{Warehouse: dir, CatalogURI: catalogURI, CatalogProps: props, Catalog: "oleander", Days: 7, EventsPerDay: 500}); err != nil {
		t.Fatal(err)
	}
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir, CatalogURI: catalogURI, CatalogProps: props, Catalog: "oleander"})
	// iceberg-go's own catalog, a second instance beside lakesql's.
	other, err := catalog.OpenConfig(ctx, catalog.Config{Name: "oleander", Warehouse: dir, URI: catalogURI, Props: props})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	if catalogURI != "" && other.Catalog().CatalogType() != icecatalog.SQL {
		t.Fatalf("catalog %s is %s, want sql", catalogURI, other.Catalog().CatalogType())
	}
	icebergGo := func(snapshot int64) testutil.IcebergGoView {
		t.Helper()
		if catalogURI == "" && props == nil {
			return testutil.IcebergGo(t, dir, demo.Namespace, demo.EventsTable, snapshot)
		}
		return testutil.IcebergGoFrom(t, other.Catalog(), demo.Namespace, demo.EventsTable, snapshot)
	}
	const events = "oleander." + demo.Namespace + "." + demo.EventsTable

	// check compares both engines after a step and returns the rows and
	// the current snapshot id.
	check := func(step string, wantSpecs int, wantFileSpecs []int32) ([]string, int64) {
		t.Helper()
		rows := testutil.Rows(t, s, "SELECT * FROM "+events)
		view := icebergGo(0)
		if !slices.Equal(view.Rows, rows) {
			t.Fatalf("%s: iceberg-go reads other rows than lakesql: %s", step, testutil.DiffRows(view.Rows, rows))
		}
		if view.Specs != wantSpecs {
			t.Fatalf("%s: iceberg-go sees %d partition specs, want %d", step, view.Specs, wantSpecs)
		}
		if !slices.Equal(view.FileSpecs, wantFileSpecs) {
			t.Fatalf("%s: iceberg-go plans files of specs %v, want %v", step, view.FileSpecs, wantFileSpecs)
		}
		// lakesql's files metadata table agrees on the spec ids.
		var lakesqlSpecs []int32
		for _, r := range testutil.Rows(t, s, "SELECT DISTINCT spec_id FROM "+events+".files") {
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
		snaps := testutil.RowsInOrder(t, s, "SELECT snapshot_id FROM "+events+".snapshots ORDER BY committed_at")
		if last := snaps[len(snaps)-1]; last != strconv.FormatInt(view.Snapshot, 10) {
			t.Fatalf("%s: lakesql's last snapshot is %s, iceberg-go's current one %d", step, last, view.Snapshot)
		}
		return rows, view.Snapshot
	}

	initial, initialSnap := check("initial demo", 1, []int32{0})
	if len(initial) != 7*500 {
		t.Fatalf("demo has %d events, want %d", len(initial), 7*500)
	}

	testutil.Exec(t, s, "SET spark.sql.session.timeZone = UTC", `ALTER TABLE `+events+`
		ADD PARTITION FIELD day(event_time)`)
	altered, _ := check("after ADD PARTITION FIELD day(event_time)", 2, []int32{0})
	if !slices.Equal(altered, initial) {
		t.Fatalf("ADD PARTITION FIELD changed the rows: %s", testutil.DiffRows(altered, initial))
	}

	testutil.Exec(t, s, `INSERT INTO `+events+` VALUES
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

	replaced := testutil.Rows(t, s, "SELECT file_path FROM "+events+".files")

	got := testutil.Rows(t, s, `CALL oleander.system.rewrite_data_files(
		table => 'tutorial.retail_clickstream_events',
		options => map('rewrite-all', 'true'))`)
	if len(got) != 1 || !strings.HasSuffix(got[0], "|0") {
		t.Fatalf("rewrite_data_files result %v, want one row with no failed files", got)
	}
	afterRewrite, afterRewriteSnap := check("after rewrite_data_files rewrite-all", 2, []int32{1})
	if !slices.Equal(afterRewrite, beforeRewrite) {
		t.Fatalf("rewrite_data_files changed the rows: %s", testutil.DiffRows(afterRewrite, beforeRewrite))
	}
	if afterRewriteSnap == beforeRewriteSnap {
		t.Fatalf("rewrite_data_files committed no snapshot")
	}
	ops := testutil.RowsInOrder(t, s, "SELECT operation FROM "+events+".snapshots ORDER BY committed_at")
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
			if rows := testutil.Rows(t, s, q); !slices.Equal(rows, tt.rows) {
				t.Fatalf("lakesql %s (%s): %s", tt.name, q, testutil.DiffRows(rows, tt.rows))
			}
		}
		view := icebergGo(tt.snap)
		if !slices.Equal(view.Rows, tt.rows) {
			t.Fatalf("iceberg-go scan at the %s %d: %s", tt.name, tt.snap, testutil.DiffRows(view.Rows, tt.rows))
		}
		if !slices.Equal(view.FileSpecs, tt.specs) {
			t.Fatalf("iceberg-go plans files of specs %v at the %s, want %v", view.FileSpecs, tt.name, tt.specs)
		}
	}

	// Expiring every snapshot but the current one deletes the data files
	// the rewrite replaced (and the older manifests and two manifest
	// lists); the rows stay, and the snapshot before the rewrite is gone.
	got = testutil.Rows(t, s, `CALL oleander.system.expire_snapshots(
		table => 'tutorial.retail_clickstream_events', older_than => `+anHourFromNow()+`, retain_last => 1)`)
	if want := fmt.Sprintf("%d|0|0|", len(replaced)); len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.HasSuffix(got[0], "|2|0") {
		t.Fatalf("expire_snapshots = %v, want %s…|2|0 (the %d replaced data files, two manifest lists)", got, want, len(replaced))
	}
	expired, _ := check("after expire_snapshots", 2, []int32{1})
	if !slices.Equal(expired, afterRewrite) {
		t.Fatalf("expire_snapshots changed the rows: %s", testutil.DiffRows(expired, afterRewrite))
	}
	for _, path := range replaced {
		f, err := s.Warehouse().FS().Open(path)
		if err == nil {
			_, err = f.Stat()
			f.Close()
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("replaced data file %s after expire_snapshots: %v, want it deleted", path, err)
		}
	}
	testutil.WantError(t, s, fmt.Sprintf("SELECT * FROM %s VERSION AS OF %d", events, beforeRewriteSnap), fmt.Sprint(beforeRewriteSnap))

	// A file no snapshot references, in the table's data folder, is an
	// orphan: remove_orphan_files deletes it and nothing else (older_than
	// now: the stray file is seconds old).
	testutil.Exec(t, s, "SET vacuum_retention_check = false")
	live := testutil.Rows(t, s, "SELECT file_path FROM "+events+".files")
	stray := live[0][:strings.LastIndex(live[0], "/data/")] + "/data/stray-00000.parquet"
	if err := s.Warehouse().FS().WriteFile(stray, []byte("not a table file")); err != nil {
		t.Fatal(err)
	}
	if got := testutil.Rows(t, s, "CALL oleander.system.remove_orphan_files(table => 'tutorial.retail_clickstream_events', older_than => "+anHourFromNow()+")"); !slices.Equal(got, []string{stray}) {
		t.Fatalf("remove_orphan_files = %v, want %v", got, stray)
	}
	if final, _ := check("after remove_orphan_files", 2, []int32{1}); !slices.Equal(final, afterRewrite) {
		t.Fatalf("remove_orphan_files changed the rows: %s", testutil.DiffRows(final, afterRewrite))
	}
}
