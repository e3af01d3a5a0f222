package expr

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTakeArrayMatchesArrowTake compares takeArray's typed loops with
// Arrow's take kernel on every layout they handle, with NULLs, NULL rows
// (-1), sliced inputs and all-NULL inputs.
func TestTakeArrayMatchesArrowTake(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	valid := []bool{true, false, true, true, false, true, true}
	inputs := map[string]arrow.Array{}
	add := func(name string, b array.Builder, appendAll func()) {
		appendAll()
		inputs[name] = b.NewArray()
		b.Release()
	}
	{
		b := array.NewBooleanBuilder(mem)
		add("bool", b, func() { b.AppendValues([]bool{true, true, false, true, false, false, true}, valid) })
	}
	{
		b := array.NewInt8Builder(mem)
		add("int8", b, func() { b.AppendValues([]int8{1, 2, 3, 4, 5, 6, 7}, valid) })
	}
	{
		b := array.NewInt16Builder(mem)
		add("int16", b, func() { b.AppendValues([]int16{1, -2, 3, -4, 5, -6, 7}, valid) })
	}
	{
		b := array.NewInt32Builder(mem)
		add("int32", b, func() { b.AppendValues([]int32{10, 20, 30, 40, 50, 60, 70}, valid) })
	}
	{
		b := array.NewInt64Builder(mem)
		add("int64", b, func() { b.AppendValues([]int64{-1, 1 << 40, 3, 4, 5, 6, 7}, nil) })
	}
	{
		b := array.NewFloat64Builder(mem)
		add("float64", b, func() { b.AppendValues([]float64{0.5, 1.5, -2, 3, 4, 5, 6}, valid) })
	}
	{
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 20, Scale: 2})
		add("decimal", b, func() {
			for i, v := range valid {
				if v {
					b.Append(decimal128.FromI64(int64(i) * 12345))
				} else {
					b.AppendNull()
				}
			}
		})
	}
	{
		b := array.NewStringBuilder(mem)
		add("string", b, func() { b.AppendValues([]string{"a", "", "ccc", "dddd", "e", "ffffff", "g"}, valid) })
	}
	{
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		add("binary", b, func() { b.AppendValues([][]byte{{1}, {2, 2}, nil, {4}, {5}, {6, 6, 6}, {7}}, valid) })
	}
	{
		b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 3})
		add("fixed3", b, func() {
			b.AppendValues([][]byte{[]byte("aaa"), []byte("bbb"), []byte("ccc"), []byte("ddd"), []byte("eee"), []byte("fff"), []byte("ggg")}, valid)
		})
	}
	inputs["all null"] = array.MakeArrayOfNull(mem, arrow.PrimitiveTypes.Int64, 7)
	inputs["null type"] = array.MakeArrayOfNull(mem, arrow.Null, 7)
	defer func() {
		for _, a := range inputs {
			a.Release()
		}
	}()
	rowSets := map[string][]int32{
		"shuffled":    {6, 0, 3, 3, 1},
		"null rows":   {-1, 2, -1, 5},
		"consecutive": {2, 3, 4},
		"all -1":      {-1, -1},
		"empty":       {},
	}
	for name, arr := range inputs {
		for _, sliced := range []bool{false, true} {
			in := arr
			if sliced {
				in = array.NewSlice(arr, 1, 7)
				defer in.Release()
			}
			for rowsName, rows := range rowSets {
				if sliced {
					rows = rowsWithin(rows, in.Len())
				}
				got, err := Take(ctx, mem, in, rows)
				if err != nil {
					t.Fatalf("%s %s: %v", name, rowsName, err)
				}
				idx := indexArray(rows)
				want, err := compute.TakeArray(ctx, in, idx)
				idx.Release()
				if err != nil {
					t.Fatalf("%s %s: arrow take: %v", name, rowsName, err)
				}
				if !array.Equal(got, want) {
					t.Errorf("%s (sliced %v) rows %s: got %v, want %v", name, sliced, rowsName, got, want)
				}
				got.Release()
				want.Release()
			}
		}
	}
}

// rowsWithin drops row numbers past n, for the shorter sliced inputs.
func rowsWithin(rows []int32, n int) []int32 {
	var out []int32
	for _, r := range rows {
		if int(r) < n {
			out = append(out, r)
		}
	}
	return out
}
