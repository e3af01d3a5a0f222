package planner

import "testing"

func TestBindSetOps(t *testing.T) {
	runRelationalCases(t, []relationalCase{
		{query: "SELECT id FROM db.a UNION ALL SELECT b_v FROM db.b",
			plan: "Union all\n  Project CAST(id AS BIGINT) AS id\n    Project id\n      Scan db.a"},
		{query: "SELECT id, name FROM db.a UNION SELECT id, name FROM db.b", plan: "Union\n  Project id, name\n"},
		{query: "SELECT 1 INTERSECT SELECT NULL", plan: "Intersect\n  Project 1"},
		{query: "SELECT 1.5 EXCEPT ALL SELECT 2", plan: "Except all\n  Project CAST(1.5 AS DECIMAL(11,1)) AS 1.5"},
		{query: "SELECT id FROM db.a UNION SELECT id, name FROM db.b",
			errText: "each UNION query must have the same number of columns: the left has 1, the right 2"},
		{query: "SELECT name FROM db.a EXCEPT SELECT id FROM db.b", errText: "EXCEPT column 1 (name): cannot combine STRING and INT"},
	})
	stmtPlan := mustBindRelational(t, "SELECT id AS x FROM db.a UNION SELECT b_v AS y FROM db.b")
	cols := stmtPlan.Schema()
	if len(cols) != 1 || cols[0].Name != "x" || TypeString(cols[0].T) != "BIGINT" || cols[0].Table != "" {
		t.Errorf("set operation columns %+v", cols)
	}
}
