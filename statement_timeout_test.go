package lakesql_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// A statement that runs past statement_timeout stops with one line, and the
// session keeps working.
func TestStatementTimeout(t *testing.T) {
	ctx := context.Background()
	values := strings.Repeat("(1),", 999) + "(1)"
	s, _ := testutil.Open(t, "CREATE NAMESPACE db", "CREATE TABLE db.t (x INT)",
		"INSERT INTO db.t VALUES "+values, "SET statement_timeout = '200ms'")
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
	testutil.Exec(t, s, "SET statement_timeout = 0", "SELECT count(*) FROM db.t")
	testutil.WantError(t, s, "SET statement_timeout = 'soon'", "'30s'")
}
