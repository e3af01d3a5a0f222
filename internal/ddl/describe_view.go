package ddl

import (
	"context"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// describeView is DESCRIBE of a view: its columns, as its query binds now,
// and the query itself.
func describeView(ctx context.Context, s *engine.Session, v *planner.View) (*engine.Result, error) {
	plan, err := planner.BindQuery(s.Context(ctx), v.Resolver, v.Query)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, c := range plan.Schema() {
		name := c.Name
		if v.Columns != nil {
			name = v.Columns[i]
		}
		rows = append(rows, []string{name, planner.TypeString(c.T), "YES", ""})
	}
	rows = append(rows, []string{"# view", sql.FormatQuery(v.Query), "", v.Name})
	return engine.TextRows([]string{"column", "type", "nullable", "comment"}, rows), nil
}
