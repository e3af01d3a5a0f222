package lakesql_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/catalog/hadoop"
	"github.com/apache/iceberg-go/table"
	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/value"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
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

// TestIcebergGoReadsDictionaryPages checks that iceberg-go (arrow-go's
// Parquet reader) reads what the writer produces at scale: dictionary pages,
// PLAIN pages, several pages per column chunk and a page index.
func TestIcebergGoReadsDictionaryPages(t *testing.T) {
	dir := t.TempDir()
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	digits := "(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))"
	testutil.Exec(t, s,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.wide PARTITIONED BY (bucket(2, id)) AS
		 SELECT id, id % 100 AS user_id, CASE WHEN id % 9 = 0 THEN NULL ELSE concat('country-', CAST(id % 7 AS STRING)) END AS country,
		        concat('note ', CAST(id * 7919 AS STRING)) AS note
		 FROM (SELECT a.x + 10 * b.x + 100 * c.x + 1000 * d.x + 10000 * e.x AS id
		       FROM `+digits+` AS a(x) CROSS JOIN `+digits+` AS b(x) CROSS JOIN `+digits+` AS c(x)
		       CROSS JOIN `+digits+` AS d(x) CROSS JOIN `+digits+` AS e(x)) AS n`,
	)
	checkDictionaryPages(t, filepath.Join(dir, "db", "wide", "data"))
	want := testutil.Rows(t, s, "SELECT * FROM db.wide")
	if len(want) != 100_000 {
		t.Fatalf("lakesql reads %d rows, want 100000", len(want))
	}
	cat, err := hadoop.NewCatalog("other", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(context.Background(), table.Identifier{"db", "wide"})
	if err != nil {
		t.Fatal(err)
	}
	arrowTable, err := tbl.Scan().ToArrowTable(context.Background())
	if err != nil {
		t.Fatalf("iceberg-go scan: %v", err)
	}
	defer arrowTable.Release()
	if got := tableRows(arrowTable); !slices.Equal(got, want) {
		t.Fatalf("iceberg-go reads %d rows that differ from lakesql's %d", len(got), len(want))
	}
}

// checkDictionaryPages makes sure the files under dir hold what the test is
// about: dictionary-encoded user_id and country, several pages per chunk.
func checkDictionaryPages(t *testing.T, dir string) {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			files = append(files, p)
		}
		return err
	})
	if len(files) == 0 {
		t.Fatalf("no data files under %s", dir)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"id", "user_id", "country", "note"} {
		cc := f.Metadata().RowGroups[0].Columns[i]
		dict := slices.Contains(cc.MetaData.Encoding, format.RLEDictionary)
		if want := name == "user_id" || name == "country"; dict != want {
			t.Errorf("%s: column %s has encodings %v", files[0], name, cc.MetaData.Encoding)
		}
		if n := len(f.OffsetIndexes()[i].PageLocations); n < 2 {
			t.Errorf("%s: column %s has %d pages", files[0], name, n)
		}
	}
}
