package planner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/sql"
)

// relationalTables resolves db.<name> to tables (id INT, name STRING, <name>_v
// BIGINT) without snapshots.
type relationalTables struct{}

func (relationalTables) ResolveTable(_ context.Context, name sql.ObjectName, _ *sql.TimeTravel) (*TableRef, error) {
	n := name.Parts[len(name.Parts)-1]
	if n == "missing" {
		return nil, fmt.Errorf("table %s does not exist", n)
	}
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 3, Name: n + "_v", Type: iceberg.PrimitiveTypes.Int64},
	)
	return &TableRef{Namespace: "db", Name: n, Schema: schema}, nil
}

func (relationalTables) ResolveMetadataTable(context.Context, sql.ObjectName) (*Rows, error) {
	return nil, nil
}

// bind binds a query and returns its plan as EXPLAIN text, or the error.
func bindPlanText(t *testing.T, query string) (string, error) {
	t.Helper()
	stmt, err := sql.ParseOne(query)
	if err != nil {
		t.Fatalf("parse %q: %v", query, err)
	}
	p, err := BindQuery(context.Background(), relationalTables{}, stmt.(*sql.QueryStmt).Query)
	if err != nil {
		return "", err
	}
	return Format(p), nil
}

// relationalCase is a query and a substring of its plan or of its error.
type relationalCase struct {
	query   string
	plan    string // a line or lines the plan contains
	errText string
}

func runRelationalCases(t *testing.T, cases []relationalCase) {
	t.Helper()
	for _, c := range cases {
		plan, err := bindPlanText(t, c.query)
		switch {
		case c.errText != "":
			if err == nil || !strings.Contains(err.Error(), c.errText) {
				t.Errorf("%s\n got error %v\nwant %q", c.query, err, c.errText)
			}
		case err != nil:
			t.Errorf("%s: %v", c.query, err)
		case !strings.Contains(plan, c.plan):
			t.Errorf("%s\n got plan\n%s\nwant it to contain\n%s", c.query, plan, c.plan)
		}
	}
}

func TestBindJoins(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		{query: "SELECT a.name, b.name FROM db.a JOIN db.b ON a.id = b.id",
			plan: "HashJoin INNER on [a.id = b.id] build=right"},
		{query: "SELECT * FROM db.a a LEFT JOIN db.b b ON b.id = a.id AND a.name < b.name AND a.a_v = 1",
			plan: "HashJoin LEFT on [a.id = b.id] residual=((a.name < b.name) AND (a.a_v = 1)) build=right"},
		{query: "SELECT * FROM db.a JOIN db.b ON a.id = b.b_v AND a.a_v = b.id",
			plan: "HashJoin INNER on [CAST(a.id AS BIGINT) = b.b_v, a.a_v = CAST(b.id AS BIGINT)]"},
		{query: "SELECT * FROM db.a FULL OUTER JOIN db.b ON a.id < b.id",
			plan: "NestedLoopJoin FULL on (a.id < b.id) build=right"},
		{query: "SELECT * FROM db.a, db.b", plan: "NestedLoopJoin CROSS build=right"},
		{query: "SELECT * FROM db.a CROSS JOIN db.b WHERE a.id = b.id", plan: "NestedLoopJoin CROSS"},
		{query: "SELECT a_v, b_v FROM db.a RIGHT JOIN db.b ON true", plan: "NestedLoopJoin RIGHT on true"},
		{query: "SELECT * FROM (VALUES (1), (2), (3)) x(k) JOIN (VALUES (1)) y(k) ON x.k = y.k", plan: "build=right"},
		{query: "SELECT * FROM (VALUES (1)) x(k) JOIN (VALUES (1), (2)) y(k) ON x.k = y.k", plan: "build=left"},
		{query: "SELECT id FROM db.a JOIN db.b ON a.id = b.id", errText: `column reference "id" is ambiguous`},
		{query: "SELECT * FROM db.a JOIN db.b ON a.id = c.id", errText: `column "c.id" does not exist`},
		{query: "SELECT * FROM db.a JOIN db.b ON a.id + b.id", errText: "ON needs a BOOLEAN"},
		{query: "SELECT * FROM db.a JOIN db.missing ON true", errText: "table missing does not exist"},
	})
}

func TestBindJoinUsing(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		{query: "SELECT * FROM db.a JOIN db.b USING (id)",
			plan: "Project id, name, a_v, name, b_v\n  Project id, id, id, name, a_v, name, b_v, _file, _pos, _file, _pos\n    HashJoin INNER on [a.id = b.id]"},
		{query: "SELECT id, a.id FROM db.a LEFT JOIN db.b USING (id)", plan: "Project id, id\n  Project id,"},
		{query: "SELECT * FROM db.a RIGHT JOIN db.b USING (id, name)", plan: "HashJoin RIGHT on [a.id = b.id, a.name = b.name]"},
		{query: "SELECT * FROM db.a FULL JOIN db.b USING (id)", plan: "Project coalesce(id, id) AS id, id, id, name, a_v, name, b_v, _file, _pos"},
		// Each input's copy of the USING column keeps its own name and type.
		{query: "SELECT a.id, b.id, id FROM db.a FULL JOIN db.b USING (id)", plan: "Project id, id, id\n  Project coalesce(id, id) AS id, id, id,"},
		{query: "SELECT a.* FROM db.a JOIN db.b USING (id)", plan: "Project id, name, a_v\n"},
		{query: "SELECT c.id FROM db.a JOIN db.b USING (id)", errText: `column "c.id" does not exist`},
		{query: "SELECT * FROM db.a JOIN db.b USING (a_v)", errText: `column "a_v" does not exist`},
		{query: "SELECT * FROM db.a JOIN db.b USING (id, id)", errText: "appears more than once in USING"},
	})
	// The USING column is not ambiguous, the others still are.
	runRelationalCases(t, []relationalCase{
		{query: "SELECT name FROM db.a JOIN db.b USING (id)", errText: `column reference "name" is ambiguous`},
	})
}

func TestBindSubqueryInFrom(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		{query: "SELECT t.k, t.name FROM (SELECT id AS i, name FROM db.a) t(k)",
			plan: "Project k, name\n  Subquery t(k, name)"},
		{query: "SELECT a.k FROM (SELECT id FROM db.a) t(k)", errText: `column "a.k" does not exist`},
		{query: "SELECT * FROM (SELECT 1) t(x, y)", errText: "subquery t has 1 columns but 2 column names were given"},
	})
}
