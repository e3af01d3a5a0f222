package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
)

// dictionaryBatches makes rows of (a STRING, b STRING, x BIGINT), a and b
// with NULLs, twice: as plain batches, and with a and b dictionary encoded
// as the table scan hands them over. Each run of three batches (a column
// chunk) has dictionaries of its own: the chunk's values in another order
// plus values no row uses; every fourth chunk is plain, as one whose
// writer fell back to PLAIN pages.
func dictionaryBatches(t *testing.T, mem memory.Allocator, rng *rand.Rand, rows, aValues, bValues int) (plain, coded []arrow.RecordBatch) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: tStr, Nullable: true}, {Name: "b", Type: tStr, Nullable: true}, {Name: "x", Type: tBig, Nullable: true},
	}, nil)
	for start := 0; start < rows; start += BatchSize {
		bld := array.NewRecordBuilder(mem, schema)
		for range min(BatchSize, rows-start) {
			for c, n := range []int{aValues, bValues} {
				if v := rng.IntN(n + 1); v == n {
					bld.Field(c).AppendNull()
				} else {
					bld.Field(c).(*array.StringBuilder).Append(fmt.Sprintf("%c-%d", 'a'+c, v))
				}
			}
			bld.Field(2).(*array.Int64Builder).Append(rng.Int64N(1000))
		}
		plain = append(plain, bld.NewRecordBatch())
		bld.Release()
	}
	const chunkBatches = 3
	for first := 0; first < len(plain); first += chunkBatches {
		chunk := plain[first:min(first+chunkBatches, len(plain))]
		if (first/chunkBatches)%4 == 3 {
			for _, b := range chunk {
				b.Retain()
				coded = append(coded, b)
			}
			continue
		}
		dicts := [2]arrow.Array{}
		for c := range dicts {
			dicts[c] = chunkDictionary(mem, rng, chunk, c)
		}
		for _, b := range chunk {
			cols := []arrow.Array{encodeDictionary(t, mem, b.Column(0), dicts[0]), encodeDictionary(t, mem, b.Column(1), dicts[1]), b.Column(2)}
			cols[2].Retain()
			fields := []arrow.Field{
				{Name: "a", Type: cols[0].DataType(), Nullable: true}, {Name: "b", Type: cols[1].DataType(), Nullable: true}, schema.Field(2),
			}
			coded = append(coded, array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, b.NumRows()))
			for _, c := range cols {
				c.Release()
			}
		}
		for _, d := range dicts {
			d.Release()
		}
	}
	return plain, coded
}

// chunkDictionary is the distinct values of column c of a chunk's batches
// and two no row has, shuffled.
func chunkDictionary(mem memory.Allocator, rng *rand.Rand, chunk []arrow.RecordBatch, c int) arrow.Array {
	seen := map[string]bool{fmt.Sprintf("unused %d", rng.Int()): true, fmt.Sprintf("unused %d", rng.Int()): true}
	for _, b := range chunk {
		col := b.Column(c).(*array.String)
		for i := range col.Len() {
			if col.IsValid(i) {
				seen[col.Value(i)] = true
			}
		}
	}
	values := make([]string, 0, len(seen))
	for v := range seen {
		values = append(values, v)
	}
	slices.Sort(values)
	rng.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues(values, nil)
	return sb.NewArray()
}

// encodeDictionary is arr as codes into dict, as storage reads a
// dictionary-encoded chunk (NULL rows get code 0).
func encodeDictionary(t *testing.T, mem memory.Allocator, arr, dict arrow.Array) arrow.Array {
	t.Helper()
	code := map[string]int32{}
	for i := range dict.Len() {
		code[dict.(*array.String).Value(i)] = int32(i)
	}
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	s := arr.(*array.String)
	for i := range s.Len() {
		if s.IsNull(i) {
			ib.AppendNull()
			continue
		}
		c, ok := code[s.Value(i)]
		if !ok {
			t.Fatalf("%q is not in the chunk's dictionary", s.Value(i))
		}
		ib.Append(c)
	}
	indices := ib.NewArray()
	defer indices.Release()
	return array.NewDictionaryArray(storage.DictionaryType(tStr), indices, dict)
}

// GROUP BY over dictionary-encoded keys, each chunk with other dictionaries
// and some chunks plain, gives the groups of the same rows as strings: one
// or two keys, a key beside an integer, few and many code combinations,
// through a filter, on the serial and the parallel path, and spilling.
func TestHashAggregateDictionaryKeys(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	a, b, x := col(0, "a", tStr), col(1, "b", tStr), col(2, "x", tBig)
	calls := []*planner.AggCall{agg(planner.AggCount, nil, tBig), agg(planner.AggSum, x, tBig), agg(planner.AggMin, x, tBig)}
	xMod := &planner.Call{Fn: planner.FnMod, Args: []planner.Expr{x, &planner.Literal{Value: int64(7), T: tBig}}, T: tBig}
	for _, tc := range []struct {
		name             string
		rows             int
		aValues, bValues int
		groupBy          []planner.Expr
		filter           bool
		spill            bool
	}{
		{name: "one key", rows: 50_000, aValues: 9, bValues: 1, groupBy: []planner.Expr{a}},
		{name: "two keys", rows: 50_000, aValues: 7, bValues: 30, groupBy: []planner.Expr{a, b}},
		{name: "key beside an integer", rows: 50_000, aValues: 7, bValues: 1, groupBy: []planner.Expr{xMod, a}},
		{name: "through a filter", rows: 50_000, aValues: 7, bValues: 30, groupBy: []planner.Expr{b, a}, filter: true},
		{name: "parallel", rows: 400_000, aValues: 20, bValues: 30, groupBy: []planner.Expr{a, b}, filter: true},
		{name: "many combinations", rows: 100_000, aValues: 2000, bValues: 100, groupBy: []planner.Expr{a, b}},
		{name: "spilling", rows: 200_000, aValues: 250, bValues: 250, groupBy: []planner.Expr{a, b}, spill: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain, coded := dictionaryBatches(t, mem, rand.New(rand.NewPCG(uint64(tc.rows), uint64(tc.aValues))), tc.rows, tc.aValues, tc.bValues)
			defer releaseBatches(plain)
			defer releaseBatches(coded)
			names := []string{"k1", "k2", "k3", "count", "sum", "min"}[3-len(tc.groupBy):]
			run := func(recs []arrow.RecordBatch) (*hashAggregate, Operator) {
				var input Operator = NewBatches(plain[0].Schema(), recs)
				if tc.filter {
					input = NewFilter(input, &planner.Call{Fn: planner.FnGt, Args: []planner.Expr{x, &planner.Literal{Value: int64(300), T: tBig}}, T: planner.TypeBoolean})
				}
				op := NewHashAggregate(input, tc.groupBy, calls, names).(*hashAggregate)
				return op, op
			}
			withMemoryLimit(t, 0)
			_, op := run(plain)
			want := drain(t, ctx, op)
			if tc.spill {
				withMemoryLimit(t, 1) // memory is short from the first batch on
				runtime.GC()
			}
			h, op := run(coded)
			spilled := false
			got := drain(t, ctx, &onFirstBatch{Operator: op, then: func() { spilled = h.spilled != nil }})
			if tc.spill && !spilled {
				t.Fatal("the aggregation did not spill")
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%d groups from dictionary keys, want %d; first rows %q, want %q", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
			}
		})
	}
}
