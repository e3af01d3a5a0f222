//go:build gcs

package lakesql_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// On Google Cloud Storage (fake-gcs-server), a one-day query on a
// day-partitioned table reads that day's file only, with ranged GETs.
func TestGCSOneDayQueryIsFewRangedGets(t *testing.T) {
	g := testutil.StartGCS(t)
	oneDayQueryOnCloud(t, g.Location("warehouse"), g.Props(), g.Requests)
}

// Four sessions insert into one table of a filesystem-style warehouse on
// GCS at once; no commit is lost.
func TestGCSConcurrentInsertsLoseNoCommit(t *testing.T) {
	g := testutil.StartGCS(t)
	concurrentInsertsOnCloud(t, g.Location("warehouse"), g.Props())
}

// A filesystem-style warehouse in a missing GCS bucket is refused when it
// is opened, on one line saying what configures the store.
func TestGCSWarehouseInMissingBucket(t *testing.T) {
	g := testutil.StartGCS(t)
	_, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: "gs://nosuch/wh", CatalogProps: g.Props()})
	want := "bucket nosuch of warehouse gs://nosuch/wh does not exist (at " + g.Endpoint + "/storage/v1/; check the gcs.* properties"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("warehouse in a missing bucket: %v, want one line containing %q", err, want)
	}
}
