package lakesql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// read_*, FROM 'file' and register_table refuse a device such as /dev/zero,
// reached directly or through a symlink with a file's name, with one line:
// reading it would never end.
func TestNonRegularFilesAreRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	links := t.TempDir()
	csvLink := filepath.Join(links, "zero.csv")
	metaLink := filepath.Join(links, "t", "metadata", "v1.metadata.json")
	if err := os.MkdirAll(filepath.Dir(metaLink), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{csvLink, metaLink} {
		if err := os.Symlink("/dev/zero", link); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := testutil.Open(t, "CREATE NAMESPACE r", "SET statement_timeout = '20s'")
	testutil.WantError(t, s, "SELECT count(*) FROM read_csv('/dev/zero')", "read_csv: /dev/zero is not a regular file (a device)")
	testutil.WantError(t, s, "SELECT count(*) FROM read_parquet('/dev/zero')", "is not a regular file (a device)")
	testutil.WantError(t, s, "SELECT count(*) FROM '"+csvLink+"'", csvLink+" is not a regular file (a device)")
	testutil.WantError(t, s, "CALL system.register_table(table => 'r.z', metadata_file => '"+metaLink+"')",
		metaLink+" is not a regular file (a device)")
}
