//go:build gcs

package storage_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql/storage"
)

// With -tags gcs, gs:// locations open through iceberg-go's gocloud GCS
// I/O with the Iceberg gcs.* properties, as lakesql's object I/O. A read
// from a store that refuses the connection fails after a bounded number of
// tries, with one line naming the object (Google's client, left alone,
// retries until the request's context ends, and lakesql's reads carry no
// deadline).
func TestGCSLocationOpensAsObjectStorage(t *testing.T) {
	r := &storage.RemapIO{Props: map[string]string{"gcs.no-auth": "true", "gcs.service.host": "http://127.0.0.1:1/storage/v1/"}}
	fsys, err := r.FileSystem("gs://bucket/warehouse/db/t/data/f.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*storage.ObjectIO); !ok {
		t.Fatalf("opened as %T, want *storage.ObjectIO", fsys)
	}
	const name = "gs://bucket/warehouse/db/t/data/f.parquet"
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := f.(io.ReaderAt).ReadAt(make([]byte, 8), 0)
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("refused read failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("read from a refused port: %v, want one line naming %s and the refused connection", err, name)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("a read from a refused port still retries after 2 minutes")
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
