package lakesql_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestIcebergGoReadsLakesqlTables writes a partitioned table with lakesql and
// reads it back with iceberg-go's own catalog and scanner: the metadata,
// manifests and Parquet files lakesql writes must be readable by another
// Iceberg implementation, with the same rows.
func TestIcebergGoReadsLakesqlTables(t *testing.T) {
	s, dir := testutil.Open(t,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.events (id BIGINT NOT NULL, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, name STRING, price DECIMAL(10,2),
			qty INT, ok BOOLEAN, ratio DOUBLE, f FLOAT, raw BINARY)
		 PARTITIONED BY (day(ts), bucket(4, id), truncate(2, name))`,
		`INSERT INTO db.events VALUES
			(1, '2026-01-15 10:00:00', '2026-01-15 10:00:00+02:00', '2026-01-15', 'alpha', 1.50, 3, true, 0.25, 1.5, 'ab'),
			(2, '1969-12-31 23:59:59.999999', NULL, '1969-12-31', NULL, -2.25, NULL, false, 'NaN', NULL, NULL),
			(3, NULL, '2026-01-16 00:00:00Z', NULL, 'beta', NULL, -7, NULL, NULL, -0.5, '')`,
		`INSERT INTO db.events (id, name) VALUES (4, 'alphabet')`,
	)
	want := testutil.Rows(t, s, "SELECT * FROM db.events")

	view := testutil.IcebergGo(t, dir, "db", "events", 0)
	if n := view.Spec.NumFields(); n != 3 {
		t.Fatalf("iceberg-go sees %d partition fields, want 3", n)
	}
	got := view.Rows
	if !slices.Equal(got, want) {
		t.Fatalf("iceberg-go read\n%s\nlakesql read\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(got) != 4 {
		t.Fatalf("got %d rows, want 4", len(got))
	}
}
