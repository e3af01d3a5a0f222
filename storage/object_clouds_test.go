package storage_test

import (
	"io"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage"
)

// gs:// and abfs:// locations open through iceberg-go's gocloud I/O with
// the Iceberg gcs.* and adls.* properties, as lakesql's object I/O. No
// server is reached here: the endpoint properties point at a closed port.
// An Azure read then fails with one line naming that endpoint; a GCS read
// is not tried, since Google's client retries a refused connection until
// its context ends, and lakesql's reads carry none.
func TestCloudLocationsOpenAsObjectStorage(t *testing.T) {
	for _, c := range []struct {
		location string
		props    map[string]string
		want     string
	}{
		{"gs://bucket/warehouse/db/t/data/f.parquet",
			map[string]string{"gcs.no-auth": "true", "gcs.service.host": "http://127.0.0.1:1/storage/v1/"}, ""},
		{"abfs://lake@acct.dfs.core.windows.net/warehouse/db/t/data/f.parquet",
			map[string]string{"adls.auth.shared-key.account.name": "acct", "adls.auth.shared-key.account.key": "a2V5", "adls.endpoint": "127.0.0.1:1", "adls.protocol": "http"}, "127.0.0.1:1"},
	} {
		r := &storage.RemapIO{Props: c.props}
		fsys, err := r.FileSystem(c.location)
		if err != nil {
			t.Fatalf("%s: %v", c.location, err)
		}
		if _, ok := fsys.(*storage.ObjectIO); !ok {
			t.Fatalf("%s: opened as %T, want *storage.ObjectIO", c.location, fsys)
		}
		if c.want == "" {
			continue
		}
		f, err := r.Open(c.location)
		if err == nil {
			_, err = f.(io.ReaderAt).ReadAt(make([]byte, 8), 0)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: read error %v, want one line naming %s", c.location, err, c.want)
		}
	}
}

// Without credentials a gs:// bucket does not open, with one line saying
// which property gives them.
func TestCloudLocationWithoutCredentials(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", t.TempDir()+"/missing.json")
	r := &storage.RemapIO{}
	_, err := r.FileSystem("gs://bucket/warehouse")
	if err == nil || !strings.Contains(err.Error(), "open gs://bucket: gcs: no credentials found; set gcs.no-auth=true") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("gs:// without credentials: %v, want one line naming gcs.no-auth", err)
	}
}
