package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// valuesPlan is a one-column constant relation of type t.
func oneColumnValues(t arrow.DataType, vals ...any) planner.Plan {
	v := &planner.Values{Columns: []planner.Column{{Name: "v", T: t}}}
	for _, x := range vals {
		v.Rows = append(v.Rows, []planner.Expr{lit(x, t)})
	}
	return v
}

func subqueryOf(kind planner.SubqueryKind, plan planner.Plan, x planner.Expr, t arrow.DataType) planner.Expr {
	return prepareSubqueries(&planner.Subquery{Kind: kind, Plan: plan, X: x, T: t}, &Env{})
}

func TestSubqueries(t *testing.T) {
	notIn := func(plan planner.Plan) planner.Expr {
		return call(planner.FnNot, tBool, subqueryOf(planner.SubqueryIn, plan, ref("j"), tBool))
	}
	// Column j is [3, 0, 5, null, -1].
	runEvalCases(t, testCols, []evalCase{
		{"scalar", subqueryOf(planner.SubqueryScalar, oneColumnValues(tStr, "v"), nil, tStr), "v|v|v|v|v"},
		{"scalar no rows", subqueryOf(planner.SubqueryScalar, &planner.Values{Columns: []planner.Column{{Name: "v", T: tInt}}}, nil, tInt),
			"NULL|NULL|NULL|NULL|NULL"},
		{"scalar NULL", subqueryOf(planner.SubqueryScalar, oneColumnValues(tInt, nil), nil, tInt), "NULL|NULL|NULL|NULL|NULL"},
		{"scalar two rows", subqueryOf(planner.SubqueryScalar, oneColumnValues(tInt, int32(1), int32(2)), nil, tInt),
			"error: scalar subquery returned more than one row"},
		{"exists", subqueryOf(planner.SubqueryExists, oneColumnValues(tInt, nil), nil, tBool), "true|true|true|true|true"},
		{"not exists", subqueryOf(planner.SubqueryExists, &planner.Values{Columns: []planner.Column{{Name: "v", T: tInt}}}, nil, tBool),
			"false|false|false|false|false"},
		{"in", subqueryOf(planner.SubqueryIn, oneColumnValues(tInt, int32(5), int32(3)), ref("j"), tBool), "true|false|true|NULL|false"},
		{"in with NULL", subqueryOf(planner.SubqueryIn, oneColumnValues(tInt, int32(5), nil), ref("j"), tBool), "NULL|NULL|true|NULL|NULL"},
		{"not in with NULL", notIn(oneColumnValues(tInt, int32(5), nil)), "NULL|NULL|false|NULL|NULL"},
		{"not in", notIn(oneColumnValues(tInt, int32(5))), "true|true|false|NULL|true"},
		{"in empty", subqueryOf(planner.SubqueryIn, &planner.Values{Columns: []planner.Column{{Name: "v", T: tInt}}}, ref("j"), tBool),
			"false|false|false|false|false"},
	})
}
