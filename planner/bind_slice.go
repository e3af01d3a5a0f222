package planner

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindSlice binds DuckDB's x[begin:end] and x[begin:end:step] as
// list_slice(x, begin, end[, step]).
func (b *binder) bindSlice(e *sql.SliceExpr, s *scope) (Expr, error) {
	parts := []sql.Expr{e.X, e.Begin, e.End, e.Step}
	bound := make([]Expr, len(parts))
	for i, p := range parts {
		if p == nil {
			continue
		}
		x, err := b.bindExpr(p, s)
		if err != nil {
			return nil, err
		}
		bound[i] = x
	}
	return listSlice(bound[0], bound[1], bound[2], bound[3], e.Pos)
}

// bindListSlice binds list_slice(x, begin, end[, step]) (array_slice).
func bindListSlice(_ *binder, c *funcCall) (Expr, error) {
	var step Expr
	if len(c.args) == 4 {
		step = c.args[3]
	}
	return listSlice(c.args[0], c.args[1], c.args[2], step, c.pos)
}

// listSlice is list_slice(x, begin, end[, step]) on a list, or on a string
// without step (its characters); a NULL x is NULL. A nil begin or end is
// one left out of x[begin:end:step]: it reaches the edge of x that the
// step walks from or to.
func listSlice(x, begin, end, step Expr, pos sql.Pos) (Expr, error) {
	t := x.Type()
	switch {
	case isString(t) && step != nil:
		return nil, kindErrorf(ErrUnsupported, pos, "a string cannot be sliced with a step (slice str_split(s, '') and join it with array_to_string)")
	case !isList(t) && !isString(t) && t.ID() != arrow.NULL:
		return nil, kindErrorf(ErrType, pos, "cannot slice %s: only lists and strings can be sliced", TypeString(t))
	}
	if step != nil {
		i, ok := intArg(step)
		if !ok {
			return nil, kindErrorf(ErrType, pos, "the step of a slice must be an integer, not %s", TypeString(step.Type()))
		}
		step = i
	}
	if begin == nil {
		begin = sliceEdge(step, math.MaxInt64, 1)
	}
	if end == nil {
		end = sliceEdge(step, 1, math.MaxInt64)
	}
	args := []Expr{x}
	for _, a := range []Expr{begin, end} {
		i, ok := intArg(a)
		if !ok {
			return nil, kindErrorf(ErrType, pos, "the bounds of a slice must be integers, not %s", TypeString(a.Type()))
		}
		args = append(args, i)
	}
	switch {
	case t.ID() == arrow.NULL:
		return x, nil
	case isString(t):
		args[0] = castFolded(x, TypeVarchar) // the kernel builds a VARCHAR
	}
	if step != nil {
		args = append(args, step)
	}
	return &Call{Fn: FnListSlice, Args: args, T: args[0].Type()}, nil
}

// sliceEdge is the bound a slice leaves out: backward when step is
// negative, forward otherwise (the bounds clamp to the list). A step that
// is no constant decides row by row.
func sliceEdge(step Expr, backward, forward int64) Expr {
	bigint := func(v int64) Expr { return &Literal{Value: v, T: TypeBigint} }
	lit, isLit := step.(*Literal)
	switch {
	case step == nil || isLit && (lit.Value == nil || lit.Value.(int64) >= 0):
		return bigint(forward)
	case isLit:
		return bigint(backward)
	}
	negative := &Call{Fn: FnLt, Args: []Expr{step, bigint(0)}, T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: negative, Result: bigint(backward)}}, Else: bigint(forward), T: TypeBigint}
}
