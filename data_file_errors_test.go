package lakesql

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataFiles lists the Parquet files under a table folder.
func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "db", "t", "data", "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no data files in %s (%v)", dir, err)
	}
	return files
}

// TestMissingAndTruncatedDataFiles checks that a broken table fails with a
// one-line error naming the file, and that the session keeps working.
func TestMissingAndTruncatedDataFiles(t *testing.T) {
	for _, damage := range []string{"missing", "truncated"} {
		t.Run(damage, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(context.Background(), Options{Warehouse: dir})
			if err != nil {
				t.Fatal(err)
			}
			mustExec(t, s, "CREATE NAMESPACE db", "CREATE TABLE db.t (a INT, b STRING)",
				"INSERT INTO db.t VALUES (1, 'x'), (2, 'y')")
			file := dataFiles(t, dir)[0]
			if damage == "missing" {
				err = os.Remove(file)
			} else {
				err = os.Truncate(file, 20)
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Exec(context.Background(), "SELECT * FROM db.t")
			if err == nil {
				_, err = res.Next(context.Background())
				res.Close()
			}
			if err == nil {
				t.Fatal("no error reading a damaged table")
			}
			if msg := err.Error(); !strings.Contains(msg, file) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q should be one line naming %s", msg, file)
			}
			if rows := queryRows(t, s, "SELECT 1"); len(rows) != 1 {
				t.Fatalf("session broken after the error: %v", rows)
			}
		})
	}
}

// TestTargetFileSizeRollsFiles checks that write.target-file-size-bytes
// splits one INSERT into several files, all in one snapshot.
func TestTargetFileSizeRollsFiles(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(context.Background(), Options{Warehouse: dir})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE NAMESPACE db",
		"CREATE TABLE db.src (a INT)",
		"INSERT INTO db.src VALUES (1), (2), (3)",
		"INSERT INTO db.src VALUES (4), (5)",
		"INSERT INTO db.src VALUES (6)",
		"CREATE TABLE db.t (a INT) TBLPROPERTIES ('write.target-file-size-bytes' = '1')",
		"INSERT INTO db.t SELECT a FROM db.src",
	)
	if n := len(dataFiles(t, dir)); n != 3 {
		t.Fatalf("got %d files, want one per input batch (3)", n)
	}
	if rows := queryRows(t, s, "SELECT a FROM db.t"); len(rows) != 6 {
		t.Fatalf("got %v", rows)
	}
	tbl, err := s.Warehouse().LoadTable(context.Background(), "db", "t")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tbl.Metadata().Snapshots()); n != 1 {
		t.Fatalf("INSERT made %d snapshots, want 1", n)
	}
}
