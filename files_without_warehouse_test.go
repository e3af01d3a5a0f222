package lakesql_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesWithoutWarehouse runs `lakesql -e` where no warehouse folder
// exists, as a DuckDB user would: statements on files run, a statement
// that needs a table says the folder is missing, and neither the folder
// nor the scratch warehouse the files ran on is left behind.
func TestFilesWithoutWarehouse(t *testing.T) {
	bin := buildLakesql(t)
	dir, tmp := t.TempDir(), t.TempDir()
	run := func(stmt string) (string, error) {
		cmd := exec.Command(bin, "-e", stmt)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "LAKESQL_WAREHOUSE=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("COPY (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL) TO 'f.csv'"); err != nil {
		t.Fatalf("COPY: %v: %s", err, out)
	}
	if out, err := run("SELECT sum(a), count(b) FROM 'f.csv'"); err != nil || !strings.Contains(out, "│      3 │        1 │") {
		t.Fatalf("query of a file: %v: %s", err, out)
	}
	missing := "Error: warehouse folder ./warehouse does not exist"
	for _, stmt := range []string{"SELECT * FROM db.t", "SELECT * FROM t", "SELECT * FROM 'f.csv' JOIN db.t ON true", "INSERT INTO db.t VALUES (1)"} {
		if out, err := run(stmt); err == nil || !strings.HasPrefix(out, missing) {
			t.Errorf("%s: %v: %s", stmt, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "warehouse")); err == nil {
		t.Error("a statement created the warehouse folder")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("%d scratch folders left in TMPDIR", len(left))
	}
}
