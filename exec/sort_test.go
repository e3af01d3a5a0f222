package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

func TestSort(t *testing.T) {
	a, b := col(0, "a", tDouble), col(1, "b", tStr)
	input := [][]column{
		{{"a", tDouble, `[3, null, "NaN", 1]`}, {"b", tStr, `["x", "y", null, "z"]`}},
		{{"a", tDouble, `[1, -0.5, null]`}, {"b", tStr, `["a", "b", "c"]`}},
	}
	cases := []struct {
		name string
		keys []planner.SortKey
		want string
	}{
		{"asc nulls last, NaN above numbers", []planner.SortKey{{Expr: a}},
			"-0.5,b|1.0,z|1.0,a|3.0,x|nan,NULL|NULL,y|NULL,c"},
		{"desc nulls first", []planner.SortKey{{Expr: a, Desc: true, NullsFirst: true}},
			"NULL,y|NULL,c|nan,NULL|3.0,x|1.0,z|1.0,a|-0.5,b"},
		{"asc nulls first, second key desc", []planner.SortKey{{Expr: a, NullsFirst: true}, {Expr: b, Desc: true}},
			"NULL,y|NULL,c|-0.5,b|1.0,z|1.0,a|3.0,x|nan,NULL"},
		{"string key nulls last", []planner.SortKey{{Expr: b}},
			"1.0,a|-0.5,b|NULL,c|3.0,x|NULL,y|1.0,z|nan,NULL"},
	}
	for _, tc := range cases {
		for _, top := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/topn=%v", tc.name, top), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				var recs []arrow.RecordBatch
				for _, cols := range input {
					rec := newBatch(t, mem, cols...)
					defer rec.Release()
					recs = append(recs, rec)
				}
				in := NewBatches(recs[0].Schema(), recs)
				op := NewSort(in, tc.keys)
				want := tc.want
				if top {
					op = NewTopN(in, tc.keys, 3, 2)
					want = strings.Join(strings.Split(want, "|")[2:5], "|")
				}
				if got := strings.Join(drain(t, WithAllocator(context.Background(), mem), op), "|"); got != want {
					t.Errorf("got  %s\nwant %s", got, want)
				}
			})
		}
	}
}

// TestTopNEqualsSortLimit compares TopN with a full stable sort and a limit on
// random data with many ties, for many seeds, limits and offsets.
func TestTopNEqualsSortLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	keys := []planner.SortKey{{Expr: col(0, "k", tBig), Desc: true}, {Expr: col(1, "s", tStr), NullsFirst: true}}
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 1))
		recs := randomBatches(mem, rng, 1+rng.IntN(40_000))
		schema := recs[0].Schema()
		limit, offset := int64(rng.IntN(50)), int64(rng.IntN(20))
		full := drain(t, ctx, NewLimit(NewSort(NewBatches(schema, recs), keys), limit, offset))
		top := drain(t, ctx, NewTopN(NewBatches(schema, recs), keys, limit, offset))
		if strings.Join(full, "|") != strings.Join(top, "|") {
			t.Errorf("seed %d limit %d offset %d:\n sort %v\n topn %v", seed, limit, offset, full, top)
		}
		releaseBatches(recs)
	}
}

// randomBatches makes rows of (k BIGINT with few distinct values and NULLs,
// s STRING with NULLs, id BIGINT) in batches of varying size.
func randomBatches(mem memory.Allocator, rng *rand.Rand, rows int) []arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: tBig, Nullable: true}, {Name: "s", Type: tStr, Nullable: true}, {Name: "id", Type: tBig},
	}, nil)
	var recs []arrow.RecordBatch
	for start := 0; start < rows; {
		n := min(rows-start, 1+rng.IntN(2*BatchSize))
		bld := array.NewRecordBuilder(mem, schema)
		for i := range n {
			k, s := bld.Field(0).(*array.Int64Builder), bld.Field(1).(*array.StringBuilder)
			if rng.IntN(10) == 0 {
				k.AppendNull()
			} else {
				k.Append(int64(rng.IntN(20)))
			}
			if rng.IntN(10) == 0 {
				s.AppendNull()
			} else {
				s.Append(fmt.Sprint("s", rng.IntN(5)))
			}
			bld.Field(2).(*array.Int64Builder).Append(int64(start + i))
		}
		recs = append(recs, bld.NewRecordBatch())
		bld.Release()
		start += n
	}
	return recs
}
