package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

func TestDynamicFilterOnlyWhereUnmatchedProbeRowsAreDropped(t *testing.T) {
	key := ref("j")
	probe, build := &planner.Scan{Columns: make([]planner.ScanColumn, key.Index+1)}, &planner.Values{}
	probe.Columns[key.Index] = planner.ScanColumn{Name: key.Name, T: key.T}
	cases := []struct {
		typ       sql.JoinType
		buildLeft bool
		want      bool
	}{
		{sql.JoinInner, false, true},
		{sql.JoinInner, true, true},
		{sql.JoinLeft, false, false}, // the probe side (left) is preserved
		{sql.JoinLeft, true, true},   // the build side is: unmatched probe rows go
		{sql.JoinRight, false, true},
		{sql.JoinRight, true, false},
		{sql.JoinFull, false, false},
		{planner.JoinSemi, false, true}, // a semi join outputs no unmatched row
		{planner.JoinSemi, true, true},
		{planner.JoinAnti, false, false}, // the probe side (left) is its output
		{planner.JoinAnti, true, true},   // unmatched right rows are never output
		{"LATERAL", false, false},        // unknown join types prune nothing
	}
	for _, c := range cases {
		p := &planner.Join{Type: c.typ, Left: probe, Right: build, LeftKeys: []planner.Expr{key}, RightKeys: []planner.Expr{key}, BuildLeft: c.buildLeft}
		if c.buildLeft {
			p.Left, p.Right = build, probe
		}
		if got := planDynamicFilter(p, &Env{}) != nil; got != c.want {
			t.Errorf("%s join, build left %v: dynamic filter %v, want %v", c.typ, c.buildLeft, got, c.want)
		}
	}
	inner := &planner.Join{Type: sql.JoinInner, Left: probe, Right: build, LeftKeys: []planner.Expr{key}, RightKeys: []planner.Expr{key}}
	if planDynamicFilter(inner, &Env{NoPruning: true}) != nil {
		t.Error("dynamic filter with pruning off")
	}
	inner.LeftKeys = []planner.Expr{cast(key, tBig)}
	inner.RightKeys = []planner.Expr{ref("b")}
	if planDynamicFilter(inner, &Env{}) != nil {
		t.Error("dynamic filter on a computed probe key")
	}
}

func TestDynamicFilterPredicate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	batch := newBatch(t, mem, testCols...)
	defer batch.Release()
	probeCol := &planner.ColumnRef{Index: 0, Name: "event_date", T: tInt}
	df := &dynamicFilter{buildKeys: []planner.Expr{ref("j")}, probeCols: []*planner.ColumnRef{probeCol}}
	ctx := WithAllocator(context.Background(), mem)
	if err := df.setBuild(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if got, want := df.pred.String(), "(event_date IN (-1, 0, 3, 5))"; got != want {
		t.Errorf("predicate %s, want %s", got, want)
	}
	empty := newBatch(t, mem, column{"j", tInt, `[null]`})
	defer empty.Release()
	df.buildKeys = []planner.Expr{&planner.ColumnRef{Index: 0, Name: "j", T: tInt}}
	if err := df.setBuild(ctx, empty); err != nil {
		t.Fatal(err)
	}
	if got := df.pred.String(); got != "false" {
		t.Errorf("NULL keys only: predicate %s, want false", got)
	}
}

// scanColumnUnder follows a column through every kind of join to the side
// it comes from (a row a lower outer join pads with NULL joins nothing
// above, so its NULL-supplying side may be filtered too), through kept
// columns, and not past the columns a join outputs.
func TestScanColumnUnderJoins(t *testing.T) {
	scanOf := func(names ...string) *planner.Scan {
		s := &planner.Scan{Alias: names[0]}
		for _, n := range names {
			s.Columns = append(s.Columns, planner.ScanColumn{Name: n, T: tInt})
		}
		return s
	}
	left, right := scanOf("a", "b"), scanOf("c", "d")
	cases := []struct {
		typ  sql.JoinType
		keep []bool
		col  int
		want *planner.Scan // nil: not followed
		at   int
	}{
		{sql.JoinInner, nil, 1, left, 1},
		{sql.JoinInner, nil, 2, right, 0},
		{sql.JoinInner, []bool{false, true, false, true}, 0, left, 1},
		{sql.JoinInner, []bool{false, true, false, true}, 1, right, 1},
		{sql.JoinInner, []bool{false, true, false, true}, 2, nil, 0}, // no such column
		{sql.JoinLeft, nil, 0, left, 0},
		{sql.JoinLeft, nil, 3, right, 1}, // the NULL-supplying side
		{sql.JoinRight, nil, 3, right, 1},
		{sql.JoinRight, nil, 0, left, 0},
		{sql.JoinFull, nil, 0, left, 0},
		{planner.JoinSemi, nil, 1, left, 1},
		{planner.JoinSemi, nil, 2, nil, 0}, // a semi join outputs no right column
		{planner.JoinAnti, nil, 0, left, 0},
		{sql.JoinCross, nil, 3, right, 1},
	}
	for _, c := range cases {
		j := &planner.Join{Type: c.typ, Left: left, Right: right, Keep: c.keep}
		scan, col := scanColumnUnder(&planner.Filter{Input: j}, c.col)
		if scan != c.want || scan != nil && col.Index != c.at {
			t.Errorf("%s join, keep %v, column %d: scan %p column %v, want %p column %d", c.typ, c.keep, c.col, scan, col, c.want, c.at)
		}
	}
}
