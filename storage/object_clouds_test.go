package storage_test

import (
	"io"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage"
)

// abfs:// locations open through iceberg-go's gocloud Azure I/O with the
// Iceberg adls.* properties, as lakesql's object I/O. No server is reached:
// the endpoint property points at a closed port, so a read fails, after
// the SDK's retries, with one line naming that endpoint.
func TestAzureLocationOpensAsObjectStorage(t *testing.T) {
	location := "abfs://lake@acct.dfs.core.windows.net/warehouse/db/t/data/f.parquet"
	r := &storage.RemapIO{Props: map[string]string{
		"adls.auth.shared-key.account.name": "acct", "adls.auth.shared-key.account.key": "a2V5",
		"adls.endpoint": "127.0.0.1:1", "adls.protocol": "http",
	}}
	fsys, err := r.FileSystem(location)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*storage.ObjectIO); !ok {
		t.Fatalf("opened as %T, want *storage.ObjectIO", fsys)
	}
	f, err := r.Open(location)
	if err == nil {
		_, err = f.(io.ReaderAt).ReadAt(make([]byte, 8), 0)
	}
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "\n") {
		t.Errorf("read error %v, want one line naming 127.0.0.1:1", err)
	}
}
