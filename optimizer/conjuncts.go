package optimizer

import "github.com/lakesql/lakesql/planner"

// andAll joins predicates with AND; nil for none.
func andAll(preds []planner.Expr) planner.Expr {
	var out planner.Expr
	for _, p := range preds {
		if out == nil {
			out = p
			continue
		}
		out = &planner.Call{Fn: planner.FnAnd, Args: []planner.Expr{out, p}, T: planner.TypeBoolean}
	}
	return out
}
