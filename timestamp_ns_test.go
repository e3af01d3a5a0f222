package lakesql_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestTimestampNs reads timestamp_ns and timestamptz_ns columns (Iceberg
// format v3) of a table iceberg-go wrote, partitioned by day of the
// nanosecond timestamp: values keep their nanoseconds, filters compare
// them, and partition and stats pruning agree with a full scan.
func TestTimestampNs(t *testing.T) {
	ctx := context.Background()
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "ts", Type: iceberg.PrimitiveTypes.TimestampNs},
		iceberg.NestedField{ID: 3, Name: "tz", Type: iceberg.PrimitiveTypes.TimestampTzNs})
	spec := iceberg.NewPartitionSpec(iceberg.PartitionField{SourceIDs: []int{2}, FieldID: 1000, Name: "ts_day", Transform: iceberg.DayTransform{}})
	if _, err := s.Warehouse().Catalog().CreateTable(ctx, table.Identifier{"db", "t"}, schema,
		icecatalog.WithPartitionSpec(&spec), icecatalog.WithProperties(iceberg.Properties{"format-version": "3"})); err != nil {
		t.Fatal(err)
	}
	icebergGoAppend(t, testutil.Table(t, s, "db", "t"), `[
		{"id": 1, "ts": "2026-01-15T10:00:00.123456789", "tz": "2026-01-15T10:00:00.000000001Z"},
		{"id": 2, "ts": "2026-01-16T00:00:00.000000001", "tz": null},
		{"id": 3, "ts": null, "tz": "1969-12-31T23:59:59.999999999Z"}]`)

	testutil.WantRows(t, s, "DESCRIBE db.t", "# partition|day(ts)||ts_day", "id|INT|YES|", "ts|TIMESTAMP_NS|YES|", "tz|TIMESTAMPTZ_NS|YES|")
	all := testutil.Rows(t, s, "SELECT * FROM db.t")
	if want := testutil.IcebergGoRows(t, dir, "db", "t"); !slices.Equal(all, want) {
		t.Fatalf("lakesql read\n%s\niceberg-go read\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
	testutil.WantRows(t, s, "SELECT * FROM db.t",
		"1|2026-01-15 10:00:00.123456789|2026-01-15 10:00:00.000000001+00",
		"2|2026-01-16 00:00:00.000000001|NULL",
		"3|NULL|1969-12-31 23:59:59.999999999+00")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE ts >= '2026-01-16'", "2")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE ts > TIMESTAMP '2026-01-15 10:00:00.123456'", "1", "2")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE tz < TIMESTAMPTZ '1970-01-01 00:00:00+00'", "3")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE ts = TIMESTAMP '2026-01-16 00:00:00'")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE ts < DATE '2026-01-16'", "1")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE ts BETWEEN '2026-01-15' AND '2026-01-15 23:59:59.999999'", "1")
	testutil.WantRows(t, s, "SELECT min(ts), max(tz), count(ts) FROM db.t", "2026-01-15 10:00:00.123456789|2026-01-15 10:00:00.000000001+00|2")
	if got := testutil.RowsInOrder(t, s, "SELECT id FROM db.t ORDER BY tz NULLS FIRST"); !slices.Equal(got, []string{"2", "3", "1"}) {
		t.Fatalf("ORDER BY tz: %v", got)
	}
	testutil.WantRows(t, s, "SELECT ts, count(*) FROM db.t GROUP BY ts", "2026-01-15 10:00:00.123456789|1", "2026-01-16 00:00:00.000000001|1", "NULL|1")
	// The date and time functions count microseconds: they refuse
	// nanosecond timestamps rather than answer wrongly.
	testutil.Error(t, s, "SELECT date(ts) FROM db.t")
	testutil.Error(t, s, "SELECT ts + INTERVAL 1 DAY FROM db.t")
	testutil.WantError(t, s, "CREATE TABLE db.c AS SELECT id, ts FROM db.t", "TIMESTAMP_NS values cannot be stored: lakesql writes Iceberg format v2 tables")
	// Pruning: one day's partition and the stats of the kept file.
	plan := testutil.Explain(t, s, "SELECT id FROM db.t WHERE ts >= '2026-01-16'")
	testutil.WantContains(t, plan, "day(ts) >= 2026-01-16", "data files 1/3", "Filter (ts >= TIMESTAMP '2026-01-16 00:00:00')")
}
