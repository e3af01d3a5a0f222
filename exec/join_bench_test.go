package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// keyBatches makes rows (k BIGINT, v DOUBLE) in batches, k = key(i).
func keyBatches(rows int, key func(i int) int64) (*arrow.Schema, []arrow.RecordBatch) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: tBig, Nullable: true}, {Name: "v", Type: tDouble, Nullable: true}}, nil)
	var out []arrow.RecordBatch
	for start := 0; start < rows; start += BatchSize {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < min(start+BatchSize, rows); i++ {
			b.Field(0).(*array.Int64Builder).Append(key(i))
			b.Field(1).(*array.Float64Builder).Append(float64(i))
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return schema, out
}

// BenchmarkHashJoin joins 10^6 probe rows with 10^4 build rows; half of the
// probe rows find one match, so each join type outputs half of them.
func BenchmarkHashJoin(b *testing.B) {
	const probeRows, buildRows = 1_000_000, 10_000
	probeSchema, probe := keyBatches(probeRows, func(i int) int64 { return int64(i*7919) % (2 * buildRows) })
	buildSchema, build := keyBatches(buildRows, func(i int) int64 { return int64(i) })
	ctx := context.Background()
	for _, typ := range []sql.JoinType{sql.JoinInner, planner.JoinSemi, planner.JoinAnti} {
		b.Run(string(typ), func(b *testing.B) {
			for b.Loop() {
				op := NewHashJoin(typ, NewBatches(probeSchema, probe), NewBatches(buildSchema, build),
					[]planner.Expr{joinCol(0, tBig)}, []planner.Expr{joinCol(0, tBig)}, nil, false, nil)
				if err := op.Open(ctx); err != nil {
					b.Fatal(err)
				}
				rows := int64(0)
				for {
					out, err := op.Next(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if out == nil {
						break
					}
					rows += out.NumRows()
					out.Release()
				}
				op.Close()
				if rows != probeRows/2 {
					b.Fatalf("%d rows", rows)
				}
			}
			b.ReportMetric(float64(probeRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mprobe/s")
		})
	}
}
