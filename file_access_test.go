package lakesql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// TestExternalAccessConfinesFiles checks DuckDB's enable_external_access and
// allowed_directories: once off, files are read and written only inside the
// allowed folders (by real path: a symlink cannot lead out), the session
// cannot turn it back on, and the warehouse's tables are unaffected.
func TestExternalAccessConfinesFiles(t *testing.T) {
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id BIGINT)", "INSERT INTO db.t VALUES (1), (2)")
	allowed, outside := t.TempDir(), t.TempDir()
	testutil.Exec(t, s,
		"COPY db.t TO '"+filepath.Join(allowed, "in.csv")+"'",
		"COPY db.t TO '"+filepath.Join(outside, "out.csv")+"'")
	if err := os.Symlink(filepath.Join(outside, "out.csv"), filepath.Join(allowed, "link.csv")); err != nil {
		t.Fatal(err)
	}
	testutil.Exec(t, s, "SET allowed_directories = ['"+allowed+"']", "SET enable_external_access = false")

	testutil.WantRows(t, s, "SELECT sum(id) FROM '"+filepath.Join(allowed, "in.csv")+"'", "3")
	testutil.WantRows(t, s, "SELECT sum(id) FROM db.t", "3")
	testutil.Exec(t, s, "COPY db.t TO '"+filepath.Join(allowed, "again.parquet")+"'")
	refused := "file access is disabled (enable_external_access = false): "
	testutil.WantError(t, s, "SELECT * FROM '"+filepath.Join(outside, "out.csv")+"'", refused)
	testutil.WantError(t, s, "SELECT * FROM read_csv('"+filepath.Join(outside, "*.csv")+"')", refused)
	testutil.WantError(t, s, "SELECT * FROM '"+filepath.Join(allowed, "link.csv")+"'", refused)
	testutil.WantError(t, s, "COPY db.t TO '"+filepath.Join(outside, "x.csv")+"'", refused)
	testutil.WantError(t, s, "CALL system.register_table(table => 'db.r', metadata_file => '"+filepath.Join(outside, "t", "metadata", "v1.metadata.json")+"')", refused)
	if _, err := os.Stat(filepath.Join(outside, "x.csv")); err == nil {
		t.Fatal("a refused COPY wrote its file")
	}

	testutil.WantError(t, s, "SET enable_external_access = true", "cannot be turned back on")
	testutil.WantError(t, s, "SET allowed_directories = ['/']", "cannot change it once enable_external_access is off")
	testutil.Exec(t, s, "RESET")
	testutil.WantError(t, s, "SELECT * FROM '"+filepath.Join(outside, "out.csv")+"'", refused)
}

// TestReadOnlySessionRefusesWrites opens a session with ReadOnly (the
// --read-only flag): queries run, and every statement that writes a table
// or a file is refused before it starts.
func TestReadOnlySessionRefusesWrites(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id BIGINT)", "INSERT INTO db.t VALUES (1)")
	ro := testutil.OpenWith(t, lakesql.Options{Warehouse: dir, ReadOnly: true})
	testutil.WantRows(t, ro, "SELECT count(*) FROM db.t", "1")
	testutil.WantRows(t, ro, "SHOW TABLES IN db", "db|t")
	for _, stmt := range []string{
		"INSERT INTO db.t VALUES (2)", "DELETE FROM db.t", "UPDATE db.t SET id = 3", "CREATE TABLE db.u (id INT)",
		"DROP TABLE db.t", "ALTER TABLE db.t ADD COLUMN x INT", "CALL system.expire_snapshots(table => 'db.t')",
		"COPY db.t TO '" + filepath.Join(t.TempDir(), "x.csv") + "'", "CREATE NAMESPACE n", "TRUNCATE TABLE db.t",
	} {
		testutil.WantError(t, ro, stmt, "the session is read-only (--read-only)")
	}
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "1")
}
