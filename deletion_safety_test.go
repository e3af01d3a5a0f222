package lakesql_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
)

// The deletes of DROP … PURGE, VACUUM, expire_snapshots and
// remove_orphan_files touch only regular files inside the table's own
// folder in the warehouse: never a symlink or what it points at, never the
// files of a table registered from elsewhere.

func openSafetySession(t *testing.T, dir string) *lakesql.Session {
	t.Helper()
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, s *lakesql.Session, statements ...string) string {
	t.Helper()
	var msg string
	for _, st := range statements {
		res, err := s.Exec(context.Background(), st)
		if err != nil {
			t.Fatalf("%s: %v", st, err)
		}
		for {
			b, err := res.Next(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", st, err)
			}
			if b == nil {
				break
			}
			b.Release()
		}
		msg = res.Message
		res.Close()
	}
	return msg
}

func runError(t *testing.T, s *lakesql.Session, statement string) string {
	t.Helper()
	res, err := s.Exec(context.Background(), statement)
	if err == nil {
		res.Close()
		t.Fatalf("%s: succeeded, want an error", statement)
	}
	return err.Error()
}

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
	wh := t.TempDir()
	s := openSafetySession(t, wh)
	run(t, s, "SET vacuum_retention_check = false",
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
	run(t, s, "CALL system.remove_orphan_files(table => 'db.t', older_than => "+far+")")
	run(t, s, "CALL system.remove_orphan_files(table => 'db.t', older_than => "+far+", location => '"+link+"/')")
	run(t, s, "VACUUM db.t RETAIN 0 HOURS")
	mustExist(t, precious, link, fileLink)
	if got := run(t, s, "SELECT count(*) FROM db.t"); got != "" {
		t.Fatalf("message %q", got)
	}
}

func TestVacuumRefusesSymlinkedTableFolder(t *testing.T) {
	wh := t.TempDir()
	s := openSafetySession(t, wh)
	run(t, s, "SET vacuum_retention_check = false",
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
	if msg := runError(t, s, "VACUUM db.t RETAIN 0 HOURS"); !strings.Contains(msg, "symlink or lies outside the warehouse") {
		t.Fatalf("error %q", msg)
	}
	run(t, s, "DROP TABLE db.t PURGE")
	mustExist(t, precious, folder)
}

func TestPurgeOfRegisteredTableKeepsSourceFiles(t *testing.T) {
	src := t.TempDir()
	a := openSafetySession(t, src)
	run(t, a, "CREATE NAMESPACE db", "CREATE TABLE db.src (id INT)", "INSERT INTO db.src VALUES (1), (2), (3)")
	metas, _ := filepath.Glob(filepath.Join(src, "db", "src", "metadata", "v*.metadata.json"))
	if len(metas) == 0 {
		t.Fatal("no metadata")
	}
	dataFiles, _ := filepath.Glob(filepath.Join(src, "db", "src", "data", "*.parquet"))

	b := openSafetySession(t, t.TempDir())
	run(t, b, "CREATE NAMESPACE r",
		"CALL system.register_table(table => 'r.copy', metadata_file => '"+metas[len(metas)-1]+"')")
	msg := run(t, b, "DROP TABLE r.copy PURGE")
	if !strings.Contains(msg, "kept") {
		t.Fatalf("message %q should say which files were kept", msg)
	}
	mustExist(t, dataFiles...)
	if got := run(t, a, "SELECT count(*) FROM db.src"); got != "" {
		t.Fatalf("message %q", got)
	}
}

func TestDropTableWithoutPurgeKeepsFiles(t *testing.T) {
	wh := t.TempDir()
	s := openSafetySession(t, wh)
	run(t, s, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	dataFiles, _ := filepath.Glob(filepath.Join(wh, "db", "t", "data", "*.parquet"))
	msg := run(t, s, "DROP TABLE db.t")
	if !strings.Contains(msg, filepath.Join(wh, "db", "t")) {
		t.Fatalf("message %q should say where the files are", msg)
	}
	mustExist(t, dataFiles...)
	// The table is gone, and a new one of the same name starts empty.
	run(t, s, "CREATE TABLE db.t (id INT)")
	res, err := s.Exec(context.Background(), "SELECT count(*) FROM db.t")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	batch, err := res.Next(context.Background())
	if err != nil || batch == nil || batch.Column(0).ValueStr(0) != "0" {
		t.Fatalf("count after re-create: %v %v", batch, err)
	}
	batch.Release()
}
