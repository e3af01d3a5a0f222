package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// OuterRef is a correlated column: column Index of the query Depth levels
// out (1: the query whose expression holds the subquery). The optimizer
// decorrelates the subqueries it can into joins, which replace every
// OuterRef; one left over cannot be evaluated, and says where it is.
type OuterRef struct {
	Depth int
	Index int
	Name  string
	T     arrow.DataType
	Pos   sql.Pos
}

func (e *OuterRef) Type() arrow.DataType { return e.T }
func (e *OuterRef) String() string       { return "outer." + e.Name }

// Unsupported is the error for evaluating e: its subquery could not be
// turned into a join.
func (e *OuterRef) Unsupported() error {
	return errorf(e.Pos, "correlated subquery not supported here (%s refers to the outer query): [NOT] EXISTS and [NOT] IN in WHERE, aggregate scalar subqueries correlated by AND-ed comparisons and single-row lookups correlated by equalities run, as joins", e.Name)
}

// HasOuterRef reports whether p reads a column of the query depth levels
// out of it, directly or in a subquery nested in it.
func HasOuterRef(p Plan, depth int) bool {
	found := false
	WalkPlanExprs(p, func(e Expr, d int) {
		if o, ok := e.(*OuterRef); ok && o.Depth == depth+d {
			found = true
		}
	})
	return found
}

// WalkPlanExprs calls fn for every expression in p's nodes and, with
// nesting one deeper, in the plans of subqueries inside them.
func WalkPlanExprs(p Plan, fn func(e Expr, nesting int)) {
	var walkPlan func(Plan, int)
	walkPlan = func(p Plan, nesting int) {
		for _, root := range NodeExprs(p) {
			Walk(root, func(e Expr) {
				fn(e, nesting)
				if sq, ok := e.(*Subquery); ok {
					walkPlan(sq.Plan, nesting+1)
				}
			})
		}
		for _, c := range p.Children() {
			walkPlan(c, nesting)
		}
	}
	walkPlan(p, 0)
}

// NodeExprs lists the expressions a plan node evaluates.
func NodeExprs(p Plan) []Expr {
	switch n := p.(type) {
	case *Filter:
		return []Expr{n.Cond}
	case *Project:
		return n.Exprs
	case *Join:
		out := append(append([]Expr(nil), n.LeftKeys...), n.RightKeys...)
		if n.Cond != nil {
			out = append(out, n.Cond)
		}
		return out
	case *Aggregate:
		out := append([]Expr(nil), n.GroupBy...)
		for _, a := range n.Aggs {
			out = append(out, a.Exprs()...)
		}
		return out
	case *Sort:
		return sortKeyExprs(n.Keys)
	case *TopN:
		return sortKeyExprs(n.Keys)
	case *Window:
		var out []Expr
		for _, c := range n.Calls {
			out = append(out, c.Exprs()...)
		}
		return out
	case *Scan:
		if n.Filter != nil {
			return []Expr{n.Filter}
		}
	}
	return nil
}

func sortKeyExprs(keys []SortKey) []Expr {
	out := make([]Expr, len(keys))
	for i, k := range keys {
		out[i] = k.Expr
	}
	return out
}
