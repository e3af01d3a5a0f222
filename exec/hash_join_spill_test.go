package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// TestHashJoinSpills joins with memory short from the start, so the build
// side spills and the join runs partition by partition, and compares the
// rows with the join in memory: every join type, building either side, on
// one integer key and on two keys with a residual condition, with NULL keys
// on both sides.
func TestHashJoinSpills(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	rows := 40_000
	if testing.Short() {
		rows = 20_000
	}
	left := groupedBatches(mem, rand.New(rand.NewPCG(1, 7)), rows, rows*3/4)
	right := groupedBatches(mem, rand.New(rand.NewPCG(2, 7)), rows, rows*3/4)
	defer releaseBatches(left)
	defer releaseBatches(right)
	schema := left[0].Schema()
	// Over the joined columns: left's k, s, x (0-2), then right's (3-5).
	lessX := &planner.Call{Fn: planner.FnLt, Args: []planner.Expr{col(2, "x", tBig), col(5, "x", tBig)}, T: tBool}
	keys := map[string]struct {
		left, right []planner.Expr
		cond        planner.Expr
	}{
		"k": {[]planner.Expr{col(0, "k", tBig)}, []planner.Expr{col(0, "k", tBig)}, nil},
		"k,s and x<x": {
			[]planner.Expr{col(0, "k", tBig), col(1, "s", tStr)}, []planner.Expr{col(0, "k", tBig), col(1, "s", tStr)},
			lessX,
		},
	}
	types := []sql.JoinType{sql.JoinInner, sql.JoinLeft, sql.JoinRight, sql.JoinFull, planner.JoinSemi, planner.JoinAnti}
	for name, k := range keys {
		for _, typ := range types {
			for _, buildLeft := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/buildLeft=%v", name, typ, buildLeft), func(t *testing.T) {
					cond := k.cond
					newOp := func() *join {
						return NewHashJoin(typ, NewBatches(schema, left), NewBatches(schema, right), k.left, k.right, cond, buildLeft, nil).(*join)
					}
					withMemoryLimit(t, 0)
					want := drain(t, ctx, newOp())
					withMemoryLimit(t, 1) // memory is short from the first batch on
					runtime.GC()          // the live heap is measured by collections
					op := newOp()
					spilled := false
					got := drain(t, ctx, &onEveryBatch{Operator: op, then: func() { spilled = spilled || op.grace != nil }})
					if !spilled {
						t.Fatal("the join did not spill")
					}
					if len(want) == 0 {
						t.Fatal("the join has no rows: the test checks nothing")
					}
					slices.Sort(want)
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("spilled join differs: %d rows, want %d", len(got), len(want))
					}
				})
			}
		}
	}
}

// TestHashJoinSpillsTwice joins a build side whose partitions do not fit
// either, so each spills again at the next level, and compares the rows
// with the join in memory.
func TestHashJoinSpillsTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("slow; make stress runs it")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	build := groupedBatches(mem, rand.New(rand.NewPCG(3, 7)), 400_000, 1_200_000)
	probe := groupedBatches(mem, rand.New(rand.NewPCG(4, 7)), 30_000, 1_200_000)
	defer releaseBatches(build)
	defer releaseBatches(probe)
	schema := build[0].Schema()
	for _, typ := range []sql.JoinType{sql.JoinLeft, sql.JoinRight} {
		t.Run(string(typ), func(t *testing.T) {
			k := []planner.Expr{col(0, "k", tBig)}
			newOp := func() *join {
				return NewHashJoin(typ, NewBatches(schema, probe), NewBatches(schema, build), k, k, nil, false, nil).(*join)
			}
			withMemoryLimit(t, 0)
			want := drain(t, ctx, newOp())
			withMemoryLimit(t, 1)
			runtime.GC()
			op := newOp()
			twice := false
			got := drain(t, ctx, &onEveryBatch{Operator: op, then: func() {
				twice = twice || op.grace != nil && op.grace.cur != nil && op.grace.cur.grace != nil
			}})
			if !twice {
				t.Fatal("no partition of the join spilled again")
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("join spilled twice differs: %d rows, want %d", len(got), len(want))
			}
		})
	}
}
