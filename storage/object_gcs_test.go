//go:build gcs

package storage_test

import (
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage"
)

// With -tags gcs, gs:// locations open through iceberg-go's gocloud GCS
// I/O with the Iceberg gcs.* properties, as lakesql's object I/O. No read
// is tried: Google's client retries a refused connection until its
// context ends, and lakesql's reads carry none.
func TestGCSLocationOpensAsObjectStorage(t *testing.T) {
	r := &storage.RemapIO{Props: map[string]string{"gcs.no-auth": "true", "gcs.service.host": "http://127.0.0.1:1/storage/v1/"}}
	fsys, err := r.FileSystem("gs://bucket/warehouse/db/t/data/f.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*storage.ObjectIO); !ok {
		t.Fatalf("opened as %T, want *storage.ObjectIO", fsys)
	}
}

// Without credentials a gs:// bucket does not open, with one line saying
// which property gives them.
func TestGCSLocationWithoutCredentials(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", t.TempDir()+"/missing.json")
	_, err := (&storage.RemapIO{}).FileSystem("gs://bucket/warehouse")
	if err == nil || !strings.Contains(err.Error(), "open gs://bucket: gcs: no credentials found; set gcs.no-auth=true") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("gs:// without credentials: %v, want one line naming gcs.no-auth", err)
	}
}
