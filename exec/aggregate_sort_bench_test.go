package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// run drains op and returns the number of rows it produced.
func run(b *testing.B, ctx context.Context, op Operator) int64 {
	if err := op.Open(ctx); err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	rows := int64(0)
	for {
		out, err := op.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if out == nil {
			return rows
		}
		rows += out.NumRows()
		out.Release()
	}
}

func BenchmarkHashAggregateStringKey(b *testing.B) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: tStr}, {Name: "v", Type: tBig}}, nil)
	var recs []arrow.RecordBatch
	for start := 0; start < benchRows; start += BatchSize {
		bld := array.NewRecordBuilder(mem, schema)
		for i := start; i < min(benchRows, start+BatchSize); i++ {
			bld.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("customer-%04d", i*7919%1000))
			bld.Field(1).(*array.Int64Builder).Append(int64(i))
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
	}
	k, v := col(0, "k", tStr), col(1, "v", tBig)
	calls := []*planner.AggCall{agg(planner.AggCount, nil, tBig), agg(planner.AggSum, v, tBig), agg(planner.AggMax, v, tBig)}
	ctx := WithAllocator(context.Background(), mem)
	b.ResetTimer()
	for b.Loop() {
		op := NewHashAggregate(NewBatches(schema, recs), []planner.Expr{k}, calls, []string{"k", "n", "s", "m"})
		if n := run(b, ctx, op); n != 1000 {
			b.Fatalf("%d groups", n)
		}
	}
}

func BenchmarkTopN(b *testing.B) {
	mem := memory.NewGoAllocator()
	rng := rand.New(rand.NewPCG(1, 2))
	recs := intBatches(mem, benchRows, func(int) int64 { return rng.Int64() })
	keys := []planner.SortKey{{Expr: col(0, "k", tBig), Desc: true}}
	ctx := WithAllocator(context.Background(), mem)
	b.ResetTimer()
	for b.Loop() {
		if n := run(b, ctx, NewTopN(NewBatches(recs[0].Schema(), recs), keys, 10, 0)); n != 10 {
			b.Fatalf("%d rows", n)
		}
	}
}
