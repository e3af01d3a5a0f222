package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// BindCondition binds the WHERE condition of a statement that selects rows
// or files of one table (DELETE, UPDATE, rewrite_data_files, OPTIMIZE) over the
// columns of scan. clause names the statement in errors ("DELETE … WHERE").
// The condition is evaluated file by file: its uncorrelated subqueries run
// first and their values take their place (inlineSubqueries); correlated
// ones are refused.
func (s *Session) BindCondition(ctx context.Context, scan *planner.Scan, where sql.Expr, clause string) (planner.Expr, error) {
	return s.BindConditionOver(ctx, scan.Schema(), where, clause)
}

// BindConditionOver is BindCondition over any columns (MERGE's ON and WHEN
// conditions, over its source's and target's).
func (s *Session) BindConditionOver(ctx context.Context, cols []planner.Column, where sql.Expr, clause string) (planner.Expr, error) {
	cond, err := planner.BindExpr(ctx, s, where, cols)
	if err != nil {
		return nil, err
	}
	if t := cond.Type(); t.ID() != arrow.BOOL && t.ID() != arrow.NULL {
		return nil, &planner.Error{Pos: where.Position(), Msg: fmt.Sprintf("%s needs a BOOLEAN condition: the condition %s is %s", clause, sql.Format(where), planner.TypeString(t))}
	}
	if planner.HasSubquery(cond) {
		return s.inlineSubqueries(ctx, cond, where.Position(), clause)
	}
	return cond, nil
}

// inlineSubqueries runs each uncorrelated subquery of cond and puts what it
// returns in its place: a scalar subquery's value (NULL for no row), EXISTS
// as TRUE or FALSE, x IN (subquery) as x IN (its values). So DELETE FROM t
// WHERE id IN (SELECT id FROM gone) deletes as DELETE FROM t WHERE id IN
// (3, 7) would, pruning files by those values too.
func (s *Session) inlineSubqueries(ctx context.Context, cond planner.Expr, pos sql.Pos, clause string) (planner.Expr, error) {
	var firstErr error
	// A subquery read in several places (a quantified comparison's
	// summary, planner.ExpandAny) runs once.
	inlined := map[planner.Plan]planner.Expr{}
	out := planner.Rewrite(cond, func(x planner.Expr) planner.Expr {
		sq, ok := x.(*planner.Subquery)
		if !ok || firstErr != nil {
			return x
		}
		if value, done := inlined[sq.Plan]; done && sq.X == nil {
			return value
		}
		value, err := s.inlineSubquery(ctx, sq, pos, clause)
		if err != nil {
			firstErr = err
			return x
		}
		inlined[sq.Plan] = value
		return value
	})
	return out, firstErr
}

// maxInlinedRows bounds the rows of a subquery compared with a row value
// that inlineSubquery writes out, as an OR of each row's equalities.
const maxInlinedRows = 10000

// inlineSubquery is the expression of one subquery's rows (inlineSubqueries).
func (s *Session) inlineSubquery(ctx context.Context, sq *planner.Subquery, pos sql.Pos, clause string) (planner.Expr, error) {
	if planner.HasOuterRef(sq.Plan, 1) {
		msg := clause + " with a correlated subquery is not supported yet"
		if strings.HasPrefix(clause, "DELETE") || strings.HasPrefix(clause, "UPDATE") {
			msg += ": write it as MERGE INTO … USING (query) ON … WHEN MATCHED THEN DELETE (or UPDATE SET …)"
		}
		return nil, &planner.Error{Pos: pos, Msg: msg}
	}
	p, err := s.Optimize(ctx, sq.Plan)
	if err != nil {
		return nil, err
	}
	res, err := s.Run(ctx, p, nil)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	t := p.Schema()[0].T
	var rows [][]planner.Expr // the subquery's rows, a constant per column
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			break
		}
		for i := range int(batch.NumRows()) {
			row := make([]planner.Expr, batch.NumCols())
			for c, col := range batch.Columns() {
				v, ok := expr.ConstantExpr(col, i)
				if !ok {
					batch.Release()
					return nil, &planner.Error{Pos: pos, Msg: fmt.Sprintf("%s: a subquery's %s values cannot stand in the condition", clause, planner.TypeString(col.DataType()))}
				}
				row[c] = v
			}
			rows = append(rows, row)
		}
		batch.Release()
		if sq.Kind == planner.SubqueryExists && len(rows) > 0 {
			break
		}
		if len(rows) > maxInlinedRows && len(p.Schema()) > 1 {
			return nil, &planner.Error{Pos: pos, Msg: fmt.Sprintf("%s: a row value IN a subquery of more than %d rows cannot stand in the condition; write it as MERGE INTO … USING (subquery) ON …", clause, maxInlinedRows)}
		}
	}
	values := make([]planner.Expr, len(rows))
	for i, row := range rows {
		values[i] = row[0]
	}
	switch sq.Kind {
	case planner.SubqueryExists:
		return &planner.Literal{Value: len(rows) > 0, T: planner.TypeBoolean}, nil
	case planner.SubqueryIn:
		if operands := sq.InOperands(); len(operands) > 1 {
			return planner.InRows(operands, rows), nil
		}
		return planner.InList(pos, sq.X, values)
	}
	switch len(values) {
	case 0:
		return &planner.Literal{T: sq.T}, nil
	case 1:
		if !arrow.TypeEqual(t, sq.T) {
			return &planner.Cast{X: values[0], T: sq.T}, nil
		}
		return values[0], nil
	}
	return nil, fmt.Errorf("%s: %w", clause, exec.ErrScalarSubqueryRows)
}
