package lakesql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestDeletionVectorOnlyForSurvivingFiles: a deletion vector is read only for
// a data file the scan keeps. The Trino fixture's first vector (of the first
// data file, c1 0..7) is damaged; a query whose stats pruning drops that file
// still answers, and one that reads the file fails naming the vector's file.
func TestDeletionVectorOnlyForSurvivingFiles(t *testing.T) {
	dir := dmlCopyFixture(t, "deletion_vectors")
	vector := filepath.Join(dir, "data", "dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988.puffin")
	if err := os.Truncate(vector, 10); err != nil {
		t.Fatal(err)
	}
	s, _ := testutil.Open(t, "CREATE NAMESPACE fx",
		"CALL system.register_table(table => 'fx.dv', metadata_file => '"+filepath.Join(dir, "metadata", "00004-ae0294d0-1de5-4fab-97f1-cd80e0078fa4.metadata.json")+"')")
	const beforeSecondDelete = " FOR VERSION AS OF 7026943662205930455"

	testutil.WantRows(t, s, "SELECT c1 FROM fx.dv"+beforeSecondDelete+" WHERE c1 >= 8", "8", "9", "10", "11", "12", "13", "14", "15")
	testutil.WantRows(t, s, "SELECT count(*) FROM fx.dv"+beforeSecondDelete+" WHERE c1 >= 8", "8")
	testutil.WantError(t, s, "SELECT c1 FROM fx.dv"+beforeSecondDelete, "dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988.puffin")
	// The current snapshot's vectors are in another Puffin file.
	testutil.WantRows(t, s, "SELECT c1 FROM fx.dv", "2", "5", "8", "9", "11", "12", "14", "15")
}
