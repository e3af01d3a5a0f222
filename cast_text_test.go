package lakesql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lakesql/lakesql/internal/testutil"
)

// TestCastTextFoldedMatchesColumn checks that CAST to STRING of a constant,
// folded at plan time, gives the same text as the same CAST of the value
// stored in a column, evaluated by the executor: both print through package
// value. It once gave 1 for CAST(CAST(1 AS DOUBLE) AS STRING) and 1.0 for a
// column holding 1.0.
func TestCastTextFoldedMatchesColumn(t *testing.T) {
	s, _ := testutil.Open(t)
	testutil.Exec(t, s, "CREATE NAMESPACE db")
	cases := []struct {
		typ, expr, want string
	}{
		{"DOUBLE", "CAST(1 AS DOUBLE)", "1.0"},
		{"DOUBLE", "CAST(0.1 AS DOUBLE)", "0.1"},
		{"DOUBLE", "CAST('1e20' AS DOUBLE)", "1e+20"},
		{"DOUBLE", "CAST('nan' AS DOUBLE)", "nan"},
		{"DOUBLE", "CAST('inf' AS DOUBLE)", "inf"},
		{"DOUBLE", "CAST('-inf' AS DOUBLE)", "-inf"},
		{"DOUBLE", "CAST('-0.0' AS DOUBLE)", "-0.0"},
		{"DOUBLE", "CAST(NULL AS DOUBLE)", "NULL"},
		{"FLOAT", "CAST(3 AS FLOAT)", "3.0"},
		{"DECIMAL(9,3)", "CAST(-1.5 AS DECIMAL(9,3))", "-1.500"},
		{"DECIMAL(9,3)", "CAST(-0.005 AS DECIMAL(9,3))", "-0.005"},
		{"BIGINT", "CAST(-5 AS BIGINT)", "-5"},
		{"BOOLEAN", "TRUE", "true"},
		{"DATE", "DATE '1969-12-31'", "1969-12-31"},
		{"DATE", "DATE '1900-02-28'", "1900-02-28"},
		{"TIMESTAMP", "TIMESTAMP '1969-12-31 23:59:59.5'", "1969-12-31 23:59:59.5"},
		{"TIMESTAMPTZ", "TIMESTAMPTZ '2024-07-01 12:00:00+00'", "2024-07-01 12:00:00+00"},
	}
	for i, c := range cases {
		table := fmt.Sprintf("db.t%d", i)
		testutil.Exec(t, s, fmt.Sprintf("CREATE TABLE %s (v %s)", table, c.typ))
		testutil.Exec(t, s, fmt.Sprintf("INSERT INTO %s VALUES (%s)", table, c.expr))
		folded := fmt.Sprintf("SELECT CAST(%s AS STRING)", c.expr)
		// The projection (before its alias) must be a constant.
		plan := testutil.Explain(t, s, folded)
		if expr, _, _ := strings.Cut(plan, " AS "); strings.Contains(expr, "CAST") {
			t.Fatalf("%s is not folded at plan time:\n%s", folded, plan)
		}
		column := fmt.Sprintf("SELECT CAST(v AS STRING) FROM %s", table)
		testutil.WantRows(t, s, folded, c.want)
		testutil.WantRows(t, s, column, c.want)
	}

	// In a session time zone, TIMESTAMPTZ prints its wall clock and offset.
	testutil.Exec(t, s, "SET TIME ZONE 'America/New_York'")
	testutil.Exec(t, s, "CREATE TABLE db.tz (v TIMESTAMPTZ)")
	testutil.Exec(t, s, "INSERT INTO db.tz VALUES (TIMESTAMPTZ '2024-01-15 12:00:00+00')")
	testutil.WantRows(t, s, "SELECT CAST(TIMESTAMPTZ '2024-01-15 12:00:00+00' AS STRING)", "2024-01-15 07:00:00-05")
	testutil.WantRows(t, s, "SELECT CAST(v AS STRING) FROM db.tz", "2024-01-15 07:00:00-05")
}
