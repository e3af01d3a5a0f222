package restserver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"
	"github.com/google/uuid"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// iceberg-go's REST client creates a view through the server with the SQL
// of another engine beside lakesql's, replaces it with a commit, and is
// refused (409) a commit whose requirement the view no longer meets;
// lakesql, on the warehouse folder, reads the view's spark SQL.
func TestIcebergGoClientViews(t *testing.T) {
	ctx := context.Background()
	uri, dir := serve(t, "")
	cat, err := rest.NewCatalog(ctx, "lakesql", uri)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "n", Type: iceberg.PrimitiveTypes.Int32})
	version := func(sql string) *view.Version {
		v, err := view.NewVersion(1, view.LastAddedID, []view.Representation{
			view.NewRepresentation(sql, "spark"), view.NewRepresentation(sql+" -- trino", "trino"),
		}, table.Identifier{"db"})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ident := table.Identifier{"db", "v"}
	created, err := cat.CreateView(ctx, ident, version("SELECT 1 AS n"), schema)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateView(ctx, ident, version("SELECT 2 AS n"), schema); !errors.Is(err, icecatalog.ErrViewAlreadyExists) {
		t.Fatalf("creating db.v again: %v, want ErrViewAlreadyExists", err)
	}
	// The replacement re-adds the schema the view has, as Iceberg's Java
	// clients do when the columns stay.
	replaced, err := cat.UpdateView(ctx, ident, []view.Requirement{view.AssertViewUUID(created.Metadata().ViewUUID())}, []view.Update{
		view.NewAddSchemaUpdate(schema), view.NewAddViewVersionUpdate(version("SELECT 3 AS n")), view.NewSetCurrentVersionUpdate(view.LastAddedID),
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, m := len(replaced.Versions()), len(replaced.Schemas()); n != 2 || m != 1 {
		t.Fatalf("replaced view has %d versions and %d schemas, want 2 and 1", n, m)
	}
	_, err = cat.UpdateView(ctx, ident, []view.Requirement{view.AssertViewUUID(uuid.New())}, []view.Update{
		view.NewSetPropertiesUpdate(iceberg.Properties{"owner": "stale"}),
	})
	if !errors.Is(err, rest.ErrCommitFailed) {
		t.Fatalf("commit with a stale requirement: %v, want ErrCommitFailed (409)", err)
	}
	loaded, err := cat.LoadView(ctx, ident)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Properties()["owner"] != "" || len(loaded.CurrentVersion().Representations) != 2 {
		t.Fatalf("loaded view: properties %v, version %+v", loaded.Properties(), loaded.CurrentVersion())
	}

	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	testutil.WantRows(t, s, "SELECT n FROM db.v", "3")
	testutil.Exec(t, s, "DROP VIEW db.v")
	if exists, err := cat.CheckViewExists(ctx, ident); err != nil || exists {
		t.Fatalf("db.v exists after DROP VIEW: %v, %v", exists, err)
	}
}
