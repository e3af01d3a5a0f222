package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
// says s3a://…, and checks the remap is recorded with the table, survives
// reopening the warehouse, resolves the table's files into the fixture
// folder, and goes with the table when it is dropped.
func TestRegisterTableRecordsRemap(t *testing.T) {
	ctx := context.Background()
	meta := latestMetadata(t, "no_partitioning")
	dir := t.TempDir()
	wh := openWithNamespace(t, dir)
	tbl, err := wh.RegisterTable(ctx, "fx", "t", meta)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.CurrentSnapshot() == nil {
		t.Fatal("registered table has no current snapshot")
	}
	recorded, err := os.ReadFile(filepath.Join(dir, "fx", "t", tableRemapFile))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(meta))
	if want := "s3a://warehouse/no_partitioning=" + root + "\n"; !strings.Contains(string(recorded), want) {
		t.Fatalf("remap file %q does not contain %q", recorded, want)
	}
	reopened, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := reopened.FS().Resolve("s3a://warehouse/no_partitioning/data/x.parquet"); got != root+"/data/x.parquet" {
		t.Fatalf("after reopening, resolves to %q", got)
	}
	if got := reopened.FS().Resolve("s3a://warehouse/no_partitioning_2/data/x.parquet"); got != "s3a://warehouse/no_partitioning_2/data/x.parquet" {
		t.Fatalf("another table's path resolves to %q: the remap covers more than its table", got)
	}
	if _, err := reopened.RegisterTable(ctx, "fx", "t", meta); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("registering twice: %v", err)
	}
	if _, err := reopened.DropTable(ctx, "fx", "t", false); err != nil {
		t.Fatal(err)
	}
	if got := reopened.FS().Resolve("s3a://warehouse/no_partitioning/data/x.parquet"); got != "s3a://warehouse/no_partitioning/data/x.parquet" {
		t.Fatalf("after DROP TABLE, resolves to %q", got)
	}
	// The location is free again.
	if _, err := reopened.RegisterTable(ctx, "fx", "again", meta); err != nil {
		t.Fatal(err)
	}
}

func openWithNamespace(t *testing.T, dir string) *Warehouse {
	t.Helper()
	wh, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.CreateNamespace(context.Background(), "fx", true); err != nil {
		t.Fatal(err)
	}
	return wh
}

// copyFixture copies a fixture table to a temporary folder and returns the
// copy's folder and latest metadata file.
func copyFixture(t *testing.T, name string) (folder, meta string) {
	t.Helper()
	src := filepath.Dir(filepath.Dir(latestMetadata(t, name)))
	folder = filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(folder, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return folder, filepath.Join(folder, "metadata", filepath.Base(latestMetadata(t, name)))
}

// folderState is every file and folder below dir with its content.
func folderState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if e.IsDir() {
			state[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(path)
		state[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// TestRegisterTableFailuresWriteNothing: every way register_table fails
// leaves the warehouse folder byte for byte as it was, and a good table
// registered before stays readable.
func TestRegisterTableFailuresWriteNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	wh := openWithNamespace(t, dir)
	good := latestMetadata(t, "no_partitioning")
	if _, err := wh.RegisterTable(ctx, "fx", "good", good); err != nil {
		t.Fatal(err)
	}

	_, parentMeta := copyFixture(t, "no_partitioning")
	editMetadata(t, parentMeta, func(m map[string]any) { m["location"] = "s3a://warehouse" })
	missingData, missingDataMeta := copyFixture(t, "bucket_partitioning")
	removeAll(t, filepath.Join(missingData, "data"))
	missingList, missingListMeta := copyFixture(t, "identity_partitioning")
	lists, _ := filepath.Glob(filepath.Join(missingList, "metadata", "snap-*.avro"))
	removeAll(t, lists[0])
	_, sameLocation := copyFixture(t, "no_partitioning")
	_, notIceberg := copyFixture(t, "no_partitioning")
	if err := os.WriteFile(notIceberg, []byte(`{"location": "s3a://warehouse/no_partitioning"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	loose := filepath.Join(t.TempDir(), "v1.metadata.json")
	if err := os.WriteFile(loose, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder left by a table dropped without PURGE, holding a file of the
	// name the registration would write.
	leftover := filepath.Join(dir, "fx", "leftover")
	if err := os.MkdirAll(leftover, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(leftover, tableRemapFile), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, leftoverMeta := copyFixture(t, "year_date_partitioning")

	for _, c := range []struct {
		name, table, meta, want string
	}{
		{"missing file", "a", filepath.Join(dir, "missing", "metadata", "v1.metadata.json"), "read metadata file"},
		{"not in a metadata folder", "a", loose, "is not in the metadata folder of a table"},
		{"not Iceberg metadata", "a", notIceberg, "is not valid Iceberg table metadata"},
		{"location holds a registered table's", "a", parentMeta, "location s3a://warehouse overlaps location s3a://warehouse/no_partitioning, registered as fx.good"},
		{"data file missing", "a", missingDataMeta, "cannot be read at " + filepath.Join(missingData, "data")},
		{"manifest list missing", "a", missingListMeta, "read manifest list of snapshot"},
		{"location already registered", "a", sameLocation, "location s3a://warehouse/no_partitioning is already registered, as fx.good"},
		{"table exists", "good", good, "table fx.good already exists"},
		{"namespace missing", "a", good, "namespace nope does not exist"},
		{"file in the way", "leftover", leftoverMeta, "already exists"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ns := "fx"
			if c.name == "namespace missing" {
				ns = "nope"
			}
			wantRefused(t, wh, ns, c.table, c.meta, c.want)
			if got := wh.FS().Resolve("s3a://warehouse/no_partitioning/x"); got != filepath.Dir(filepath.Dir(good))+"/x" {
				t.Fatalf("the good table's files now resolve to %s", got)
			}
		})
	}
	if _, err := wh.LoadTable(ctx, "fx", "good"); err != nil {
		t.Fatal(err)
	}

	// Alone in a warehouse, a table whose metadata names a parent of its
	// folder is refused too: its files are not where that location says.
	parentLocation := filepath.Dir(filepath.Dir(parentMeta))
	wantRefused(t, openWithNamespace(t, t.TempDir()), "fx", "a", parentMeta,
		"(the metadata's location s3a://warehouse, read as "+parentLocation+", must be the table's own folder)")
}

// wantRefused checks that registering fails with an error of one line
// containing want, and that the warehouse folder has not changed.
func wantRefused(t *testing.T, wh *Warehouse, ns, name, meta, want string) {
	t.Helper()
	before := folderState(t, wh.Dir())
	_, err := wh.RegisterTable(context.Background(), ns, name, meta)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got error %v, want one containing %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error of several lines: %q", err)
	}
	if after := folderState(t, wh.Dir()); !maps.Equal(before, after) {
		t.Fatalf("the warehouse changed:\nbefore %v\nafter  %v", slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
	}
}

// TestDropHalfRegisteredTable: a table an older lakesql left half-registered
// (unloadable metadata, and a remap of a parent prefix in the warehouse's
// shared remap file that captured other tables' files) can be dropped, and
// the drop removes that remap.
func TestDropHalfRegisteredTable(t *testing.T) {
	ctx := context.Background()
	for _, purge := range []bool{false, true} {
		dir := t.TempDir()
		metaDir := filepath.Join(dir, "fx", "half", "metadata")
		if err := os.MkdirAll(metaDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(metaDir, "v1.metadata.json"), []byte(`{"location": "s3a://warehouse", "format-version": 2}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, remapFile), []byte("s3a://warehouse=/elsewhere\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		wh := openWithNamespace(t, dir)
		if _, err := wh.LoadTable(ctx, "fx", "half"); err == nil {
			t.Fatal("the half-registered table loads")
		}
		if _, err := wh.DropTable(ctx, "fx", "half", purge); err != nil {
			t.Fatalf("DROP TABLE (purge %v): %v", purge, err)
		}
		if ok, _ := wh.TableExists(ctx, "fx", "half"); ok {
			t.Fatal("the table still exists")
		}
		if got := wh.FS().Resolve("s3a://warehouse/other/x"); got != "s3a://warehouse/other/x" {
			t.Fatalf("the half-registered table's remap is still in effect: %s", got)
		}
		if reopened, err := Open(dir, nil); err != nil || len(reopened.FS().Remaps) != 0 {
			t.Fatalf("after reopening: %v, remaps %v", err, reopened.FS().Remaps)
		}
		// The metadata location names its table folder now: good to register.
		if _, err := wh.RegisterTable(ctx, "fx", "t", latestMetadata(t, "no_partitioning")); err != nil {
			t.Fatal(err)
		}
	}
}

func editMetadata(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // snapshot ids do not fit a float64
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func removeAll(t *testing.T, path string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
}
