package lakesql_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/catalog/restserver"
	"github.com/lakesql/lakesql/internal/testutil"
)

// Views in an SQL catalog on SQLite: created, read, replaced, listed and
// dropped through iceberg-go's SQL catalog, seen by a second session.
func TestViewsInSQLiteCatalog(t *testing.T) {
	dir := t.TempDir()
	viewsFlow(t, filepath.Join(dir, "warehouse"), "sqlite:"+filepath.Join(dir, "catalog.db"), nil)
}

// The same in an SQL catalog on PostgreSQL.
func TestViewsInPostgresCatalog(t *testing.T) {
	viewsFlow(t, filepath.Join(t.TempDir(), "warehouse"), testutil.Postgres(t), nil)
}

// The same through a REST catalog: lakesql's REST client against lakesql
// serve --rest (its handler) on a warehouse folder, whose filesystem
// catalog keeps the views.
func TestViewsInRESTCatalog(t *testing.T) {
	tmp := t.TempDir()
	served := filepath.Join(tmp, "served")
	wh, err := catalog.Open(served, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(restserver.New(wh, "").Handler())
	t.Cleanup(srv.Close)
	viewsFlow(t, filepath.Join(tmp, "warehouse"), srv.URL, func() {
		// The server kept the view as the filesystem catalog does: a
		// lakesql session on that folder reads it.
		s := testutil.OpenWith(t, lakesql.Options{Warehouse: served})
		testutil.WantRows(t, s, "SELECT * FROM db.big", "4|NULL")
	})
	if _, err := os.Stat(filepath.Join(served, "db")); !os.IsNotExist(err) {
		t.Fatalf("the served namespace's folder after DROP NAMESPACE db CASCADE: %v", err)
	}
}

// viewsFlow runs the view statements on a warehouse with the catalog uri;
// check, when given, runs before the namespace is dropped.
func viewsFlow(t *testing.T, dir, uri string, check func()) {
	opts := lakesql.Options{Warehouse: dir, CatalogURI: uri}
	s := testutil.OpenWith(t, opts,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id BIGINT, name STRING)",
		"INSERT INTO db.t VALUES (1, 'a'), (2, NULL), (3, 'c'), (4, NULL)",
		"CREATE VIEW db.named AS SELECT id, name FROM db.t WHERE name IS NOT NULL",
		"CREATE VIEW db.big AS SELECT * FROM t WHERE id > 2", // t in the view's namespace
	)
	testutil.WantRows(t, s, "SELECT * FROM db.named ORDER BY id", "1|a", "3|c")
	testutil.WantRows(t, s, "SELECT * FROM db.big ORDER BY id", "3|c", "4|NULL")
	testutil.WantRows(t, s, "SHOW VIEWS IN db", "db|big|false", "db|named|false")
	testutil.WantError(t, s, "CREATE VIEW db.named AS SELECT 1", "view db.named already exists")
	testutil.WantError(t, s, "CREATE TABLE db.named (a INT)", "db.named is a view")
	testutil.WantError(t, s, "CREATE VIEW db.t AS SELECT 1", "db.t is a table, not a view")
	testutil.WantError(t, s, "CREATE VIEW nowhere.v AS SELECT 1", "nowhere")

	// A second session, with nothing cached, sees the views; a
	// replacement made there is what the first session reads next.
	other := testutil.OpenWith(t, opts)
	testutil.WantRows(t, other, "SELECT count(*) FROM db.named", "2")
	testutil.Exec(t, other, "CREATE OR REPLACE VIEW db.named AS SELECT id, name, id * 10 AS tens FROM db.t WHERE name IS NULL")
	testutil.WantRows(t, s, "SELECT * FROM db.named ORDER BY id", "2|NULL|20", "4|NULL|40")
	// A replacement with the columns the view had.
	testutil.Exec(t, other, "CREATE OR REPLACE VIEW db.big AS SELECT * FROM t WHERE id > 3")
	testutil.WantRows(t, s, "SELECT * FROM db.big", "4|NULL")
	testutil.WantRows(t, s, "DESCRIBE db.named", "# view|SELECT id, name, (id * 10) AS tens FROM db.t WHERE (name IS NULL)||db.named",
		"id|BIGINT|YES|", "name|STRING|YES|", "tens|BIGINT|YES|")

	testutil.Exec(t, s, "DROP VIEW db.named")
	testutil.WantError(t, s, "SELECT * FROM db.named", "named")
	testutil.WantError(t, s, "DROP VIEW db.named", "view db.named does not exist")
	testutil.Exec(t, s, "DROP VIEW IF EXISTS db.named")
	testutil.WantRows(t, other, "SHOW VIEWS IN db", "db|big|false")
	testutil.WantRows(t, s, "SELECT count(*) FROM db.t", "4")

	// The catalog itself (iceberg-go's view API) lists what lakesql left.
	wh, err := catalog.OpenConfig(context.Background(), catalog.Config{Name: "lakesql", Warehouse: dir, URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	type viewLister interface {
		CheckViewExists(context.Context, table.Identifier) (bool, error)
	}
	if c, ok := wh.Catalog().(viewLister); !ok {
		t.Fatalf("catalog %T has no view API", wh.Catalog())
	} else if exists, err := c.CheckViewExists(context.Background(), table.Identifier{"db", "big"}); err != nil || !exists {
		t.Fatalf("iceberg-go's catalog: view db.big exists = %v, %v", exists, err)
	}

	testutil.WantError(t, s, "DROP NAMESPACE db", "namespace db is not empty (tables and views: t, big)")
	if check != nil {
		check()
	}
	// CASCADE drops the view with the table (through REST, the server is
	// asked to purge the table's folder, which it owns).
	testutil.Exec(t, s, "DROP NAMESPACE db CASCADE")
	testutil.WantRows(t, other, "SHOW NAMESPACES")
	if exists, err := wh.Catalog().(viewLister).CheckViewExists(context.Background(), table.Identifier{"db", "big"}); err != nil || exists {
		t.Fatalf("iceberg-go's catalog after DROP NAMESPACE CASCADE: view db.big exists = %v, %v", exists, err)
	}
}
