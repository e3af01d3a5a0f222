package planner

import (
	"github.com/lakesql/lakesql/sql"
)

// bindFunc binds the scalar functions of this version.
func (b *binder) bindFunc(e *sql.FuncCall, s *scope) (Expr, error) {
	if e.Over != nil || e.Star || e.Distinct {
		return nil, errorf(e.Pos, "%s(…) with OVER, * or DISTINCT is not supported yet", e.Name)
	}
	args := make([]Expr, len(e.Args))
	for i, a := range e.Args {
		x, err := b.bindExpr(a, s)
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	switch e.Name {
	case "coalesce":
		if len(args) == 0 {
			return nil, errorf(e.Pos, "coalesce needs at least one argument")
		}
		unified, err := unifyResults(e.Pos, args...)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: FnCoalesce, Args: unified, T: unified[0].Type()}, nil
	case "nullif":
		if len(args) != 2 {
			return nil, errorf(e.Pos, "nullif needs 2 arguments, got %d", len(args))
		}
		unified, err := unify(e.Pos, args...)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: FnNullIf, Args: unified, T: unified[0].Type()}, nil
	case "concat":
		var out Expr = &Literal{Value: "", T: TypeVarchar}
		for _, a := range args {
			// concat() skips NULLs, unlike ||.
			str, err := castTo(a, TypeVarchar)
			if err != nil {
				return nil, err
			}
			str = &Call{Fn: FnCoalesce, Args: []Expr{str, &Literal{Value: "", T: TypeVarchar}}, T: TypeVarchar}
			out = &Call{Fn: FnConcat, Args: []Expr{out, str}, T: TypeVarchar}
		}
		return out, nil
	}
	return nil, errorf(e.Pos, "unknown function %s", e.Name)
}
