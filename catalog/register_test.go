package catalog

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/storage"
)

func TestRemapResolveLongestPrefix(t *testing.T) {
	fs := &storage.RemapIO{Remaps: []storage.Remap{
		{From: "s3a://warehouse/", To: "/data/wh"},
		{From: "s3a://warehouse/sales", To: "/mnt/sales/"},
	}}
	for in, want := range map[string]string{
		"s3a://warehouse/x/data/a.parquet":  "/data/wh/x/data/a.parquet",
		"s3a://warehouse/sales/data/b.parq": "/mnt/sales/data/b.parq",
		"/local/path/c.parquet":             "/local/path/c.parquet",
	} {
		if got := fs.Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

// latestMetadata is the newest metadata file of a fixture table.
func latestMetadata(t *testing.T, table string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "fixtures", "iceberg", table, "metadata", "*.metadata.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("fixtures not found beside the repository (%v)", err)
	}
	abs, err := filepath.Abs(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestRegisterTableRecordsRemap registers a Trino-written table whose metadata
// says s3a://…, and checks the remap is recorded, survives reopening the
// warehouse, and resolves the table's files into the fixture folder.
func TestRegisterTableRecordsRemap(t *testing.T) {
	ctx := context.Background()
	meta := latestMetadata(t, "no_partitioning")
	dir := t.TempDir()
	wh, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.CreateNamespace(ctx, "fx", false); err != nil {
		t.Fatal(err)
	}
	tbl, err := wh.RegisterTable(ctx, "fx", "t", meta)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.CurrentSnapshot() == nil {
		t.Fatal("registered table has no current snapshot")
	}
	recorded, err := os.ReadFile(filepath.Join(dir, remapFile))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(meta))
	if want := "s3a://warehouse/no_partitioning=" + root; !strings.Contains(string(recorded), want) {
		t.Fatalf("remap file %q does not contain %q", recorded, want)
	}
	reopened, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := reopened.FS().Resolve("s3a://warehouse/no_partitioning/data/x.parquet"); got != root+"/data/x.parquet" {
		t.Fatalf("after reopening, resolves to %q", got)
	}
	if _, err := reopened.RegisterTable(ctx, "fx", "t", meta); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("registering twice: %v", err)
	}
	if _, err := reopened.RegisterTable(ctx, "fx", "u", filepath.Join(dir, "missing.metadata.json")); err == nil {
		t.Fatal("registering a missing metadata file succeeded")
	}
}
