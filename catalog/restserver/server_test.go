package restserver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/catalog/restserver"
	"github.com/lakesql/lakesql/internal/testutil"
)

// serve starts the REST catalog of a fresh warehouse folder; it returns
// the server's URL and the folder.
func serve(t *testing.T, token string) (string, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "warehouse")
	wh, err := catalog.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(restserver.New(wh, token).Handler())
	t.Cleanup(srv.Close)
	return srv.URL, dir
}

// iceberg-go's REST client creates a table through the server, appends
// rows with iceberg-go's own writer and reads them back; lakesql, on the
// same warehouse folder, reads the same rows, and writes rows iceberg-go
// then reads through the server.
func TestIcebergGoClientCreatesAppendsAndReads(t *testing.T) {
	ctx := context.Background()
	uri, dir := serve(t, "")
	cat, err := rest.NewCatalog(ctx, "lakesql", uri)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String})
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, schema)
	if err != nil {
		t.Fatal(err)
	}
	arrowSchema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrowSchema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "", "c"}, []bool{true, false, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	arrowTable := array.NewTableFromRecords(arrowSchema, []arrow.RecordBatch{rec})
	defer arrowTable.Release()
	if tbl, err = tbl.AppendTable(ctx, arrowTable, 1024, nil); err != nil {
		t.Fatalf("iceberg-go append through the REST catalog: %v", err)
	}

	want := []string{"1|a", "2|NULL", "3|c"}
	if got := testutil.IcebergGoFrom(t, cat, "db", "t", 0).Rows; !slices.Equal(got, want) {
		t.Fatalf("iceberg-go reads back %v, want %v", got, want)
	}
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: dir})
	if got := testutil.Rows(t, s, "SELECT id, name FROM db.t"); !slices.Equal(got, want) {
		t.Fatalf("lakesql reads %v, want %v", got, want)
	}
	testutil.Exec(t, s, "INSERT INTO db.t VALUES (4, 'd')")
	want = append(want, "4|d")
	if got := testutil.IcebergGoFrom(t, cat, "db", "t", 0).Rows; !slices.Equal(got, want) {
		t.Fatalf("after lakesql's INSERT, iceberg-go reads %v through the server, want %v", got, want)
	}

	ids := []string{}
	for id, err := range cat.ListTables(ctx, table.Identifier{"db"}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, strings.Join(id, "."))
	}
	if !slices.Equal(ids, []string{"db.t"}) {
		t.Fatalf("tables %v, want db.t", ids)
	}
	if _, err := cat.LoadTable(ctx, table.Identifier{"db", "missing"}); !errors.Is(err, icecatalog.ErrNoSuchTable) {
		t.Fatalf("loading a missing table: %v, want ErrNoSuchTable", err)
	}
	if _, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, schema); !errors.Is(err, icecatalog.ErrTableAlreadyExists) {
		t.Fatalf("creating db.t again: %v, want ErrTableAlreadyExists", err)
	}
	if err := cat.DropTable(ctx, table.Identifier{"db", "t"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := cat.CheckTableExists(ctx, table.Identifier{"db", "t"}); err != nil || ok {
		t.Fatalf("db.t exists after DROP: %v %v", ok, err)
	}
}

// A commit whose requirements the table no longer meets (another client
// committed first) is refused with 409, and nothing of it is applied.
func TestStaleCommitIsAConflict(t *testing.T) {
	ctx := context.Background()
	uri, _ := serve(t, "")
	cat, err := rest.NewCatalog(ctx, "lakesql", uri)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatal(err)
	}
	schema := iceberg.NewSchema(0, iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64})
	tbl, err := cat.CreateTable(ctx, table.Identifier{"db", "t"}, schema)
	if err != nil {
		t.Fatal(err)
	}
	txn := tbl.NewTransaction()
	if err := txn.SetProperties(iceberg.Properties{"owner": "first"}); err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// A commit that asserts what the table no longer is (its schema id is
	// not 7), as a client working from stale metadata would.
	resp, err := http.Post(uri+"/v1/namespaces/db/tables/t", "application/json",
		strings.NewReader(`{"requirements":[{"type":"assert-current-schema-id","current-schema-id":7}],"updates":[{"action":"set-properties","updates":{"owner":"stale"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("stale commit: status %d, want 409", resp.StatusCode)
	}
	loaded, err := cat.LoadTable(ctx, table.Identifier{"db", "t"})
	if err != nil {
		t.Fatal(err)
	}
	if got := loaded.Properties()["owner"]; got != "first" {
		t.Fatalf("owner %q after the refused commit, want first", got)
	}
}

// With --token, a request without the bearer token is refused.
func TestTokenIsRequired(t *testing.T) {
	ctx := context.Background()
	uri, _ := serve(t, "s3cret")
	resp, err := http.Get(uri + "/v1/namespaces")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: status %d, want 401", resp.StatusCode)
	}
	cat, err := rest.NewCatalog(ctx, "lakesql", uri, rest.WithOAuthToken("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		t.Fatalf("with the token: %v", err)
	}
	if _, err := rest.NewCatalog(ctx, "lakesql", uri, rest.WithOAuthToken("wrong")); err == nil {
		t.Fatalf("a wrong token was accepted")
	}
}
