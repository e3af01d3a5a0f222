package lakesql_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
)

// A statement that runs past statement_timeout stops with one line, and the
// session keeps working.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	s, err := lakesql.Open(ctx, lakesql.Options{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	values := strings.Repeat("(1),", 999) + "(1)"
	for _, st := range []string{
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (x INT)",
		"INSERT INTO db.t VALUES " + values,
		"SET statement_timeout = '200ms'",
	} {
		if _, err := s.Exec(ctx, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	start := time.Now()
	res, err := s.Exec(ctx, "SELECT count(*) FROM db.t a CROSS JOIN db.t b CROSS JOIN db.t c")
	if err == nil {
		_, err = res.Next(ctx)
		res.Close()
	}
	if !errors.Is(err, lakesql.ErrStatementTimeout) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v, want one line of kind statement timeout", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("stopped after %s", took)
	}
	for _, st := range []string{"SET statement_timeout = 0", "SELECT count(*) FROM db.t"} {
		res, err := s.Exec(ctx, st)
		if err != nil {
			t.Fatalf("%s after a timeout: %v", st, err)
		}
		res.Close()
	}
	if _, err := s.Exec(ctx, "SET statement_timeout = 'soon'"); err == nil || !strings.Contains(err.Error(), "'30s'") {
		t.Fatalf("bad value: %v", err)
	}
}
