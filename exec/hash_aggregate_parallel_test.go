package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// TestHashAggregateParallelMatchesSerial aggregates an input large enough
// to go parallel and compares every aggregate with the same run on one
// core: merged counts, sums, averages, minima and maxima of strings,
// variances and DISTINCT aggregates, NULL keys and NULL values included.
func TestHashAggregateParallelMatchesSerial(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = parallelAfterRows * 3
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: tStr, Nullable: true}, {Name: "v", Type: tBig, Nullable: true},
		{Name: "d", Type: dec(10, 2), Nullable: true}, {Name: "f", Type: tDouble, Nullable: true},
		{Name: "u", Type: tBig, Nullable: true},
	}, nil)
	r := rand.New(rand.NewPCG(5, 6))
	var recs []arrow.RecordBatch
	for start := 0; start < rows; start += BatchSize {
		b := array.NewRecordBuilder(mem, schema)
		for range BatchSize {
			// Keys first seen late land in the workers' states only.
			if k := r.IntN(50 + start/BatchSize*10); k == 0 {
				b.Field(0).AppendNull()
			} else {
				b.Field(0).(*array.StringBuilder).Append(fmt.Sprint("key", k))
			}
			// u has enough distinct values for the merge by partitions.
			b.Field(4).(*array.Int64Builder).Append(r.Int64N(2 * parallelMergeGroups))
			if r.IntN(10) == 0 {
				b.Field(1).AppendNull()
				b.Field(2).AppendNull()
				b.Field(3).AppendNull()
				continue
			}
			b.Field(1).(*array.Int64Builder).Append(r.Int64N(1000) - 500)
			b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(r.Int64N(100000)))
			b.Field(3).(*array.Float64Builder).Append(float64(r.IntN(64)) / 4)
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	defer releaseBatches(recs)
	k, v, d, f := col(0, "k", tStr), col(1, "v", tBig), col(2, "d", dec(10, 2)), col(3, "f", tDouble)
	calls := []*planner.AggCall{
		agg(planner.AggCount, nil, tBig), agg(planner.AggCount, v, tBig), agg(planner.AggSum, v, tBig),
		agg(planner.AggSum, d, dec(38, 2)), agg(planner.AggAvg, d, tDouble), agg(planner.AggMin, v, tBig),
		agg(planner.AggMax, d, dec(10, 2)), agg(planner.AggVarSamp, f, tDouble),
		{Fn: planner.AggCount, Arg: v, Distinct: true, T: tBig}, {Fn: planner.AggSum, Arg: d, Distinct: true, T: dec(38, 2)},
	}
	u := col(4, "u", tBig)
	for _, groupBy := range [][]planner.Expr{{k}, nil, {u}} {
		run := func(procs int) []string {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			names := make([]string, len(groupBy)+len(calls))
			for i := range names {
				names[i] = fmt.Sprint("c", i)
			}
			// The filter runs in the workers: rows with v <= -400 go.
			keep := &planner.Call{Fn: planner.FnGt, Args: []planner.Expr{v, &planner.Literal{Value: int64(-400), T: tBig}}, T: planner.TypeBoolean}
			op := NewHashAggregate(NewFilter(NewBatches(schema, recs), keep), groupBy, calls, names)
			out := drain(t, WithAllocator(context.Background(), mem), op)
			for i, row := range out {
				// Variances differ in the last bits with the order of the sums.
				fields := strings.Split(row, ",")
				var x float64
				fmt.Sscan(fields[len(fields)-3], &x)
				fields[len(fields)-3] = fmt.Sprintf("%.9g", x)
				out[i] = strings.Join(fields, ",")
			}
			slices.Sort(out)
			return out
		}
		serial, parallel := run(1), run(2)
		if len(serial) < 2 && groupBy != nil {
			t.Fatalf("too few groups: %v", serial)
		}
		if !slices.Equal(serial, parallel) {
			for i := range min(len(serial), len(parallel)) {
				if serial[i] != parallel[i] {
					t.Fatalf("group by %v: row %d\nserial   %s\nparallel %s", groupBy, i, serial[i], parallel[i])
				}
			}
			t.Fatalf("group by %v: %d rows serial, %d parallel", groupBy, len(serial), len(parallel))
		}
	}
}

// TestHashAggregateParallelError checks that an error in a worker (a sum
// that overflows only in the last batches) stops the aggregation with that
// error and leaks no batch.
func TestHashAggregateParallelError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = parallelAfterRows * 3
	recs := intBatches(mem, rows, func(i int) int64 {
		if i > rows-BatchSize {
			return math.MaxInt64 / 4
		}
		return 1
	})
	defer releaseBatches(recs)
	k := col(0, "k", tBig)
	op := NewHashAggregate(NewBatches(recs[0].Schema(), recs), nil, []*planner.AggCall{agg(planner.AggSum, k, tBig)}, []string{"s"})
	ctx := WithAllocator(context.Background(), mem)
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if _, err := op.Next(ctx); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("want an overflow error, got %v", err)
	}
}

// TestJoinUnderParallelAggregate aggregates the output of joins whose
// probe side is large enough for the workers to probe it, and compares
// with one core: inner, left (probe rows kept), semi and anti joins, a
// residual condition, and a right join, which keeps its build side and so
// stays on the pulling goroutine.
func TestJoinUnderParallelAggregate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(13, 14))
	probe := intBatches(mem, parallelAfterRows*3, func(int) int64 { return r.Int64N(1200) })
	defer releaseBatches(probe)
	build := intBatches(mem, 3000, func(i int) int64 { return int64(i % 1000) })
	defer releaseBatches(build)
	k := col(0, "k", tBig)
	type joinCase struct {
		typ  sql.JoinType
		cond planner.Expr
	}
	for _, c := range []joinCase{
		{sql.JoinInner, nil}, {sql.JoinLeft, nil}, {planner.JoinSemi, nil}, {planner.JoinAnti, nil}, {sql.JoinRight, nil},
		{sql.JoinInner, &planner.Call{Fn: planner.FnLt, Args: []planner.Expr{col(0, "k", tBig), &planner.Literal{Value: int64(900), T: tBig}}, T: planner.TypeBoolean}},
	} {
		run := func(procs int) []string {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			j := NewHashJoin(c.typ, NewBatches(probe[0].Schema(), probe), NewBatches(build[0].Schema(), build),
				[]planner.Expr{k}, []planner.Expr{k}, c.cond, false, nil)
			groupBy := []planner.Expr{col(0, "k", tBig)}
			op := NewHashAggregate(j, groupBy, []*planner.AggCall{agg(planner.AggCount, nil, tBig)}, []string{"k", "n"})
			out := drain(t, WithAllocator(context.Background(), mem), op)
			slices.Sort(out)
			return out
		}
		serial, parallel := run(1), run(2)
		if len(serial) == 0 || !slices.Equal(serial, parallel) {
			t.Errorf("%s join (cond %v): %d groups serial, %d parallel, equal %v", c.typ, c.cond, len(serial), len(parallel), slices.Equal(serial, parallel))
		}
	}
}
