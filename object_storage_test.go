package lakesql_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/storage"
)

// A warehouse on S3 (versitygw): tables are created, written, read,
// maintained and dropped as in a local folder.
func TestObjectStorageWarehouse(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"SET vacuum_retention_check = false",
		"CREATE NAMESPACE shop",
		`CREATE TABLE shop.orders (id BIGINT, day DATE, region STRING, amount DECIMAL(10,2)) PARTITIONED BY (day)`,
		`INSERT INTO shop.orders VALUES (1, DATE '2026-01-01', 'EU', 10.50), (2, DATE '2026-01-02', NULL, NULL), (3, DATE '2026-01-02', 'US', 7.25)`,
		`INSERT INTO shop.orders VALUES (4, DATE '2026-01-03', 'EU', 1.00)`,
		`DELETE FROM shop.orders WHERE id = 3`,
		`CREATE VIEW shop.eu AS SELECT id FROM shop.orders WHERE region = 'EU'`,
	)
	want := []string{"1|2026-01-01|EU|10.50", "2|2026-01-02|NULL|NULL", "4|2026-01-03|EU|1.00"}
	if got := testutil.RowsInOrder(t, s, "SELECT id, day, region, amount FROM shop.orders ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got := testutil.RowsInOrder(t, s, "SELECT id FROM shop.eu ORDER BY id"); !slices.Equal(got, []string{"1", "4"}) {
		t.Fatalf("view rows %v, want 1, 4", got)
	}
	if got := testutil.IcebergGo(t, wh, "shop", "orders", 0).Rows; len(got) != 3 {
		t.Fatalf("iceberg-go reads %d rows, want 3", len(got))
	}

	// Expiring all but the last snapshot deletes the files only the
	// older ones referenced (the file the DELETE rewrote, manifests,
	// manifest lists); the rows stay.
	folder := wh + "/shop/orders"
	before := objectsBelow(t, s, folder)
	got := testutil.Rows(t, s, "CALL system.expire_snapshots(table => 'shop.orders', older_than => "+anHourFromNow()+", retain_last => 1)")
	after := objectsBelow(t, s, folder)
	if len(got) != 1 || len(after) >= len(before) {
		t.Fatalf("expire_snapshots = %v: %d objects before, %d after", got, len(before), len(after))
	}
	if got := testutil.RowsInOrder(t, s, "SELECT id, day, region, amount FROM shop.orders ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("after expire: %v, want %v", got, want)
	}

	// An object no snapshot references is an orphan; with older_than now
	// it goes, and nothing else does.
	stray := folder + "/data/stray.parquet"
	if err := s.Warehouse().FS().WriteFile(stray, []byte("not a table file")); err != nil {
		t.Fatal(err)
	}
	now := "TIMESTAMP '" + time.Now().Add(2*time.Second).UTC().Format("2006-01-02 15:04:05") + "'"
	time.Sleep(2 * time.Second)
	if got := testutil.Rows(t, s, "CALL system.remove_orphan_files('shop.orders', "+now+")"); !slices.Equal(got, []string{stray}) {
		t.Fatalf("remove_orphan_files = %v, want %v", got, stray)
	}
	if left := objectsBelow(t, s, folder); !slices.Equal(left, after) {
		t.Fatalf("remove_orphan_files left %v, want %v", left, after)
	}
	if got := testutil.RowsInOrder(t, s, "SELECT count(*) FROM shop.orders"); !slices.Equal(got, []string{"3"}) {
		t.Fatalf("after remove_orphan_files: %v rows", got)
	}

	// DROP … PURGE deletes every object of the table; then the namespace
	// can go.
	testutil.Exec(t, s, "DROP VIEW shop.eu", "DROP TABLE shop.orders PURGE")
	if left := objectsBelow(t, s, folder); len(left) != 0 {
		t.Fatalf("DROP TABLE PURGE left %v", left)
	}
	testutil.Exec(t, s, "DROP NAMESPACE shop")
	if got := testutil.RowsInOrder(t, s, "SHOW NAMESPACES"); len(got) != 0 {
		t.Fatalf("namespaces after DROP NAMESPACE: %v", got)
	}
}

// objectsBelow lists the objects below a location.
func objectsBelow(t *testing.T, s *lakesql.Session, location string) []string {
	t.Helper()
	fsys, err := s.Warehouse().FS().FileSystem(location)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := fsys.(*storage.ObjectIO).List(location)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimPrefix(e.Location, location+"/"))
	}
	slices.Sort(out)
	return out
}
