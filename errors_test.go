package lakesql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// Every layer declares its error kinds in one place and wraps them, so a
// caller can tell errors apart with errors.Is whatever the message says.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	s, _ := testutil.Open(t,
		"CREATE NAMESPACE db",
		"CREATE TABLE db.t (id INT, n BIGINT)",
		"INSERT INTO db.t VALUES (1, 9223372036854775807), (2, 1)",
	)
	cases := []struct {
		stmt string
		kind error
	}{
		{"SELECT * FROM db.missing", catalog.ErrNoSuchTable},
		{"SELECT * FROM nons.t", catalog.ErrNoSuchNamespace},
		{"CREATE TABLE db.t (id INT)", catalog.ErrTableExists},
		{"CREATE NAMESPACE db", catalog.ErrNamespaceExists},
		{"CREATE TABLE db.t2 AS SELECT 1 AS x FROM nons.t", catalog.ErrNoSuchNamespace},
		{"DROP NAMESPACE db", catalog.ErrNamespaceNotEmpty},
		{"SELEC 1", sql.ErrSyntax},
		{"SELECT nope FROM db.t", planner.ErrUnknownColumn},
		{"SELECT nope(id) FROM db.t", planner.ErrUnknownFunction},
		{"SELECT NOT id FROM db.t", planner.ErrType},
		{"SELECT n + n FROM db.t", exec.ErrEval},
		{"SELECT (SELECT id FROM db.t)", exec.ErrScalarSubqueryRows},
	}
	for _, c := range cases {
		res, err := s.Exec(ctx, c.stmt)
		if err == nil {
			for {
				b, nextErr := res.Next(ctx)
				if b == nil || nextErr != nil {
					err = nextErr
					break
				}
				b.Release()
			}
			res.Close()
		}
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want kind %v", c.stmt, err, c.kind)
		}
	}
}
