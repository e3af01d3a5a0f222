//go:build gcs

package lakesql_test

import (
	"path/filepath"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// The same flow on Google Cloud Storage (fake-gcs-server), through
// iceberg-go's gocloud GCS I/O configured with the gcs.* properties: with
// the warehouse's own (filesystem) catalog and with an SQL catalog on
// SQLite.
func TestTutorialFlowOnGCS(t *testing.T) {
	g := testutil.StartGCS(t)
	tutorialFlow(t, g.Location("warehouse"), "", g.Props())
	tutorialFlow(t, g.Location("sqlite-warehouse"), "sqlite:"+filepath.Join(t.TempDir(), "catalog.db"), g.Props())
}
