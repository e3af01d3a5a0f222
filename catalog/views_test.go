package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/view"
)

// TestViewMetadataIsIcebergViewSpec checks that a stored view is view
// metadata other Iceberg readers understand: format version 1, a SQL
// representation with its dialect, the default namespace and the schema,
// and that replacing it adds a version instead of losing the first.
func TestViewMetadataIsIcebergViewSpec(t *testing.T) {
	ctx := context.Background()
	w, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CreateNamespace(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "day", Type: iceberg.PrimitiveTypes.Date})
	if err := w.CreateView(ctx, "db", "v", "SELECT day FROM t", schema, false); err != nil {
		t.Fatal(err)
	}
	if err := w.CreateView(ctx, "db", "v", "SELECT 1", schema, false); !errors.Is(err, ErrViewExists) {
		t.Fatalf("creating an existing view: %v, want ErrViewExists", err)
	}
	other := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "n", Type: iceberg.PrimitiveTypes.Int64})
	if err := w.CreateView(ctx, "db", "v", "SELECT count(*) AS n FROM t", other, true); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.viewPath("db", "v"))
	if err != nil {
		t.Fatal(err)
	}
	meta, err := view.ParseMetadataBytes(data)
	if err != nil {
		t.Fatalf("iceberg-go cannot read the view metadata: %v", err)
	}
	if meta.FormatVersion() != 1 || len(meta.Versions()) != 2 || len(meta.Schemas()) != 2 {
		t.Fatalf("format %d, %d versions, %d schemas; want 1, 2, 2", meta.FormatVersion(), len(meta.Versions()), len(meta.Schemas()))
	}
	cur := meta.CurrentVersion()
	want := view.Representation{Type: "sql", Sql: "SELECT count(*) AS n FROM t", Dialect: "spark"}
	if !slices.Equal(cur.Representations, []view.Representation{want}) || !slices.Equal(cur.DefaultNamespace, []string{"db"}) {
		t.Fatalf("current version %+v", cur)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil || raw["view-uuid"] == nil || raw["current-version-id"] != float64(2) {
		t.Fatalf("raw metadata %v (%v)", raw, err)
	}
	v, err := w.LoadView(ctx, "db", "v")
	if err != nil || v == nil || v.SQL != want.Sql || !slices.Equal(v.Columns, []string{"n"}) {
		t.Fatalf("LoadView = %+v, %v", v, err)
	}
	names, err := w.Views(ctx, "db")
	if err != nil || !slices.Equal(names, []string{"v"}) {
		t.Fatalf("Views = %v, %v", names, err)
	}
	// The view file is invisible to the table listing.
	if tables, err := w.Tables(ctx, "db"); err != nil || len(tables) != 0 {
		t.Fatalf("Tables = %v, %v", tables, err)
	}
	if err := w.DropView(ctx, "db", "v", false); err != nil {
		t.Fatal(err)
	}
	if err := w.DropView(ctx, "db", "v", false); !errors.Is(err, ErrNoSuchView) {
		t.Fatalf("dropping a dropped view: %v, want ErrNoSuchView", err)
	}
}
