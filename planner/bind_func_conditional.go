package planner

// bindIf binds Spark's if(cond, then, else) as CASE WHEN cond THEN then
// ELSE else END: a NULL condition takes the else branch.
func bindIf(_ *binder, c *funcCall) (Expr, error) {
	cond, err := requireBoolean(c.args[0], c.pos, "if")
	if err != nil {
		return nil, err
	}
	results, err := unifyResults(c.pos, c.args[1], c.args[2])
	if err != nil {
		return nil, err
	}
	return &Case{Whens: []CaseWhen{{Cond: cond, Result: results[0]}}, Else: results[1], T: results[0].Type()}, nil
}
