package lakesql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestMissingAndTruncatedDataFiles checks that a broken table fails with a
// one-line error naming the file, and that the session keeps working.
func TestMissingAndTruncatedDataFiles(t *testing.T) {
	for _, damage := range []string{"missing", "truncated"} {
		t.Run(damage, func(t *testing.T) {
			s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (a INT, b STRING)",
				"INSERT INTO db.t VALUES (1, 'x'), (2, 'y')")
			file := testutil.LiveFiles(t, s, "db", "t")[0]
			var err error
			if damage == "missing" {
				err = os.Remove(file)
			} else {
				err = os.Truncate(file, 20)
			}
			if err != nil {
				t.Fatal(err)
			}
			testutil.WantError(t, s, "SELECT * FROM db.t", file)
			if rows := testutil.Rows(t, s, "SELECT 1"); len(rows) != 1 {
				t.Fatalf("session broken after the error: %v", rows)
			}
		})
	}
}

// TestTargetFileSizeRollsFiles checks that write.target-file-size-bytes
// splits one INSERT into several files, all in one snapshot.
func TestTargetFileSizeRollsFiles(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db",
		"CREATE TABLE db.src (a INT)",
		"INSERT INTO db.src VALUES (1), (2), (3)",
		"INSERT INTO db.src VALUES (4), (5)",
		"INSERT INTO db.src VALUES (6)",
		"CREATE TABLE db.t (a INT) TBLPROPERTIES ('write.target-file-size-bytes' = '1')",
		"INSERT INTO db.t SELECT a FROM db.src",
	)
	if files := testutil.FilesBelow(t, filepath.Join(dir, "db", "t", "data")); len(files) != 3 {
		t.Fatalf("got files %v, want one per input batch (3)", files)
	}
	testutil.WantRows(t, s, "SELECT a FROM db.t", "1", "2", "3", "4", "5", "6")
	if n := len(testutil.Table(t, s, "db", "t").Metadata().Snapshots()); n != 1 {
		t.Fatalf("INSERT made %d snapshots, want 1", n)
	}
}
