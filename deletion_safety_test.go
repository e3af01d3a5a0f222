package lakesql_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// The deletes of DROP … PURGE, VACUUM, expire_snapshots and
// remove_orphan_files touch only regular files inside the table's own
// folder in the warehouse: never a symlink or what it points at, never the
// files of a table registered from elsewhere.

// outsideFile makes a file outside the warehouse, old enough to look like
// an orphan, and returns its path.
func outsideFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "precious.parquet")
	if err := os.WriteFile(path, []byte("not the warehouse's"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			t.Fatalf("%s was deleted: %v", p, err)
		}
	}
}

func TestOrphanRemovalDoesNotFollowSymlinks(t *testing.T) {
	s, wh := testutil.Open(t, "SET vacuum_retention_check = false",
		"CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1), (2)")
	precious := outsideFile(t)
	link := filepath.Join(wh, "db", "t", "data", "link")
	fileLink := filepath.Join(wh, "db", "t", "data", "file-link.parquet")
	if err := os.Symlink(filepath.Dir(precious), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, fileLink); err != nil {
		t.Fatal(err)
	}
	far := "TIMESTAMP '2999-01-01 00:00:00'"
	testutil.Exec(t, s, "CALL system.remove_orphan_files(table => 'db.t', older_than => "+far+")")
	testutil.Exec(t, s, "CALL system.remove_orphan_files(table => 'db.t', older_than => "+far+", location => '"+link+"/')")
	testutil.Exec(t, s, "VACUUM db.t RETAIN 0 HOURS")
	mustExist(t, precious, link, fileLink)
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "2")
}

func TestVacuumRefusesSymlinkedTableFolder(t *testing.T) {
	s, wh := testutil.Open(t, "SET vacuum_retention_check = false",
		"CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	// Move the table's folder elsewhere and leave a symlink in its place.
	elsewhere := filepath.Join(t.TempDir(), "t")
	folder := filepath.Join(wh, "db", "t")
	if err := os.Rename(folder, elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, folder); err != nil {
		t.Fatal(err)
	}
	precious := filepath.Join(elsewhere, "data", "stray.parquet")
	if err := os.WriteFile(precious, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.WantError(t, s, "VACUUM db.t RETAIN 0 HOURS", "symlink or lies outside the warehouse")
	testutil.WantContains(t, testutil.Message(t, s, "DROP TABLE db.t PURGE"), "no file was deleted")
	mustExist(t, precious, folder)
}

func TestPurgeOfRegisteredTableKeepsSourceFiles(t *testing.T) {
	a, src := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.src (id INT)", "INSERT INTO db.src VALUES (1), (2), (3)")
	metas, _ := filepath.Glob(filepath.Join(src, "db", "src", "metadata", "v*.metadata.json"))
	if len(metas) == 0 {
		t.Fatal("no metadata")
	}
	dataFiles, _ := filepath.Glob(filepath.Join(src, "db", "src", "data", "*.parquet"))

	b, _ := testutil.Open(t, "CREATE NAMESPACE r",
		"CALL system.register_table(table => 'r.copy', metadata_file => '"+metas[len(metas)-1]+"')")
	msg := testutil.Message(t, b, "DROP TABLE r.copy PURGE")
	if !strings.Contains(msg, "kept") {
		t.Fatalf("message %q should say which files were kept", msg)
	}
	mustExist(t, dataFiles...)
	testutil.WantRows(t, a, "SELECT count(*) FROM db.src", "3")
}

func TestDropTableWithoutPurgeKeepsFiles(t *testing.T) {
	s, wh := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	dataFiles, _ := filepath.Glob(filepath.Join(wh, "db", "t", "data", "*.parquet"))
	msg := testutil.Message(t, s, "DROP TABLE db.t")
	if !strings.Contains(msg, filepath.Join(wh, "db", "t")) {
		t.Fatalf("message %q should say where the files are", msg)
	}
	mustExist(t, dataFiles...)
	// The table is gone, and a new one of the same name starts empty.
	testutil.Exec(t, s, "CREATE TABLE db.t (id INT)")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "0")
}

// A warehouse reached through a symlinked path is still the warehouse's own
// to clean: only symlinks inside it are off limits.
func TestVacuumThroughSymlinkedWarehousePath(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "wh")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: link}, "SET vacuum_retention_check = false",
		"CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)", "DELETE FROM db.t WHERE id = 1")
	testutil.Exec(t, s, "VACUUM db.t RETAIN 0 HOURS")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "0")
}
