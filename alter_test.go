package lakesql_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// TestAlterRenameKeepsNameMapping checks that the name mapping (for files
// without field ids) follows a rename. The reads after schema evolution are
// in testdata/queries/ddl/alter_partition_evolution.test.
func TestAlterRenameKeepsNameMapping(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, name STRING)",
		"INSERT INTO db.t VALUES (1, 'a')",
		"ALTER TABLE db.t RENAME COLUMN name TO label",
	)
	mapping := testutil.Table(t, s, "db", "t").NameMapping()
	if !slices.ContainsFunc(mapping, func(f iceberg.MappedField) bool {
		return slices.Contains(f.Names, "label") && slices.Contains(f.Names, "name")
	}) {
		t.Fatalf("name mapping %v, want label mapped with its old name", mapping)
	}
}

// TestIcebergGoReadsEvolvedTable reads a table after partition and schema
// evolution with iceberg-go's own scanner: the metadata lakesql commits must
// mean the same to another implementation.
func TestIcebergGoReadsEvolvedTable(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s,
		"CREATE TABLE db.t (id INT, ts TIMESTAMP, name STRING)",
		"INSERT INTO db.t VALUES (1, '2026-01-01 09:00:00', 'a')",
		"ALTER TABLE db.t ADD PARTITION FIELD day(ts)",
		"ALTER TABLE db.t ADD COLUMN note STRING",
		"ALTER TABLE db.t RENAME COLUMN name TO label",
		"ALTER TABLE db.t ALTER COLUMN id TYPE BIGINT",
		"INSERT INTO db.t VALUES (2, '2026-01-02 10:00:00', 'b', 'new')",
	)
	want := testutil.Rows(t, s, "SELECT * FROM db.t")
	got := testutil.IcebergGoRows(t, dir, "db", "t")
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Fatalf("iceberg-go read\n%s\nlakesql read\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAlterErrorsLeaveTableUnchanged runs failing ALTERs and checks each
// message and that no metadata version was written.
func TestAlterErrorsLeaveTableUnchanged(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s,
		"CREATE TABLE db.t (id INT, ts TIMESTAMP, s STRING, d DECIMAL(10,2)) PARTITIONED BY (day(ts))",
		"INSERT INTO db.t VALUES (1, '2026-01-01 00:00:00', 'a', 1.00)",
		"ALTER TABLE db.t WRITE ORDERED BY s",
	)
	cases := []struct{ stmt, want string }{
		{"ALTER TABLE db.t ADD PARTITION FIELD day(ts)", "partition field ts_day already exists"},
		{"ALTER TABLE db.t ADD PARTITION FIELD day(ts) AS other", "partition field ts_day already exists for day(ts)"},
		{"ALTER TABLE db.t ADD PARTITION FIELD s AS ts_day", "partition field ts_day already exists"},
		{"ALTER TABLE db.t ADD PARTITION FIELD hour(ts)", "use REPLACE PARTITION FIELD ts_day WITH hour(ts)"},
		{"ALTER TABLE db.t ADD PARTITION FIELD day(s)", "partition transform day cannot apply to column s of type string"},
		{"ALTER TABLE db.t ADD PARTITION FIELD day(tss)", "partition column tss does not exist (did you mean ts?)"},
		{"ALTER TABLE db.t ADD PARTITION FIELD s AS id", "partition name id matches schema column"},
		{"ALTER TABLE db.t DROP PARTITION FIELD ts_dy", "partition field ts_dy does not exist (did you mean ts_day?)"},
		{"ALTER TABLE db.t DROP PARTITION FIELD bucket(4, id)", "partition field bucket(4, id) does not exist (partition fields: ts_day)"},
		{"ALTER TABLE db.t REPLACE PARTITION FIELD month(ts) WITH hour(ts)", "partition field month(ts) does not exist"},
		{"ALTER TABLE db.t ADD COLUMN s INT", "column s already exists"},
		{"ALTER TABLE db.t ADD COLUMNS (x INT, X STRING)", "column x is added twice"},
		{"ALTER TABLE db.t ADD COLUMN x INT NOT NULL", "cannot add column x as NOT NULL"},
		{"ALTER TABLE db.t DROP COLUMN nope", "column nope does not exist"},
		{"ALTER TABLE db.t DROP COLUMN ts", "cannot drop column ts: partition field ts_day uses it"},
		{"ALTER TABLE db.t DROP COLUMN s", "cannot drop column s: the table's write order uses it"},
		{"ALTER TABLE db.t RENAME COLUMN id TO s", "cannot rename column id to s: column s already exists"},
		{"ALTER TABLE db.t RENAME COLUMN id TO ts_day", "partition field ts_day has that name"},
		{"ALTER TABLE db.t RENAME COLUMN idd TO k", "column idd does not exist (did you mean id?)"},
		{"ALTER TABLE db.t ALTER COLUMN s TYPE BIGINT", "cannot change column s from STRING to BIGINT"},
		{"ALTER TABLE db.t ALTER COLUMN id TYPE DOUBLE", "cannot change column id from INT to DOUBLE"},
		{"ALTER TABLE db.t ALTER COLUMN d TYPE DECIMAL(12,3)", "cannot change column d from DECIMAL(10,2) to DECIMAL(12,3)"},
		{"ALTER TABLE db.t ALTER COLUMN d TYPE DECIMAL(8,2)", "cannot change column d from DECIMAL(10,2) to DECIMAL(8,2)"},
		{"ALTER TABLE db.t SET TBLPROPERTIES ('write.parquet.row-group-size-rows' = 'many')", "must be a positive integer"},
		{"ALTER TABLE db.t SET TBLPROPERTIES ('format-version' = '3')", "reserved property format-version"},
		{"ALTER TABLE db.t WRITE ORDERED BY nope", "column nope does not exist (columns: id, ts, s, d)"},
		{"ALTER TABLE db.t WRITE ORDERED BY id + 1", "WRITE ORDERED BY and CLUSTER BY take columns and transforms"},
		{"ALTER TABLE db.t RENAME TO nowhere.u", "namespace nowhere does not exist"},
		{"ALTER TABLE db.nope ADD COLUMN x INT", "table db.nope does not exist"},
	}
	before := testutil.Table(t, s, "db", "t").MetadataLocation()
	for _, c := range cases {
		_, err := s.Exec(context.Background(), c.stmt)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.stmt, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %q, want one line containing %q", c.stmt, err, c.want)
		}
		if after := testutil.Table(t, s, "db", "t").MetadataLocation(); after != before {
			t.Fatalf("%s: metadata changed from %s to %s", c.stmt, before, after)
		}
	}
}

// TestAlterNoOpsCommitNothing checks that statements that change nothing do
// not write a metadata version.
func TestAlterNoOpsCommitNothing(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s, "CREATE TABLE db.t (id INT) TBLPROPERTIES ('owner' = 'me')")
	before := testutil.Table(t, s, "db", "t").MetadataLocation()
	testutil.Exec(t, s,
		"ALTER TABLE db.t SET TBLPROPERTIES ('owner' = 'me')",
		"ALTER TABLE db.t UNSET TBLPROPERTIES ('missing')",
		"ALTER TABLE db.t UNSET TBLPROPERTIES IF EXISTS ('missing')",
		"ALTER TABLE db.t DROP COLUMN IF EXISTS missing",
		"ALTER TABLE db.t ALTER COLUMN id TYPE INT",
		"ALTER TABLE db.t RENAME COLUMN id TO id",
	)
	if after := testutil.Table(t, s, "db", "t").MetadataLocation(); after != before {
		t.Fatalf("no-op ALTERs wrote metadata %s (was %s)", after, before)
	}
	// Changing only the case of a name is a rename.
	testutil.Exec(t, s, `ALTER TABLE db.t RENAME COLUMN id TO "ID"`, "INSERT INTO db.t VALUES (7)")
	testutil.WantRows(t, s, `SELECT "ID" FROM db.t`, "7")
}

// TestAlterWriteOrderAndProperties checks the sort order and properties an
// ALTER commits.
func TestAlterWriteOrderAndProperties(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	testutil.Exec(t, s,
		"CREATE TABLE db.t (id BIGINT, ts TIMESTAMP, s STRING)",
		"ALTER TABLE db.t WRITE ORDERED BY id DESC NULLS FIRST, days(ts), bucket(8, s) NULLS LAST",
	)
	tbl := testutil.Table(t, s, "db", "t")
	order := tbl.SortOrder()
	var fields []string
	for _, f := range order.Fields() {
		fields = append(fields, f.String())
	}
	if want := []string{"1 desc nulls-first", "day(2) asc nulls-first", "bucket[8](3) asc nulls-last"}; !slices.Equal(fields, want) {
		t.Fatalf("sort order %v, want %v", fields, want)
	}
	if got := tbl.Properties()["write.distribution-mode"]; got != "range" {
		t.Fatalf("write.distribution-mode = %q, want range", got)
	}
	testutil.Exec(t, s,
		"ALTER TABLE db.t WRITE UNORDERED",
		"ALTER TABLE db.t SET TBLPROPERTIES ('owner' = 'data', 'write.parquet.row-group-size-rows' = '1000')",
		"ALTER TABLE db.t UNSET TBLPROPERTIES ('owner')",
	)
	tbl = testutil.Table(t, s, "db", "t")
	if !tbl.SortOrder().IsUnsorted() {
		t.Fatalf("sort order %v, want unsorted", tbl.SortOrder())
	}
	props := tbl.Properties()
	if props["write.distribution-mode"] != "none" || props["write.parquet.row-group-size-rows"] != "1000" || props["owner"] != "" {
		t.Fatalf("properties %v", props)
	}
	testutil.Exec(t, s, "ALTER TABLE db.t WRITE LOCALLY ORDERED BY s")
	if got := testutil.Table(t, s, "db", "t").Properties()["write.distribution-mode"]; got != "none" {
		t.Fatalf("LOCALLY ORDERED changed write.distribution-mode to %q", got)
	}
}

// TestClusterByIsTheSortOrder checks Delta's CLUSTER BY: in CREATE TABLE,
// CTAS and REPLACE TABLE it sets the new table's sort order, and ALTER
// TABLE … CLUSTER BY (…) | NONE replaces it.
func TestClusterByIsTheSortOrder(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db")
	orderOf := func(name string) []string {
		t.Helper()
		var fields []string
		for _, f := range testutil.Table(t, s, "db", name).SortOrder().Fields() {
			fields = append(fields, f.String())
		}
		return fields
	}
	testutil.Exec(t, s, "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP, s STRING) CLUSTER BY (s, day(ts))")
	if got, want := orderOf("t"), []string{"3 asc nulls-first", "day(2) asc nulls-first"}; !slices.Equal(got, want) {
		t.Fatalf("CREATE … CLUSTER BY: sort order %v, want %v", got, want)
	}
	testutil.Exec(t, s, "ALTER TABLE db.t CLUSTER BY (id)")
	if got, want := orderOf("t"), []string{"1 asc nulls-first"}; !slices.Equal(got, want) {
		t.Fatalf("ALTER … CLUSTER BY: sort order %v, want %v", got, want)
	}
	testutil.Exec(t, s, "ALTER TABLE db.t CLUSTER BY NONE")
	if got := orderOf("t"); len(got) != 0 {
		t.Fatalf("CLUSTER BY NONE: sort order %v, want none", got)
	}
	testutil.Exec(t, s, "CREATE TABLE db.c CLUSTER BY (k) AS SELECT 1 AS v, 'a' AS k")
	if got, want := orderOf("c"), []string{"2 asc nulls-first"}; !slices.Equal(got, want) {
		t.Fatalf("CTAS … CLUSTER BY: sort order %v, want %v", got, want)
	}
	testutil.Exec(t, s, "CREATE OR REPLACE TABLE db.c CLUSTER BY (v) AS SELECT 1 AS v, 'a' AS k")
	if got, want := orderOf("c"), []string{"1 asc nulls-first"}; !slices.Equal(got, want) {
		t.Fatalf("REPLACE … CLUSTER BY: sort order %v, want %v", got, want)
	}
	testutil.WantError(t, s, "CREATE TABLE db.x (a INT) CLUSTER BY (zz)", "column zz does not exist (columns: a)")
	testutil.WantError(t, s, "CREATE TABLE db.x (a INT) CLUSTER BY a", `expected "("`)
}

// TestRenameTableInSQLCatalog renames tables in a catalog that keeps names
// apart from files (SQLite): the rows and the history move with the name,
// an unqualified new name stays in the namespace, and a taken name is an
// error that changes nothing.
func TestRenameTableInSQLCatalog(t *testing.T) {
	dir := t.TempDir()
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: filepath.Join(dir, "warehouse"), CatalogURI: "sqlite:" + filepath.Join(dir, "catalog.db")},
		"CREATE NAMESPACE db", "CREATE NAMESPACE other",
		"CREATE TABLE db.t (id BIGINT)", "INSERT INTO db.t VALUES (1), (2)", "INSERT INTO db.t VALUES (3)",
		"CREATE TABLE db.taken (id BIGINT)")
	testutil.Exec(t, s, "ALTER TABLE db.t RENAME TO u")
	testutil.WantRows(t, s, "SELECT sum(id), count(*) FROM db.u", "6|3")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.u.snapshots", "2")
	testutil.WantError(t, s, "SELECT * FROM db.t", "db.t")
	testutil.Exec(t, s, "ALTER TABLE db.u RENAME TO other.v", "INSERT INTO other.v VALUES (4)")
	testutil.WantRows(t, s, "SELECT sum(id) FROM other.v", "10")
	testutil.WantError(t, s, "ALTER TABLE other.v RENAME TO db.taken", "table db.taken already exists")
	testutil.WantError(t, s, "ALTER TABLE other.v RENAME TO nowhere.v", "nowhere")
	testutil.WantRows(t, s, "SELECT sum(id) FROM other.v", "10")
}

// TestRenameTableInFolderCatalog renames tables of the filesystem catalog:
// the folder moves, the rows and history move with the name and stay
// writable, the old folder is gone and stays gone after writes, the old
// name cannot be reused while the renamed table records its files under
// it, renaming back removes the remap, and a taken name or a leftover
// folder is an error that changes nothing.
func TestRenameTableInFolderCatalog(t *testing.T) {
	wh := filepath.Join(t.TempDir(), "warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"CREATE NAMESPACE db", "CREATE NAMESPACE other",
		"CREATE TABLE db.t (id BIGINT, day DATE) PARTITIONED BY (day)",
		"INSERT INTO db.t VALUES (1, DATE '2026-01-01'), (2, DATE '2026-01-02')", "INSERT INTO db.t VALUES (3, NULL)",
		"CREATE TABLE db.taken (id BIGINT)")
	testutil.Exec(t, s, "ALTER TABLE db.t RENAME TO u")
	testutil.WantRows(t, s, "SELECT sum(id), count(*) FROM db.u", "6|3")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.u.snapshots", "2")
	testutil.WantError(t, s, "SELECT * FROM db.t", "db.t")
	testutil.Exec(t, s, "INSERT INTO db.u VALUES (4, DATE '2026-01-01')", "DELETE FROM db.u WHERE id = 2")
	testutil.WantRows(t, s, "SELECT sum(id), count(*) FROM db.u", "8|3")
	if _, err := os.Stat(filepath.Join(wh, "db", "t")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the old folder came back after writes to the renamed table: %v", err)
	}
	testutil.WantError(t, s, "CREATE TABLE db.t (x INT)", "table db.t cannot be created: table db.u, renamed from it, still records its files under")

	// A second session (a new process) sees the rename.
	s2 := testutil.OpenWith(t, lakesql.Options{Warehouse: wh})
	testutil.Exec(t, s2, "ALTER TABLE db.u RENAME TO other.v")
	testutil.WantRows(t, s2, "SELECT sum(id) FROM other.v", "8")
	testutil.WantError(t, s2, "ALTER TABLE other.v RENAME TO db.taken", "table db.taken already exists")
	testutil.WantError(t, s2, "ALTER TABLE other.v RENAME TO nowhere.v", "nowhere")
	if err := os.MkdirAll(filepath.Join(wh, "db", "left"), 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.WantError(t, s2, "ALTER TABLE other.v RENAME TO db.left", "already exists (left by a table dropped without PURGE?)")
	testutil.WantRows(t, s2, "SELECT sum(id) FROM other.v", "8")

	// Home again: no remap is left, and the table reads as it did.
	testutil.Exec(t, s2, "ALTER TABLE other.v RENAME TO db.t")
	if _, err := os.Stat(filepath.Join(wh, "db", "t", "location-remap.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a table renamed back to its own location keeps a remap: %v", err)
	}
	testutil.WantRows(t, testutil.OpenWith(t, lakesql.Options{Warehouse: wh}), "SELECT sum(id), count(*) FROM db.t WHERE day = DATE '2026-01-01'", "5|2")
	testutil.Exec(t, s2, "CREATE TABLE db.u (x INT)", "DROP TABLE db.t PURGE")
	if _, err := os.Stat(filepath.Join(wh, "db", "t")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("PURGE of a renamed table left its folder: %v", err)
	}
}
