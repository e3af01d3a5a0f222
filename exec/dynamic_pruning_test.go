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

// A join's dynamic filter reaches the scan its probe key comes from through
// the joins below it, on either side of them, and through their kept
// columns, but not into a semi join's right side, whose columns it does not
// output.
func TestDynamicFilterThroughLowerJoins(t *testing.T) {
	scan := func(names ...string) *planner.Scan {
		s := &planner.Scan{Alias: names[0][:1]}
		for _, n := range names {
			s.Columns = append(s.Columns, planner.ScanColumn{Name: n, T: tInt})
		}
		return s
	}
	a, b := scan("a0", "a1"), scan("b0", "b1", "b2")
	build := &planner.Values{}
	key := func(i int) planner.Expr { return &planner.ColumnRef{Index: i, T: tInt} }
	cases := []struct {
		name  string
		lower *planner.Join
		col   int
		want  *planner.Scan
		field string
	}{
		{"left input of an inner join", &planner.Join{Type: sql.JoinInner, Left: a, Right: b}, 1, a, "a1"},
		{"right input of an inner join", &planner.Join{Type: sql.JoinInner, Left: a, Right: b}, 3, b, "b1"},
		{"null-padded side of a left join", &planner.Join{Type: sql.JoinLeft, Left: a, Right: b}, 4, b, "b2"},
		{"kept columns", &planner.Join{Type: sql.JoinInner, Left: a, Right: b, Keep: []bool{false, true, true, false, true}}, 2, b, "b2"},
		{"left input of a semi join", &planner.Join{Type: planner.JoinSemi, Left: a, Right: b}, 0, a, "a0"},
		{"past a semi join's columns", &planner.Join{Type: planner.JoinSemi, Left: a, Right: b}, 2, nil, ""},
	}
	for _, c := range cases {
		upper := &planner.Join{Type: sql.JoinInner, Left: c.lower, Right: build, LeftKeys: []planner.Expr{key(c.col)}, RightKeys: []planner.Expr{key(0)}}
		df := planDynamicFilter(upper, &Env{})
		switch {
		case c.want == nil && df != nil:
			t.Errorf("%s: dynamic filter on %v, want none", c.name, df.probeCols)
		case c.want != nil && (df == nil || df.scan != c.want || df.probeCols[0].Name != c.field):
			t.Errorf("%s: dynamic filter %+v, want one on %s", c.name, df, c.field)
		}
	}
}
