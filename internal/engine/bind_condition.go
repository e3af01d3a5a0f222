package engine

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// BindCondition binds the WHERE condition of a statement that selects rows
// or files of one table (DELETE, UPDATE, rewrite_data_files, OPTIMIZE) over the
// columns of scan. clause names the statement in errors ("DELETE … WHERE").
// Subqueries are refused: the condition is evaluated file by file.
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
		return nil, &planner.Error{Pos: where.Position(), Msg: clause + " with a subquery is not supported yet"}
	}
	return cond, nil
}
