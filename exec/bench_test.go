package exec

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

const benchRows = 1_000_000

func BenchmarkFilterInt64Gt(b *testing.B) {
	mem := memory.NewGoAllocator()
	bld := array.NewInt64Builder(mem)
	for i := range benchRows {
		bld.Append(int64(i * 7919 % benchRows))
	}
	col := bld.NewArray()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: tBig}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{col}, benchRows)
	pred := call(planner.FnGt, tBool, &planner.ColumnRef{Index: 0, Name: "x", T: tBig}, lit(int64(benchRows/2), tBig))
	ctx := WithAllocator(context.Background(), mem)
	b.ResetTimer()
	for b.Loop() {
		f := NewFilter(NewBatches(schema, []arrow.RecordBatch{batch}), pred)
		rows := int64(0)
		for {
			out, err := f.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if out == nil {
				break
			}
			rows += out.NumRows()
			out.Release()
		}
		f.Close()
		if rows != benchRows/2-1 {
			b.Fatalf("%d rows", rows)
		}
	}
}

func BenchmarkLikePrefix(b *testing.B) {
	mem := memory.NewGoAllocator()
	bld := array.NewStringBuilder(mem)
	for i := range benchRows {
		bld.Append(fmt.Sprintf("item-%07d-%s", i, []string{"red", "green", "blue"}[i%3]))
	}
	col := bld.NewArray()
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: tStr}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{col}, benchRows)
	e := call(planner.FnLike, tBool, &planner.ColumnRef{Index: 0, Name: "s", T: tStr}, lit("item-00001%", tStr))
	b.ResetTimer()
	for b.Loop() {
		out, err := expr.Eval(context.Background(), e, batch, mem)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

// BenchmarkSumDecimals is the loop of sum over DECIMAL (TPC-H Q1 runs seven
// of them over six million rows): one batch into four groups.
func BenchmarkSumDecimals(b *testing.B) {
	const n = 8192
	vals := make([]decimal128.Num, n)
	gids := make([]int32, n)
	for i := range vals {
		vals[i] = decimal128.FromI64(int64(i * 1000))
		gids[i] = int32(i % 4)
	}
	sums, counts := make([]decimal128.Num, 4), make([]int64, 4)
	for b.Loop() {
		if !sumDecimals(sums, counts, vals, nil, gids) {
			b.Fatal("sum out of range")
		}
	}
}
