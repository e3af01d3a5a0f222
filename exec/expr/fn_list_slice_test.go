package expr

import (
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// TestSliceBounds: DuckDB's list_slice and Spark's slice on an array of 5,
// the DuckDB rows checked against DuckDB 1.5.
func TestSliceBounds(t *testing.T) {
	for _, c := range []struct {
		spark        bool
		x, y         int64
		from, to     int64
		errorMessage string
	}{
		{false, 2, 4, 1, 4, ""},
		{false, -2, -1, 3, 5, ""},
		{false, 0, 2, 0, 2, ""},
		{false, 4, 2, 3, 2, ""}, // empty
		{false, -10, 2, 0, 2, ""},
		{false, 7, 9, 6, 5, ""},   // empty
		{false, 2, -9, 1, -3, ""}, // empty
		{true, 2, 2, 1, 3, ""},
		{true, -2, 9, 3, 5, ""},
		{true, -6, 2, 0, 0, ""},
		{true, 6, 1, 0, 0, ""},
		{true, 0, 1, 0, 0, "slice: array indices start at 1, got 0"},
		{true, 1, -1, 0, 0, "slice: the length must not be negative, got -1"},
	} {
		bounds := listSliceBounds
		if c.spark {
			bounds = sparkSliceBounds
		}
		from, to, err := bounds(c.x, c.y, 5)
		if c.errorMessage != "" {
			if err == nil || err.Error() != c.errorMessage {
				t.Errorf("spark=%v (%d, %d): error %v, want %s", c.spark, c.x, c.y, err, c.errorMessage)
			}
			continue
		}
		if err != nil || from != c.from || to != c.to {
			t.Errorf("spark=%v (%d, %d): [%d, %d) %v, want [%d, %d)", c.spark, c.x, c.y, from, to, err, c.from, c.to)
		}
	}
}

// TestAppendSteps: the indices a stepped slice keeps, forward and back,
// with steps too large to add without overflow.
func TestAppendSteps(t *testing.T) {
	for _, c := range []struct {
		from, to, step int64
		want           []int32
	}{
		{0, 5, 1, []int32{10, 11, 12, 13, 14}},
		{0, 5, 2, []int32{10, 12, 14}},
		{1, 5, 2, []int32{11, 13}},
		{0, 5, -2, []int32{14, 12, 10}},
		{0, 4, -3, []int32{13, 10}},
		{2, 2, 1, nil},
		{3, 1, -1, nil},
		{0, 5, math.MaxInt64, []int32{10}},
		{0, 5, math.MinInt64, []int32{14}},
	} {
		if got := appendSteps(nil, 10, c.from, c.to, c.step); !slices.Equal(got, c.want) {
			t.Errorf("[%d, %d) step %d: %v, want %v", c.from, c.to, c.step, got, c.want)
		}
	}
}

// TestIntegerSequence: the count of a sequence across the whole BIGINT
// range does not overflow, and a step away from stop is an error.
func TestIntegerSequence(t *testing.T) {
	lit := func(v int64) operand {
		return operand{lit: &planner.Literal{Value: v, T: planner.TypeBigint}, t: arrow.PrimitiveTypes.Int64}
	}
	got, err := integerSequence(nil, []operand{lit(math.MinInt64), lit(math.MaxInt64), lit(math.MaxInt64)}, 0)
	if want := []int64{math.MinInt64, -1, math.MaxInt64 - 1}; err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v %v, want %v", got, err, want)
	}
	if _, err := integerSequence(nil, []operand{lit(1), lit(5), lit(-1)}, 0); err == nil {
		t.Error("sequence(1, 5, -1): no error")
	}
	if _, err := integerSequence(nil, []operand{lit(0), lit(math.MaxInt64)}, 0); err == nil {
		t.Error("sequence(0, max): no error for a sequence too long")
	}
}
