package lakesql_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestInitialDefaultsOfAddedColumns: in a format v3 table, columns added with
// an initial-default read that default in rows of files written before they
// were added, and their own values in newer files; a column added without a
// default reads NULL. The columns are added, and the newer file written, by
// iceberg-go, whose own scan must agree.
func TestInitialDefaultsOfAddedColumns(t *testing.T) {
	ctx := context.Background()
	s, dir := testutil.Open(t, "CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT) TBLPROPERTIES ('write.parquet.row-group-size-rows' = '2')",
		"INSERT INTO db.t VALUES (1), (2), (3), (NULL)")

	tbl := testutil.Table(t, s, "db", "t")
	tx := tbl.NewTransaction()
	if err := tx.UpgradeFormatVersion(3); err != nil {
		t.Fatal(err)
	}
	if err := tx.UpdateSchema(true, false).
		AddColumn([]string{"region"}, iceberg.PrimitiveTypes.String, "", false, iceberg.StringLiteral("eu")).
		AddColumn([]string{"n"}, iceberg.PrimitiveTypes.Int64, "", false, iceberg.Int64Literal(7)).
		AddColumn([]string{"d"}, iceberg.PrimitiveTypes.Date, "", false, iceberg.DateLiteral(20000)).
		AddColumn([]string{"ok"}, iceberg.PrimitiveTypes.Bool, "", false, iceberg.BoolLiteral(true)).
		AddColumn([]string{"price"}, iceberg.DecimalTypeOf(9, 2), "", false, nil).
		AddColumn([]string{"note"}, iceberg.PrimitiveTypes.String, "", false, nil).
		Commit(); err != nil {
		t.Fatal(err)
	}
	tbl, err := tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	icebergGoAppend(t, tbl, `[{"id": 10, "region": "us", "n": null, "d": 19000, "ok": false, "price": "1.25", "note": "new"},
		{"id": 11, "region": null, "n": 8, "d": null, "ok": null, "price": null, "note": null}]`)

	old := []string{"1|eu|7|2024-10-04|true|NULL|NULL", "2|eu|7|2024-10-04|true|NULL|NULL", "3|eu|7|2024-10-04|true|NULL|NULL", "NULL|eu|7|2024-10-04|true|NULL|NULL"}
	newer := []string{"10|us|NULL|2022-01-08|false|1.25|new", "11|NULL|8|NULL|NULL|NULL|NULL"}
	all := append(slices.Clone(old), newer...)
	testutil.WantRows(t, s, "SELECT id, region, n, d, ok, price, note FROM db.t", all...)
	if got, want := testutil.IcebergGoRows(t, dir, "db", "t"), testutil.Rows(t, s, "SELECT * FROM db.t"); !slices.Equal(got, want) {
		t.Fatalf("iceberg-go read\n%s\nlakesql read\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Filters on the defaults: no pruning level may take the old file's
	// missing column for NULLs.
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE region = 'eu'", "1", "2", "3", "NULL")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE n = 7 AND ok", "1", "2", "3", "NULL")
	testutil.WantRows(t, s, "SELECT id FROM db.t WHERE d = DATE '2024-10-04' AND id >= 2", "2", "3")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t WHERE region IS NULL", "1")
	testutil.WantRows(t, s, "SELECT count(region), count(note), min(n), max(n) FROM db.t", "5|1|7|8")
	testutil.WantRows(t, s, "SELECT region, count(*) FROM db.t GROUP BY region", "eu|4", "us|1", "NULL|1")
}

// icebergGoAppend appends rows, given as JSON, to tbl through iceberg-go.
func icebergGoAppend(t *testing.T, tbl *table.Table, rows string) {
	t.Helper()
	schema, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, schema, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	data := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer data.Release()
	tx := tbl.NewTransaction()
	if err := tx.AppendTable(context.Background(), data, 1024, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestUnreadableColumnsFailOnlyWhenRead: a format v3 table with columns of
// types lakesql cannot read yet (variant, geometry, unknown) answers every
// query that leaves them alone; one that names them, or selects *, fails
// naming the column and its type.
func TestUnreadableColumnsFailOnlyWhenRead(t *testing.T) {
	ctx := context.Background()
	s, _ := testutil.Open(t, "CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, name STRING)",
		"INSERT INTO db.t VALUES (1, 'a'), (2, NULL), (NULL, 'c')")
	// iceberg-go's schema update adds primitive types only: the new schema
	// is committed as a whole.
	old := testutil.Table(t, s, "db", "t").Schema()
	fields := append(old.Fields(),
		iceberg.NestedField{ID: 3, Name: "v", Type: iceberg.VariantType{}},
		iceberg.NestedField{ID: 4, Name: "g", Type: iceberg.GeometryType{}}, // CRS OGC:CRS84
		iceberg.NestedField{ID: 5, Name: "u", Type: iceberg.UnknownType{}})
	if _, _, err := s.Warehouse().CommitTable(ctx, table.Identifier{"db", "t"}, nil, []table.Update{
		table.NewUpgradeFormatVersionUpdate(3),
		table.NewAddSchemaUpdate(iceberg.NewSchema(old.ID+1, fields...)),
		table.NewSetCurrentSchemaUpdate(-1),
	}); err != nil {
		t.Fatal(err)
	}

	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "3")
	testutil.WantRows(t, s, "SELECT id, name FROM db.t WHERE id > 0 OR name = 'c'", "1|a", "2|NULL", "NULL|c")
	testutil.WantRows(t, s, "SELECT t.name FROM db.t t JOIN db.t u ON t.id = u.id", "a", "NULL")
	testutil.WantRows(t, s, "DESCRIBE db.t", "id|INT|YES|", "name|STRING|YES|", "v|VARIANT|YES|", "g|GEOMETRY|YES|", "u|UNKNOWN|YES|")
	testutil.WantError(t, s, "SELECT v FROM db.t", "column v has Iceberg type variant, which lakesql cannot read yet (at line 1, column 8)")
	testutil.WantError(t, s, "SELECT id FROM db.t WHERE g IS NULL", "column g has Iceberg type geometry, which lakesql cannot read yet")
	testutil.WantError(t, s, "SELECT count(u) FROM db.t", "column u has Iceberg type unknown, which lakesql cannot read yet")
	testutil.WantError(t, s, "SELECT * FROM db.t", "* includes column v of Iceberg type variant, which lakesql cannot read yet; name the columns you need, or leave it out with * EXCLUDE (v) (at line 1, column 8)")
	testutil.WantRows(t, s, "SELECT * EXCLUDE (v, g, u) FROM db.t WHERE id = 1", "1|a")
}
