package planner

import "github.com/lakesql/lakesql/sql"

// Materialize is a WITH query that a statement references more than once:
// it runs once and every reference reads its rows, as DuckDB and Postgres
// materialize such CTEs (TPC-H Q15 reads its revenue view twice, each time
// aggregating lineitem). Rules optimize its input as a whole query and move
// nothing across it — no filter, limit or column pruning from above — so
// every reference keeps the same plan and the executor can share one
// result. Every reference then also sees the same rows, rand() included.
type Materialize struct {
	Name  string
	CTE   *sql.CTE // the definition: the references of one share it
	Input Plan
}

func (m *Materialize) Schema() []Column           { return m.Input.Schema() }
func (m *Materialize) Children() []Plan           { return []Plan{m.Input} }
func (m *Materialize) WithChildren(c []Plan) Plan { out := *m; out.Input = c[0]; return &out }
func (m *Materialize) Describe() string {
	return "Materialize " + m.Name + " (shared by its references)"
}
