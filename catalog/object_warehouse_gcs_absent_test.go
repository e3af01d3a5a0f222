//go:build !gcs

package catalog_test

import (
	"testing"

	"github.com/lakesql/lakesql/catalog"
)

// Without -tags gcs, a gs:// warehouse says on one line how to build a
// lakesql that opens it (not iceberg-go's hint to import its GCS module).
func TestGCSWarehouseNeedsTheBuildTag(t *testing.T) {
	_, err := catalog.Open("gs://bucket/wh", nil)
	want := "open gs://bucket: gs:// locations need a lakesql built with -tags gcs (go build -tags gcs ./cmd/lakesql)"
	if err == nil || err.Error() != want {
		t.Fatalf("gs:// warehouse without the gcs build tag: %v, want %q", err, want)
	}
}
