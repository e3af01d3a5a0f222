package lakesql_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// folderDigest is every file below dir with a hash of its content, and
// every folder, so that any change below dir shows.
func folderDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if e.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantSameFolder(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range after {
		if w, ok := before[k]; !ok {
			t.Errorf("%s appeared in the original warehouse", k)
		} else if w != v {
			t.Errorf("%s of the original warehouse changed", k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("%s disappeared from the original warehouse", k)
		}
	}
}

// TestCopiedWarehouseWritesItsOwnFiles: a warehouse copied with cp -r holds
// tables whose metadata names the original's folders. Every write through
// the copy (INSERT, DELETE, UPDATE, compaction, snapshot expiry, a table
// without snapshots getting its first) lands in the copy, the original is
// byte for byte as it was, and each copied table is reported once.
func TestCopiedWarehouseWritesItsOwnFiles(t *testing.T) {
	_, orig := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, v STRING) PARTITIONED BY (bucket(2, id))",
		"INSERT INTO db.t VALUES (1, 'a'), (2, 'b'), (3, NULL)",
		"INSERT INTO db.t VALUES (4, 'd')",
		"CREATE TABLE db.empty (id INT)")
	copyDir := filepath.Join(t.TempDir(), "wh2")
	if err := os.CopyFS(copyDir, os.DirFS(orig)); err != nil {
		t.Fatal(err)
	}
	before := folderDigest(t, orig)

	var notices bytes.Buffer
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: copyDir, Notices: &notices})
	testutil.Exec(t, s,
		"INSERT INTO db.t VALUES (5, 'e')",
		"DELETE FROM db.t WHERE id = 2",
		"UPDATE db.t SET v = 'z' WHERE id = 3",
		"CALL system.rewrite_data_files(table => 'db.t')",
		"CALL system.expire_snapshots(table => 'db.t', retain_last => 1)",
		"INSERT INTO db.empty VALUES (7)")
	testutil.WantRows(t, s, "SELECT id, v FROM db.t", "1|a", "3|z", "4|d", "5|e")
	testutil.WantRows(t, s, "SELECT id FROM db.empty", "7")
	wantSameFolder(t, before, folderDigest(t, orig))
	for _, table := range []string{"db.t", "db.empty"} {
		if n := strings.Count(notices.String(), "Notice: table "+table+" records location "); n != 1 {
			t.Errorf("notices for %s: %d, want 1:\n%s", table, n, notices.String())
		}
	}
	if !strings.Contains(notices.String(), filepath.Join(copyDir, "db", "t")) {
		t.Errorf("notice does not name the copy's folder:\n%s", notices.String())
	}

	// The original still answers as before the copy was written.
	o := testutil.OpenWith(t, lakesql.Options{Warehouse: orig})
	testutil.WantRows(t, o, "SELECT id, v FROM db.t", "1|a", "2|b", "3|NULL", "4|d")
	testutil.WantRows(t, o, "SELECT count(*) FROM db.empty", "0")

	// A warehouse moved away from its folder (the original is gone) reads
	// and writes its files where they now are.
	moved := filepath.Join(t.TempDir(), "wh3")
	if err := os.Rename(copyDir, moved); err != nil {
		t.Fatal(err)
	}
	m := testutil.OpenWith(t, lakesql.Options{Warehouse: moved}, "INSERT INTO db.t VALUES (6, 'f')")
	testutil.WantRows(t, m, "SELECT id, v FROM db.t", "1|a", "3|z", "4|d", "5|e", "6|f")
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Fatalf("a write to the moved warehouse recreated its old folder %s (%v)", copyDir, err)
	}
}

// TestTableRegisteredInPlaceIsNotRelocated: a table registered from a folder
// outside the warehouse, without a remap, records that folder as its
// location and keeps its files there; it is no copied table.
func TestTableRegisteredInPlaceIsNotRelocated(t *testing.T) {
	_, src := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT)",
		"INSERT INTO db.t VALUES (1), (2)")
	meta := filepath.Join(src, "db", "t", "metadata", "v2.metadata.json")
	var notices bytes.Buffer
	s, dir := testutil.Open(t)
	s.Close()
	s = testutil.OpenWith(t, lakesql.Options{Warehouse: dir, Notices: &notices},
		"CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.t', metadata_file => '"+meta+"')")
	testutil.WantRows(t, s, "SELECT id FROM fx.t", "1", "2")
	if notices.Len() != 0 {
		t.Fatalf("unexpected notice: %s", notices.String())
	}
}
