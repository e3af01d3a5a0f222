//go:build !gcs

package storage_test

import (
	"testing"

	"github.com/lakesql/lakesql/storage"
)

// Without -tags gcs a gs:// location says, on one line, how to build a
// lakesql that reads it.
func TestGCSLocationNeedsTheBuildTag(t *testing.T) {
	_, err := (&storage.RemapIO{}).FileSystem("gs://bucket/warehouse")
	want := "open gs://bucket: gs:// locations need a lakesql built with -tags gcs (go build -tags gcs ./cmd/lakesql)"
	if err == nil || err.Error() != want {
		t.Fatalf("gs:// without the gcs build tag: %v, want %q", err, want)
	}
}
