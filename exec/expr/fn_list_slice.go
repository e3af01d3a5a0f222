package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListSlice] = scalarFn{3, 3, false, sliceKernel(listSliceBounds)}
	scalarFns[planner.FnSlice] = scalarFn{3, 3, false, sliceKernel(sparkSliceBounds)}
}

// sliceBounds turns a slice's two arguments into the 0-based half-open
// range [from, to) of an array of n elements; from >= to is empty.
type sliceBounds func(x, y, n int64) (from, to int64, err error)

// listSliceBounds reads DuckDB's list_slice(a, begin, end): 1-based and
// inclusive, a negative bound counting from the end (-1 the last), bounds
// beyond the array clamped to it.
func listSliceBounds(begin, end, n int64) (int64, int64, error) {
	if begin < 0 {
		begin += n + 1
	}
	if end < 0 {
		end += n + 1
	}
	return max(begin, 1) - 1, min(end, n), nil
}

// sparkSliceBounds reads Spark's slice(a, start, length): start counts from
// 1, or from the end when negative; a start outside the array gives [].
func sparkSliceBounds(start, length, n int64) (int64, int64, error) {
	switch {
	case start == 0:
		return 0, 0, fmt.Errorf("slice: array indices start at 1, got 0")
	case length < 0:
		return 0, 0, fmt.Errorf("slice: the length must not be negative, got %d", length)
	case start < 0:
		start += n
	default:
		start--
	}
	if start < 0 || start >= n {
		return 0, 0, nil
	}
	return start, start + min(length, n-start), nil
}

// sliceKernel keeps the elements of each array within bounds.
func sliceKernel(bounds sliceBounds) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		a := ops[0].arr.(*array.List)
		var err error
		out, gatherErr := ev.gatherLists(c.T, ev.validity(ops...), a.ListValues(), func(i int, dst []int32) []int32 {
			x, _ := intAt(ops[1], i)
			y, _ := intAt(ops[2], i)
			start, end := a.ValueOffsets(i)
			from, to, rowErr := bounds(x, y, end-start)
			if rowErr != nil {
				err = rowErr
			}
			for j := from; j < to && rowErr == nil; j++ {
				dst = append(dst, int32(start+j))
			}
			return dst
		})
		if gatherErr != nil {
			return nil, gatherErr
		}
		return releaseOnError(out, err)
	}
}
