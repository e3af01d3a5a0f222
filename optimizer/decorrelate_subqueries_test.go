package optimizer

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

func outer(i int, name string) *planner.OuterRef {
	return &planner.OuterRef{Depth: 1, Index: i, Name: name, T: arrow.PrimitiveTypes.Int64}
}

func TestDecorrelateSubqueries(t *testing.T) {
	bigint := arrow.PrimitiveTypes.Int64
	tScan := func() planner.Plan { return testScan("t", 100, "id", "v") }
	// EXISTS (SELECT 1 FROM u WHERE u.id = t.id AND u.k <> t.v)
	exists := &planner.Subquery{Kind: planner.SubqueryExists, T: planner.TypeBoolean, Plan: &planner.Project{
		Input: &planner.Filter{Input: testScan("u", 10, "id", "k"), Cond: planner.Conjunction([]planner.Expr{
			eq(col(0, "id"), outer(0, "id")), call(planner.FnNe, planner.TypeBoolean, col(1, "k"), outer(1, "v"))})},
		Exprs: []planner.Expr{int64Lit(1)}, Names: []string{"one"}}}
	// (SELECT sum(q) FROM w WHERE w.id = t.id)
	sum := func(fn string) *planner.Subquery {
		return &planner.Subquery{Kind: planner.SubqueryScalar, T: bigint, Plan: &planner.Aggregate{
			Input: &planner.Filter{Input: testScan("w", 10, "id", "q"), Cond: eq(col(0, "id"), outer(0, "id"))},
			Aggs:  []*planner.AggCall{{Fn: fn, Arg: col(1, "q"), T: bigint}}, Names: []string{"s"}}}
	}
	for _, c := range []struct {
		name string
		cond planner.Expr
		want string
	}{
		{"exists", exists, `HashJoin SEMI on [t.id = u.id] residual=(u.k <> t.v) build=right
  Scan db.t columns=[id, v]
  Scan db.u columns=[id, k]`},
		{"not exists", call(planner.FnNot, planner.TypeBoolean, exists), `HashJoin ANTI on [t.id = u.id] residual=(u.k <> t.v) build=right
  Scan db.t columns=[id, v]
  Scan db.u columns=[id, k]`},
		// A comparison with the value: an inner join on the grouped aggregate
		// (reorderJoins picks its build side later).
		{"scalar compared", call(planner.FnLt, planner.TypeBoolean, col(1, "v"), sum(planner.AggSum)), `Project id, v
  Filter (v < s)
    HashJoin INNER on [t.id = id] build=left
      Scan db.t columns=[id, v]
      Project s, id
        Aggregate group=[id] aggs=[sum(q) AS s]
          Scan db.w columns=[id, q]`},
		// Elsewhere a missing group must read NULL: a left join.
		{"scalar in an expression", call(planner.FnIsNull, planner.TypeBoolean, sum(planner.AggMax)), `Project id, v
  Filter is_null(s)
    HashJoin LEFT on [t.id = id] build=left
      Scan db.t columns=[id, v]
      Project s, id
        Aggregate group=[id] aggs=[max(q) AS s]
          Scan db.w columns=[id, q]`},
		// count gives 0 for a missing group, a join NULL: a marker tells
		// the rows without a group, which take the count over no rows.
		{"count", call(planner.FnLt, planner.TypeBoolean, col(1, "v"), sum(planner.AggCount)), `Project id, v
  Filter (v < CASE WHEN is_null(matched) THEN (<subquery>) ELSE s END)
    HashJoin LEFT on [t.id = id] build=left
      Scan db.t columns=[id, v]
      Project s, id, true AS matched
        Project s, id
          Aggregate group=[id] aggs=[count(q) AS s]
            Scan db.w columns=[id, q]`},
	} {
		got := planLines(decorrelateSubqueries(&planner.Filter{Input: tScan(), Cond: c.cond}))
		if got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

func TestDecorrelateSelectList(t *testing.T) {
	bigint := arrow.PrimitiveTypes.Int64
	tScan := testScan("t", 100, "id", "v")
	// SELECT id, (SELECT max(q) FROM w WHERE w.id = t.id), EXISTS (SELECT 1 FROM u WHERE u.id = t.id) FROM t
	maxQ := &planner.Subquery{Kind: planner.SubqueryScalar, T: bigint, Plan: &planner.Aggregate{
		Input: &planner.Filter{Input: testScan("w", 10, "id", "q"), Cond: eq(col(0, "id"), outer(0, "id"))},
		Aggs:  []*planner.AggCall{{Fn: planner.AggMax, Arg: col(1, "q"), T: bigint}}, Names: []string{"m"}}}
	exists := &planner.Subquery{Kind: planner.SubqueryExists, T: planner.TypeBoolean, Plan: &planner.Project{
		Input: &planner.Filter{Input: testScan("u", 10, "id", "k"), Cond: eq(col(0, "id"), outer(0, "id"))},
		Exprs: []planner.Expr{int64Lit(1)}, Names: []string{"one"}}}
	got := planLines(decorrelateSubqueries(&planner.Project{Input: tScan,
		Exprs: []planner.Expr{col(0, "id"), maxQ, exists}, Names: []string{"id", "m", "e"}}))
	want := `Project id, m, is_not_null(id) AS e
  HashJoin LEFT on [t.id = id] build=right
    HashJoin LEFT on [t.id = id] build=left
      Scan db.t columns=[id, v]
      Project m, id
        Aggregate group=[id] aggs=[max(q) AS m]
          Scan db.w columns=[id, q]
    Aggregate group=[id] aggs=[]
      Scan db.u columns=[id, k]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
