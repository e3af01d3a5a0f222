package lakesql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// declareCatalogs writes iceberg-go's configuration file into a fresh
// $GOICEBERG_HOME and returns its path.
func declareCatalogs(t *testing.T, yaml string) string {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, ".iceberg-go.yaml")
	testutil.WriteFile(t, path, yaml)
	t.Setenv("GOICEBERG_HOME", home)
	return path
}

// A catalog declared in iceberg-go's configuration file is reached by
// three-part names beside the default catalog: a query joins tables of
// both, and writes (CREATE, INSERT, DELETE, ALTER, CTAS) go to the
// declared catalog's own database and warehouse, where a session opened on
// that catalog alone finds them. One- and two-part names stay the default
// catalog's.
func TestSeveralCatalogsByName(t *testing.T) {
	dir := t.TempDir()
	prodLake := filepath.Join(dir, "prod-lake")
	declareCatalogs(t, "catalog:\n"+
		"  prod:\n    type: sql\n    uri: sqlite:"+filepath.Join(dir, "prod.db")+"\n    warehouse: "+prodLake+"\n"+
		"  archive:\n    warehouse: "+filepath.Join(dir, "archive-lake")+"\n")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: filepath.Join(dir, "wh")},
		"CREATE NAMESPACE tmp",
		"CREATE TABLE tmp.x AS SELECT * FROM (VALUES (1, 'gold'), (2, 'silver'), (3, NULL)) AS v(customer, tier)",
		"CREATE NAMESPACE prod.sales",
		"CREATE TABLE prod.sales.orders (id BIGINT, customer INT, amount DOUBLE, day DATE) PARTITIONED BY (day)",
		"INSERT INTO prod.sales.orders VALUES (10, 1, 5.5, DATE '2026-01-01'), (11, 2, NULL, DATE '2026-01-01'), (12, 3, 7.0, DATE '2026-01-02'), (13, 4, 1.0, DATE '2026-01-02')",
		"CREATE NAMESPACE archive.old",
		"CREATE TABLE archive.old.orders AS SELECT id, amount FROM prod.sales.orders WHERE day = DATE '2026-01-02'",
	)

	testutil.WantRows(t, s, "SELECT o.id, x.tier, o.amount FROM prod.sales.orders o JOIN lakesql.tmp.x x ON o.customer = x.customer",
		"10|gold|5.5", "11|silver|NULL", "12|NULL|7.0")
	testutil.WantRows(t, s, "SELECT x.customer, count(o.id) FROM tmp.x x LEFT JOIN prod.sales.orders o ON o.customer = x.customer AND o.day = DATE '2026-01-02' GROUP BY x.customer",
		"1|0", "2|0", "3|1")
	testutil.WantRows(t, s, "SELECT a.id FROM archive.old.orders a JOIN prod.sales.orders p ON a.id = p.id", "12", "13")

	// Writes to the declared catalog's table.
	testutil.Exec(t, s, "DELETE FROM prod.sales.orders WHERE id = 13", "ALTER TABLE prod.sales.orders ADD COLUMN note STRING",
		"UPDATE prod.sales.orders SET note = 'late' WHERE id = 12")
	testutil.WantRows(t, s, "SELECT id, note FROM prod.sales.orders", "10|NULL", "11|NULL", "12|late")
	first := testutil.RowsInOrder(t, s, "SELECT snapshot_id FROM prod.sales.orders.snapshots ORDER BY committed_at LIMIT 1")[0]
	testutil.WantRows(t, s, "SELECT count(*) FROM prod.sales.orders VERSION AS OF "+first, "4")
	testutil.Exec(t, s, "MERGE INTO prod.sales.orders o USING tmp.x x ON o.customer = x.customer AND o.id = 10 "+
		"WHEN MATCHED THEN UPDATE SET note = x.tier WHEN NOT MATCHED THEN INSERT (id, customer, day) VALUES (20 + x.customer, x.customer, DATE '2026-01-03')")
	testutil.WantRows(t, s, "SELECT id, note FROM prod.sales.orders", "10|gold", "11|NULL", "12|late", "22|NULL", "23|NULL")
	testutil.Exec(t, s, "INSERT OVERWRITE archive.old.orders SELECT id, amount FROM prod.sales.orders WHERE note IS NOT NULL",
		"CREATE OR REPLACE TABLE archive.old.copy AS SELECT * FROM archive.old.orders")
	testutil.WantRows(t, s, "SELECT id FROM archive.old.copy", "10", "12")
	testutil.Exec(t, s, "TRUNCATE TABLE archive.old.copy", "DROP TABLE archive.old.copy PURGE")
	testutil.WantRows(t, s, "SHOW TABLES IN archive.old", "old|orders")

	// Its files are in its own warehouse, and its metadata tables are read
	// with four-part names.
	for _, f := range testutil.RowsInOrder(t, s, "SELECT file_path FROM prod.sales.orders.files") {
		if !strings.Contains(f, prodLake) {
			t.Errorf("file %s of prod.sales.orders is outside prod's warehouse %s", f, prodLake)
		}
	}
	testutil.WantRows(t, s, "SHOW CATALOGS", "lakesql", "archive", "prod")
	testutil.WantRows(t, s, "SHOW NAMESPACES IN prod", "sales")
	testutil.WantRows(t, s, "SHOW TABLES IN prod.sales", "sales|orders")
	testutil.WantRows(t, s, "SHOW NAMESPACES", "tmp")

	// Two-part names are the default catalog's, which has no sales.
	testutil.WantError(t, s, "SELECT * FROM sales.orders", "namespace sales does not exist")
	testutil.WantError(t, s, "SELECT * FROM prod.sales.ordrs", "catalog prod: table sales.ordrs does not exist (did you mean sales.orders?)")

	// The catalog on its own: a session whose default it is sees the same table.
	alone := testutil.OpenWith(t, lakesql.Options{Catalog: "prod"})
	testutil.WantRows(t, alone, "SELECT id, amount, note FROM sales.orders", "10|5.5|gold", "11|NULL|NULL", "12|7.0|late", "22|NULL|NULL", "23|NULL|NULL")
}

// Naming a catalog that is not declared is an unknown-name error naming the
// catalogs there are; a declared catalog that cannot be opened fails the
// statement that names it with one line naming it and the configuration
// file, and only that statement: the session and the default catalog work.
func TestCatalogNameErrors(t *testing.T) {
	dir := t.TempDir()
	config := declareCatalogs(t, "catalog:\n"+
		"  prod:\n    type: sql\n    uri: sqlite:"+filepath.Join(dir, "prod.db")+"\n    warehouse: "+filepath.Join(dir, "prod-lake")+"\n"+
		"  broken:\n    type: sql\n    uri: sqlite:"+filepath.Join(dir, "no-such-folder", "c.db")+"\n    warehouse: "+filepath.Join(dir, "lake")+"\n"+
		"  oddkind:\n    type: hive2\n    uri: thrift://127.0.0.1:1\n    warehouse: "+filepath.Join(dir, "lake")+"\n")
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (a INT)", "INSERT INTO db.t VALUES (1)")

	for stmt, want := range map[string]string{
		"SELECT * FROM prd.sales.orders":                    "unknown catalog prd (did you mean prod?)",
		"SELECT * FROM warehouse9.sales.orders":             "unknown catalog warehouse9 (catalogs: lakesql, broken, oddkind, prod; declare others in " + config + ")",
		"SELECT * FROM broken.sales.orders":                 "catalog broken (declared in " + config + "): ",
		"SELECT * FROM oddkind.sales.orders":                "catalog oddkind (declared in " + config + "): ",
		"INSERT INTO broken.a.b VALUES (1)":                 "catalog broken (declared in " + config + "): ",
		"CREATE NAMESPACE nowhere.ns":                       "unknown catalog nowhere",
		"SHOW NAMESPACES IN nowhere":                        "unknown catalog nowhere",
		"USE prod.sales":                                    "USE prod.sales: the current namespace is one of the default catalog lakesql",
		"CREATE VIEW prod.sales.v AS SELECT 1":              "view prod.sales.v: only the default catalog lakesql has these",
		"CALL system.expire_snapshots(table => 'prod.s.t')": "procedures and VACUUM on table prod.s.t: only the default catalog lakesql has these",
		"CALL prod.system.expire_snapshots('s.t')":          "CALL prod.system.expire_snapshots: procedures run on the default catalog lakesql only",
	} {
		got := testutil.Error(t, s, stmt)
		if !strings.Contains(got, want) || strings.Contains(got, "\n") {
			t.Errorf("%s:\n got %q\nwant one line containing %q", stmt, got, want)
		}
	}
	testutil.WantRows(t, s, "SELECT a FROM lakesql.db.t", "1")
	// db.t.snapshots is still a metadata table: db is no catalog.
	if rows := testutil.RowsInOrder(t, s, "SELECT snapshot_id FROM db.t.snapshots"); len(rows) != 1 {
		t.Errorf("db.t.snapshots: %v, want one snapshot", rows)
	}

	// A catalog once opened stays open for the session; a new session
	// reads the file again, which may declare the default catalog too: a
	// broken file fails the session's opening with one line naming it.
	testutil.WriteFile(t, config, "catalog:\n  prod: [unclosed\n")
	_, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "iceberg-go configuration "+config+": yaml: line 1:") || strings.Contains(err.Error(), "\n") {
		t.Errorf("broken configuration file: %v, want one line naming %s", err, config)
	}
	if err := os.Remove(config); err != nil {
		t.Fatal(err)
	}
	s = testutil.OpenWith(t, lakesql.Options{Warehouse: t.TempDir()})
	testutil.WantError(t, s, "SELECT * FROM prod.sales.orders", "unknown catalog prod (catalogs: lakesql; declare others in "+config+")")
}
