//go:build gcs

package lakesql_test

import (
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// On Google Cloud Storage (fake-gcs-server), a one-day query on a
// day-partitioned table reads that day's file only, with ranged GETs.
func TestGCSOneDayQueryIsFewRangedGets(t *testing.T) {
	g := testutil.StartGCS(t)
	oneDayQueryOnCloud(t, g.Location("warehouse"), g.Props(), g.Requests)
}
