package planner

import "github.com/lakesql/lakesql/sql"

// bindSetOp binds L UNION|INTERSECT|EXCEPT [ALL] R. The inputs must have as
// many columns (UNION BY NAME makes them so); each column takes the common
// type of its two sides and the left side's name.
func (b *binder) bindSetOp(op *sql.SetOp) (Plan, error) {
	left, err := b.bindSetExpr(op.L)
	if err != nil {
		return nil, err
	}
	right, err := b.bindSetExpr(op.R)
	if err != nil {
		return nil, err
	}
	if op.ByName {
		if left, right, err = b.alignByName(left, right, op.Pos); err != nil {
			return nil, err
		}
	}
	lcols, rcols := left.Schema(), right.Schema()
	if len(lcols) != len(rcols) {
		return nil, errorf(op.Pos, "each %s query must have the same number of columns: the left has %d, the right %d", op.Op, len(lcols), len(rcols))
	}
	lexprs, rexprs := columnRefs(lcols), columnRefs(rcols)
	cols := make([]Column, len(lcols))
	for i := range lcols {
		pair, err := unifyResults(op.Pos, lexprs[i], rexprs[i])
		if err != nil {
			return nil, kindErrorf(ErrType, op.Pos, "%s column %d (%s): cannot combine %s and %s", op.Op, i+1, lcols[i].Name, TypeString(lcols[i].T), TypeString(rcols[i].T))
		}
		for j := range pair {
			if pair[j], err = b.localize(pair[j]); err != nil {
				return nil, err
			}
		}
		lexprs[i], rexprs[i] = pair[0], pair[1]
		cols[i] = Column{Name: lcols[i].Name, T: pair[0].Type()}
	}
	return &SetOp{
		Op:      op.Op,
		All:     op.All,
		Left:    castColumns(left, lexprs),
		Right:   castColumns(right, rexprs),
		Columns: cols,
	}, nil
}

// columnRefs reads each of cols.
func columnRefs(cols []Column) []Expr {
	out := make([]Expr, len(cols))
	for i, c := range cols {
		out[i] = &ColumnRef{Index: i, Name: c.Name, T: c.T}
	}
	return out
}

// castColumns projects input through exprs (its columns, some cast) unless
// no column needed a cast.
func castColumns(input Plan, exprs []Expr) Plan {
	changed := false
	for _, e := range exprs {
		if _, isRef := e.(*ColumnRef); !isRef {
			changed = true
		}
	}
	if !changed {
		return input
	}
	names := make([]string, len(exprs))
	for i, c := range input.Schema() {
		names[i] = c.Name
	}
	return &Project{Input: input, Exprs: exprs, Names: names}
}
