package planner

// Walk calls fn for e and every expression inside it, parents first.
func Walk(e Expr, fn func(Expr)) {
	fn(e)
	switch e := e.(type) {
	case *Call:
		for _, a := range e.Args {
			Walk(a, fn)
		}
	case *Cast:
		Walk(e.X, fn)
	case *Case:
		for _, w := range e.Whens {
			Walk(w.Cond, fn)
			Walk(w.Result, fn)
		}
		Walk(e.Else, fn)
	case *Subquery:
		// The subquery's own plan is a separate scope; only X reads the outer row.
		if e.X != nil {
			Walk(e.X, fn)
		}
	}
}

// Rewrite rebuilds e bottom-up, replacing each node by fn(node).
func Rewrite(e Expr, fn func(Expr) Expr) Expr {
	switch x := e.(type) {
	case *Call:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = Rewrite(a, fn)
		}
		return fn(&Call{Fn: x.Fn, Args: args, T: x.T})
	case *Cast:
		return fn(&Cast{X: Rewrite(x.X, fn), T: x.T, Try: x.Try})
	case *Case:
		out := &Case{T: x.T, Else: Rewrite(x.Else, fn)}
		for _, w := range x.Whens {
			out.Whens = append(out.Whens, CaseWhen{Cond: Rewrite(w.Cond, fn), Result: Rewrite(w.Result, fn)})
		}
		return fn(out)
	case *Subquery:
		if x.X != nil {
			return fn(&Subquery{Kind: x.Kind, Plan: x.Plan, X: Rewrite(x.X, fn), Op: x.Op, T: x.T})
		}
	}
	return fn(e)
}

// Conjuncts splits a predicate into its AND-ed parts; nil has none.
func Conjuncts(e Expr) []Expr {
	if e == nil {
		return nil
	}
	if call, ok := e.(*Call); ok && call.Fn == FnAnd {
		var out []Expr
		for _, a := range call.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []Expr{e}
}

// WalkPlans calls fn for p and every plan node below it, parents first (not
// the plans of subqueries inside expressions).
func WalkPlans(p Plan, fn func(Plan)) {
	fn(p)
	for _, c := range p.Children() {
		WalkPlans(c, fn)
	}
}

// HasSubquery reports whether e (nil for none) holds a subquery.
func HasSubquery(e Expr) bool {
	found := false
	if e != nil {
		Walk(e, func(x Expr) {
			_, isSub := x.(*Subquery)
			found = found || isSub
		})
	}
	return found
}
