package lakesql_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lakesql/lakesql/internal/testutil"
)

// A writer killed between claiming the next metadata version and publishing
// it leaves vN.metadata.json.claim behind. The next writer takes over a
// claim older than a few seconds instead of failing for a minute.
func TestStaleMetadataClaimIsTakenOver(t *testing.T) {
	s, dir := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)", "INSERT INTO db.t VALUES (1)")
	meta := filepath.Join(dir, "db", "t", "metadata")
	versions, err := filepath.Glob(filepath.Join(meta, "v*.metadata.json"))
	if err != nil || len(versions) == 0 {
		t.Fatalf("no metadata versions in %s (%v)", meta, err)
	}
	claim := filepath.Join(meta, fmt.Sprintf("v%d.metadata.json.claim", len(versions)+1))
	if err := os.WriteFile(claim, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute / 2)
	if err := os.Chtimes(claim, old, old); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (2)")
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the insert waited %s", took)
	}
	testutil.WantRows(t, s, "SELECT id FROM db.t", "1", "2")
}
