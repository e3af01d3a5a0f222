package lakesql

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/lakesql/lakesql/value"
)

// TestIcebergGoReadsLakesqlTables writes a partitioned table with lakesql and
// reads it back with iceberg-go's own catalog and scanner: the metadata,
// manifests and Parquet files lakesql writes must be readable by another
// Iceberg implementation, with the same rows.
func TestIcebergGoReadsLakesqlTables(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(context.Background(), Options{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s,
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
	want := queryRows(t, s, "SELECT * FROM db.events")

	cat, err := hadoop.NewCatalog("other", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(context.Background(), table.Identifier{"db", "events"})
	if err != nil {
		t.Fatal(err)
	}
	if spec := tbl.Spec(); spec.NumFields() != 3 {
		t.Fatalf("iceberg-go sees %d partition fields, want 3", spec.NumFields())
	}
	arrowTable, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatalf("iceberg-go scan: %v", err)
	}
	defer arrowTable.Release()
	got := tableRows(arrowTable)
	if !slices.Equal(got, want) {
		t.Fatalf("iceberg-go read\n%s\nlakesql read\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(got) != 4 {
		t.Fatalf("got %d rows, want 4", len(got))
	}
}

// tableRows renders an Arrow table as sorted text lines, cells as queryRows does.
func tableRows(tbl arrow.Table) []string {
	reader := array.NewTableReader(tbl, 1024)
	defer reader.Release()
	var rows []string
	for reader.Next() {
		batch := reader.RecordBatch()
		for i := range int(batch.NumRows()) {
			cells := make([]string, batch.NumCols())
			for j := range cells {
				cells[j] = value.Format(batch.Column(j), i)
			}
			rows = append(rows, strings.Join(cells, "|"))
		}
	}
	slices.Sort(rows)
	return rows
}
