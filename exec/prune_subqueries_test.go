package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/lakesql/lakesql/planner"
)

func TestResolveSubqueriesForPruning(t *testing.T) {
	j := ref("j")
	many := make([]any, maxSummaryValues+1)
	for i := range many {
		many[i] = int32(i - 10)
	}
	in := func(vals ...any) *planner.Subquery {
		return &planner.Subquery{Kind: planner.SubqueryIn, Plan: oneColumnValues(tInt, vals...), X: j, T: tBool}
	}
	scalarOf := func(vals ...any) *planner.Subquery {
		return &planner.Subquery{Kind: planner.SubqueryScalar, Plan: oneColumnValues(tInt, vals...), T: tInt}
	}
	cases := []struct {
		name   string
		filter planner.Expr
		want   string
	}{
		{"scalar", call(planner.FnEq, tBool, j, scalarOf(int32(7))), "(j = 7)"},
		{"scalar NULL", call(planner.FnEq, tBool, j, scalarOf(nil)), "(j = NULL)"},
		{"scalar with two rows stays", call(planner.FnEq, tBool, j, scalarOf(int32(1), int32(2))), "(j = (<subquery>))"},
		{"in, listed", in(int32(5), nil, int32(3), int32(5)), "(j IN (3, 5))"},
		{"in, one value", in(int32(5)), "(j = 5)"},
		{"in, empty", in(), "false"},
		{"in, many values become a range", call(planner.FnAnd, tBool, in(many...), call(planner.FnGt, tBool, j, lit(int32(0), tInt))),
			fmt.Sprintf("(((j >= -10) AND (j <= %d)) AND (j > 0))", maxSummaryValues-10)},
		{"a range may not stand under NOT", call(planner.FnNot, tBool, in(many...)), "NOT (j IN (<subquery>))"},
		{"a list may", call(planner.FnNot, tBool, in(int32(1), int32(2))), "NOT (j IN (1, 2))"},
	}
	for _, c := range cases {
		got, _ := resolveSubqueries(context.Background(), c.filter, &Env{})
		if got.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	if got, _ := resolveSubqueries(context.Background(), in(int32(1)), &Env{NoPruning: true}); got.String() != "(j IN (<subquery>))" {
		t.Errorf("with pruning off the subquery ran early: %s", got)
	}
}

func TestSubqueryKeys(t *testing.T) {
	j := ref("j")
	cols := make([]planner.ScanColumn, j.Index+1)
	for i := range cols {
		cols[i] = planner.ScanColumn{FieldID: 100 + i, Name: fmt.Sprint("c", i), T: tInt}
	}
	many := make([]any, maxPruningValues+2)
	for i := range many {
		many[i] = int32(3 * i)
	}
	many[5] = nil
	in := func(x planner.Expr, vals ...any) *planner.Subquery {
		return &planner.Subquery{Kind: planner.SubqueryIn, Plan: oneColumnValues(tInt, vals...), X: x, T: tBool}
	}
	cases := []struct {
		name   string
		filter planner.Expr
		want   int // values of the one key set; 0: none
	}{
		{"a conjunct", call(planner.FnAnd, tBool, in(j, many...), call(planner.FnGt, tBool, j, lit(int32(0), tInt))), maxPruningValues + 1},
		{"alone", in(j, many...), maxPruningValues + 1},
		{"few values are listed in the filter instead", in(j, int32(1), int32(2)), 0},
		{"not under NOT", call(planner.FnNot, tBool, in(j, many...)), 0},
		{"not under OR", call(planner.FnOr, tBool, in(j, many...), call(planner.FnGt, tBool, j, lit(int32(0), tInt))), 0},
		{"only on a column", in(call(planner.FnAdd, tInt, j, lit(int32(1), tInt)), many...), 0},
	}
	for _, c := range cases {
		scan := &planner.Scan{Columns: cols, Filter: c.filter}
		keys := subqueryKeys(context.Background(), scan, &Env{})
		got := 0
		if len(keys) == 1 && keys[0].Col == 100+j.Index {
			got = len(keys[0].Values)
		} else if len(keys) > 0 {
			t.Errorf("%s: %d key sets, first on field %d", c.name, len(keys), keys[0].Col)
			continue
		}
		if got != c.want {
			t.Errorf("%s: a key set of %d values, want %d", c.name, got, c.want)
		}
	}
	if keys := subqueryKeys(context.Background(), &planner.Scan{Columns: cols, Filter: in(j, many...)}, &Env{NoPruning: true}); keys != nil {
		t.Errorf("with pruning off the subquery ran early")
	}
}
