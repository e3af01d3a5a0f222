package testutil

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// postgresEnv names the PostgreSQL server the catalog tests use; .ci/run
// starts one at the default.
const postgresEnv = "LAKESQL_TEST_POSTGRES"

const defaultPostgres = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// Postgres creates a fresh database on the test PostgreSQL server
// ($LAKESQL_TEST_POSTGRES, else postgres://postgres@127.0.0.1:5432) and
// returns its URI; it is dropped when the test ends. The test is skipped,
// with the reason, when there is no server.
func Postgres(t testing.TB) string {
	t.Helper()
	server := os.Getenv(postgresEnv)
	if server == "" {
		server = defaultPostgres
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	admin, err := sql.Open("pgx", server)
	if err == nil {
		err = admin.PingContext(ctx)
	}
	if err != nil {
		t.Skipf("no PostgreSQL server at %s ($%s): %v", redactURI(server), postgresEnv, err)
	}
	name := fmt.Sprintf("lakesql_test_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func redactURI(uri string) string {
	if u, err := url.Parse(uri); err == nil {
		return u.Redacted()
	}
	return uri
}
