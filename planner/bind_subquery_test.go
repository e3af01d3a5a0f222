package planner

import (
	"context"
	"testing"

	"github.com/lakesql/lakesql/sql"
)

func mustBindRelational(t *testing.T, query string) Plan {
	t.Helper()
	stmt, err := sql.ParseOne(query)
	if err != nil {
		t.Fatal(err)
	}
	p, err := BindQuery(context.Background(), relationalTables{}, stmt.(*sql.QueryStmt).Query)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBindCTEs(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		// A CTE shadows the table db.a resolves to when named a.
		{query: "WITH a AS (SELECT 1 AS one) SELECT one FROM a", plan: "Project one\n  Subquery a(one)\n    Project 1 AS one\n      Values 1 rows"},
		{query: "WITH a AS (SELECT 1 AS one) SELECT id FROM db.a", plan: "Scan db.a"},
		{query: "WITH c(x, y) AS (SELECT id, name FROM db.a) SELECT c.y, t.x FROM c JOIN c t ON c.x = t.x",
			plan: "HashJoin INNER on [c.x = t.x]"},
		{query: "WITH c AS (SELECT 1 AS x), d AS (SELECT x + 1 AS y FROM c) SELECT y FROM d", plan: "Subquery d(y)\n    Project (x + 1) AS y\n      Subquery c(x)"},
		{query: "WITH c AS (SELECT 1 AS x) SELECT * FROM (WITH c AS (SELECT 2 AS z) SELECT * FROM c) s", plan: "Subquery c(z)"},
		{query: "WITH d AS (SELECT * FROM missing), missing AS (SELECT 1 AS x) SELECT * FROM d", errText: "table missing does not exist"},
		{query: "WITH c AS (SELECT 1), c AS (SELECT 2) SELECT * FROM c", errText: `WITH query name "c" is specified more than once`},
		{query: "WITH c(x, y) AS (SELECT 1) SELECT * FROM c", errText: "WITH query c has 1 columns but 2 column names were given"},
	})
}

func TestBindSubqueryExprs(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		{query: "SELECT (SELECT max_v FROM (SELECT a_v AS max_v FROM db.a) m) AS v", plan: "Project (<subquery>) AS v"},
		{query: "SELECT id FROM db.a WHERE id IN (SELECT b_v FROM db.b)", plan: "Filter (CAST(id AS BIGINT) IN (<subquery>))"},
		{query: "SELECT id FROM db.a WHERE id NOT IN (SELECT id FROM db.b)", plan: "Filter NOT (id IN (<subquery>))"},
		{query: "SELECT id FROM db.a WHERE NOT EXISTS (SELECT 1 FROM db.b)", plan: "Filter NOT EXISTS(<subquery>)"},
		{query: "SELECT id FROM db.a WHERE id = (SELECT id, name FROM db.b)", errText: "subquery must return one column, it returns 2"},
		{query: "SELECT id FROM db.a WHERE EXISTS (SELECT 1 FROM db.b WHERE b.id = a.id)", plan: "Filter EXISTS(<subquery>)"},
		{query: "SELECT id FROM db.a WHERE id IN (SELECT nope FROM db.b)", errText: `column "nope" does not exist`},
		{query: "SELECT id FROM db.a WHERE name IN (SELECT id FROM db.b)", errText: "cannot compare STRING with INT"},
	})
	// A column of the enclosing query is an OuterRef, the innermost query
	// that has it winning; the optimizer decorrelates.
	for _, c := range []struct {
		query string
		depth int
		index int
	}{
		{"SELECT id FROM db.a WHERE EXISTS (SELECT 1 FROM db.b WHERE b.id = a.id)", 1, 0},
		{"SELECT id FROM db.a WHERE id IN (SELECT a_v FROM db.b)", 1, 2},
		{"SELECT id FROM db.a WHERE EXISTS (SELECT 1 FROM db.b WHERE EXISTS (SELECT 1 FROM db.c WHERE c_v = a_v))", 2, 2},
	} {
		p := mustBindRelational(t, c.query)
		var refs []*OuterRef
		WalkPlanExprs(p, func(e Expr, nesting int) {
			if o, ok := e.(*OuterRef); ok {
				refs = append(refs, o)
			}
		})
		if len(refs) != 1 || refs[0].Depth != c.depth || refs[0].Index != c.index {
			t.Errorf("%s: outer references %+v, want one of depth %d to column %d", c.query, refs, c.depth, c.index)
		}
	}
	// The subquery's plan is bound on its own: its columns index its own rows.
	p := mustBindRelational(t, "SELECT name FROM db.a WHERE id IN (SELECT id FROM db.b)")
	f := p.(*Project).Input.(*Filter)
	sq := f.Cond.(*Subquery)
	if sq.Kind != SubqueryIn || sq.X.(*ColumnRef).Index != 0 || len(sq.Plan.Schema()) != 1 {
		t.Errorf("subquery %+v", sq)
	}
	var seen []Expr
	Walk(f.Cond, func(e Expr) { seen = append(seen, e) })
	if len(seen) != 2 {
		t.Errorf("Walk visits the subquery and its operand, got %v", seen)
	}
}
