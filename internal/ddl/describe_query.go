package ddl

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// DescribeQuery is DESCRIBE of a query, a file ('x.parquet') or a table
// function: the columns the query returns, with DuckDB's column names. A
// query's columns may always hold NULL.
func DescribeQuery(ctx context.Context, s *engine.Session, st *sql.DescribeQuery) (*engine.Result, error) {
	plan, err := planner.BindQuery(s.Context(ctx), s, st.Query)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, c := range plan.Schema() {
		rows = append(rows, []string{c.Name, planner.TypeString(c.T), "YES"})
	}
	return engine.TextRows([]string{"column_name", "column_type", "null"}, rows), nil
}
