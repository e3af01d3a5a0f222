package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"

	"github.com/lakesql/lakesql/catalog"
)

// A catalog declared by name in iceberg-go's configuration file is opened
// by that name; the same SQLite catalog opened by its URI holds the same
// tables, and another name (another catalog_name) holds none of them.
func TestCatalogFromIcebergGoConfiguration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "catalog.db")
	yaml := "catalog:\n  prod:\n    type: sql\n    uri: sqlite:" + db + "\n    warehouse: " + filepath.Join(dir, "lake") + "\n"
	if err := os.WriteFile(filepath.Join(dir, ".iceberg-go.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOICEBERG_HOME", dir)

	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: "prod", Warehouse: filepath.Join(dir, "unused")})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	if got := wh.Catalog().CatalogType(); got != icecatalog.SQL {
		t.Fatalf("catalog prod is %s, want sql", got)
	}
	if err := wh.CreateNamespace(ctx, "sales", false); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64})
	tbl, err := wh.CreateTable(ctx, "sales", "orders", schema, *iceberg.UnpartitionedSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tbl.Location(), filepath.Join(dir, "lake")) {
		t.Fatalf("table location %s is not in the configured warehouse %s", tbl.Location(), filepath.Join(dir, "lake"))
	}

	same, err := catalog.OpenConfig(ctx, catalog.Config{Name: "prod", URI: "sqlite:" + db, Warehouse: filepath.Join(dir, "lake")})
	if err != nil {
		t.Fatal(err)
	}
	defer same.Close()
	if got, err := same.Tables(ctx, "sales"); err != nil || !slices.Equal(got, []string{"orders"}) {
		t.Fatalf("by URI: tables %v (%v), want orders", got, err)
	}
	other, err := catalog.OpenConfig(ctx, catalog.Config{Name: "dev", URI: "sqlite:" + db, Warehouse: filepath.Join(dir, "lake")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if got, _ := other.Namespaces(ctx); len(got) != 0 {
		t.Fatalf("catalog dev in the same database sees namespaces %v, want none", got)
	}
}

func TestCatalogURIErrors(t *testing.T) {
	ctx := context.Background()
	t.Setenv("GOICEBERG_HOME", t.TempDir())
	for uri, want := range map[string]string{
		"mysql://u@h/db": `catalog URI mysql://u@h/db: unknown kind "mysql"`,
		"sqlite:":        "catalog URI sqlite:: want sqlite:PATH",
	} {
		_, err := catalog.OpenConfig(ctx, catalog.Config{Name: "x", URI: uri, Warehouse: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", uri, err, want)
		}
	}
	if _, err := catalog.OpenConfig(ctx, catalog.Config{Name: "x", URI: "sqlite:" + filepath.Join(t.TempDir(), "c.db")}); err == nil || !strings.Contains(err.Error(), "needs a warehouse location") {
		t.Errorf("no warehouse: %v", err)
	}
}

// register_table in an SQL catalog is refused with one line: iceberg-go's
// SQL catalog cannot register tables.
func TestRegisterTableInSQLCatalogIsRefused(t *testing.T) {
	ctx := context.Background()
	t.Setenv("GOICEBERG_HOME", t.TempDir())
	dir := t.TempDir()
	wh, err := catalog.OpenConfig(ctx, catalog.Config{Name: "lakesql", URI: "sqlite:" + filepath.Join(dir, "c.db"), Warehouse: filepath.Join(dir, "lake")})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	if err := wh.CreateNamespace(ctx, "db", false); err != nil {
		t.Fatal(err)
	}
	_, err = wh.RegisterTable(ctx, "db", "t", filepath.Join(dir, "elsewhere", "v1.metadata.json"))
	if err == nil || err.Error() != "register table db.t: the sql catalog cannot register tables" {
		t.Fatalf("register_table in an SQL catalog: %v", err)
	}
}
