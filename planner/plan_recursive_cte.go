package planner

import "github.com/lakesql/lakesql/sql"

// RecursiveCTE is a WITH RECURSIVE query, anchor UNION [ALL] step: the
// anchor's rows, then the rows step makes from the previous round's, round
// after round, until a round makes none. Step reads the previous round
// through a WorkTable of the same CTE. With UNION (All false) a row seen
// before, in any round, is dropped and does not feed the next round, which
// ends a walk around a cycle. Rules optimize anchor and step each as a
// whole query and move nothing across the node.
type RecursiveCTE struct {
	Name   string
	CTE    *sql.CTE // the definition, which its WorkTable names too
	Anchor Plan
	Step   Plan // its columns have the anchor's types
	All    bool
}

// WorkTable is, inside a RecursiveCTE's step, the rows of the previous round.
type WorkTable struct {
	Name    string
	CTE     *sql.CTE
	Columns []Column
}

func (r *RecursiveCTE) Schema() []Column {
	cols := r.Anchor.Schema()
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c.Name, T: c.T}
	}
	return out
}
func (r *RecursiveCTE) Children() []Plan { return []Plan{r.Anchor, r.Step} }
func (r *RecursiveCTE) WithChildren(c []Plan) Plan {
	out := *r
	out.Anchor, out.Step = c[0], c[1]
	return &out
}
func (r *RecursiveCTE) Describe() string {
	op := "UNION"
	if r.All {
		op = "UNION ALL"
	}
	return "RecursiveCTE " + r.Name + " (" + op + ")"
}

func (w *WorkTable) Schema() []Column           { return w.Columns }
func (w *WorkTable) Children() []Plan           { return nil }
func (w *WorkTable) WithChildren(c []Plan) Plan { return w }
func (w *WorkTable) Describe() string           { return "WorkTable " + w.Name + " (the previous round)" }
