package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// countTo is WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM
// t WHERE n < limit), as the binder plans it.
func countTo(cte *sql.CTE, limit int64) *planner.RecursiveCTE {
	bigint := arrow.PrimitiveTypes.Int64
	cols := []planner.Column{{Name: "n", T: bigint}}
	n := &planner.ColumnRef{Index: 0, Name: "n", T: bigint}
	lit := func(v int64) planner.Expr { return &planner.Literal{Value: v, T: bigint} }
	work := &planner.WorkTable{Name: cte.Name, CTE: cte, Columns: cols}
	step := &planner.Project{
		Input: &planner.Filter{Input: work, Cond: &planner.Call{Fn: planner.FnLt, T: planner.TypeBoolean, Args: []planner.Expr{n, lit(limit)}}},
		Exprs: []planner.Expr{&planner.Call{Fn: planner.FnAdd, T: bigint, Args: []planner.Expr{n, lit(1)}}}, Names: []string{"n"}}
	return &planner.RecursiveCTE{Name: cte.Name, CTE: cte, All: true,
		Anchor: &planner.Values{Columns: cols, Rows: [][]planner.Expr{{lit(1)}}}, Step: step}
}

func TestRecursiveCTERounds(t *testing.T) {
	ctx := context.Background()
	op, err := Build(ctx, countTo(&sql.CTE{Name: "t"}, 5), &Env{})
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if got := drainInts(t, op); len(got) != 5 || got[0] != 1 || got[4] != 5 {
		t.Errorf("rows %v, want 1 … 5", got)
	}
}

// drainInts reads the rest of op's one BIGINT column.
func drainInts(t *testing.T, op Operator) []int64 {
	t.Helper()
	var got []int64
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return got
		}
		for i := range int(b.NumRows()) {
			got = append(got, b.Column(0).(interface{ Value(int) int64 }).Value(i))
		}
		b.Release()
	}
}

// Two operators computing one definition at once would read each other's
// rounds: the second is refused.
func TestRecursiveCTEReadTwiceAtOnce(t *testing.T) {
	ctx := context.Background()
	env, cte := &Env{}, &sql.CTE{Name: "t"}
	first, err := Build(ctx, countTo(cte, 3), env)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Build(ctx, countTo(cte, 3), env)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Open(ctx); err != nil {
		t.Fatal(err)
	}
	err = second.Open(ctx)
	if err == nil || !strings.Contains(err.Error(), "is read twice at once") {
		t.Errorf("second Open: %v", err)
	}
	// Closing the refused one leaves the first's rounds alone.
	second.Close()
	if got := drainInts(t, first); len(got) != 3 {
		t.Errorf("first gave %v after the second closed, want 1, 2, 3", got)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// Once the first is closed, a new one may run.
	if err := second.Open(ctx); err != nil {
		t.Errorf("Open after the first closed: %v", err)
	}
	second.Close()
}
