package expr

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListSlice] = scalarFn{3, 4, false, listSliceKernel}
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

// listSliceKernel is DuckDB's list_slice(x, begin, end[, step]) of a list,
// or of a string's characters (never with a step: the planner refuses it).
func listSliceKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if c.T.ID() != arrow.LIST {
		return stringSliceKernel(ev, ops), nil
	}
	return sliceKernel(listSliceBounds)(ev, c, ops)
}

// stringSliceKernel keeps the characters of each string within
// listSliceBounds.
func stringSliceKernel(ev *evaluator, ops []operand) arrow.Array {
	s := newBytesVec(ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		v := s.At(i)
		x, _ := intAt(ops[1], i)
		y, _ := intAt(ops[2], i)
		from, to, _ := listSliceBounds(x, y, int64(utf8.RuneCount(v)))
		return append(dst, chars(v, from, to)...)
	})
}

// errZeroStep: a slice cannot step by 0, unless it is empty (DuckDB).
var errZeroStep = errors.New("list_slice: the step must not be 0")

// sliceKernel keeps the elements of each array within bounds, every
// step-th one when a fourth operand gives the step. A negative step walks
// backwards, from the first bound down to the second (DuckDB: [5:1:-2] is
// elements 5, 3 and 1).
func sliceKernel(bounds sliceBounds) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		a := ops[0].arr.(*array.List)
		var err error
		out, gatherErr := ev.gatherLists(c.T, ev.validity(ops...), a.ListValues(), func(i int, dst []int32) []int32 {
			x, _ := intAt(ops[1], i)
			y, _ := intAt(ops[2], i)
			step := int64(1)
			if len(ops) == 4 {
				step, _ = intAt(ops[3], i)
			}
			if step < 0 {
				x, y = y, x
			}
			start, end := a.ValueOffsets(i)
			from, to, rowErr := bounds(x, y, end-start)
			if rowErr == nil && step == 0 && from < to {
				rowErr = errZeroStep
			}
			if rowErr != nil {
				err = rowErr
				return dst
			}
			return appendSteps(dst, start, from, to, step)
		})
		if gatherErr != nil {
			return nil, gatherErr
		}
		return releaseOnError(out, err)
	}
}

// appendSteps appends to dst the indices base+from, base+from+step, …
// below base+to, or for a negative step base+to-1, base+to-1+step, … not
// below base+from. Steps of any size, math.MinInt64 too, do not overflow.
func appendSteps(dst []int32, base, from, to, step int64) []int32 {
	if from >= to {
		return dst
	}
	stride, last := uint64(step), uint64(to-from-1)
	if step < 0 {
		stride = -stride
	}
	for off := uint64(0); ; off += stride {
		if step > 0 {
			dst = append(dst, int32(base+from+int64(off)))
		} else {
			dst = append(dst, int32(base+to-1-int64(off)))
		}
		if stride > last-off {
			break // the next step would pass the last element
		}
	}
	return dst
}
