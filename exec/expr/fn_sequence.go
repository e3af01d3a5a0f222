package expr

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

func init() {
	scalarFns[planner.FnSequence] = scalarFn{2, 3, false, sequenceKernel}
}

// sequenceKernel builds Spark's sequence(start, stop[, step]) of BIGINTs,
// or of dates or timestamps stepped by an interval (the k-th element is
// start + k × step, as in Spark, so month steps from the 31st stay on
// month ends).
func sequenceKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	elem := c.T.(*arrow.ListType).Elem()
	validity := ev.validity(ops...)
	offsets := NewBuffer(ev.mem, (ev.n+1)*arrow.Int32SizeBytes)
	offs := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	var values []int64
	var err error
	for i := 0; i < ev.n && err == nil; i++ {
		offs[i] = int32(len(values))
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			continue
		}
		if elem.ID() == arrow.INT64 {
			values, err = integerSequence(values, ops, i)
		} else {
			values, err = instantSequence(values, ops, i)
		}
	}
	offs[ev.n] = int32(len(values))
	if err != nil {
		offsets.Release()
		if validity != nil {
			validity.Release()
		}
		return nil, wrapError(c, err)
	}
	elems := sequenceValues(ev.mem, elem, values)
	defer elems.Release()
	return nestedArray(c.T, ev.n, validity, offsets, elems.Data()), nil
}

// maxSequence bounds the elements of one batch's sequences, as Arrow's
// 32-bit list offsets do.
const maxSequence = math.MaxInt32

func boundaryError(start, stop, step any) error {
	return fmt.Errorf("illegal sequence boundaries: %v to %v by %v", start, stop, step)
}

func integerSequence(dst []int64, ops []operand, i int) ([]int64, error) {
	start, stop := fixedVec[int64](ops[0]).At(i), fixedVec[int64](ops[1]).At(i)
	step := int64(1)
	if len(ops) == 3 {
		step = fixedVec[int64](ops[2]).At(i)
	} else if stop < start {
		step = -1
	}
	switch {
	case start == stop:
		return append(dst, start), nil
	case step == 0 || step > 0 && start > stop || step < 0 && start < stop:
		return nil, boundaryError(start, stop, step)
	}
	// The count in uint64: stop - start may overflow int64.
	count := (uint64(stop)-uint64(start))/uint64(step) + 1
	if step < 0 {
		count = (uint64(start)-uint64(stop))/uint64(-step) + 1
	}
	if count > uint64(maxSequence-len(dst)) {
		return nil, fmt.Errorf("sequence of %d elements is too long", count)
	}
	for k := range int64(count) {
		dst = append(dst, start+k*step)
	}
	return dst, nil
}

// instantSequence steps from start to stop in microseconds.
func instantSequence(dst []int64, ops []operand, i int) ([]int64, error) {
	start, stop := newInstantVec(ops[0]).At(i), newInstantVec(ops[1]).At(i)
	step := arrow.MonthDayNanoInterval{Days: 1}
	if len(ops) == 3 {
		step = fixedVec[arrow.MonthDayNanoInterval](ops[2]).At(i)
	} else if stop < start {
		step.Days = -1
	}
	next, o := AddInterval(start, step)
	switch {
	case start == stop:
		return append(dst, start), nil
	case o != ValueOK || next == start || next > start && start > stop || next < start && start < stop:
		return nil, boundaryError(start, stop, string(value.AppendInterval(nil, step)))
	}
	for k := int64(0); ; k++ {
		iv, ok := value.MultiplyInterval(step, k)
		if !ok {
			return dst, nil
		}
		t, o := AddInterval(start, iv)
		if o != ValueOK || next > start && t > stop || next < start && t < stop {
			return dst, nil
		}
		if len(dst) >= maxSequence {
			return nil, fmt.Errorf("sequence is too long")
		}
		dst = append(dst, t)
	}
}

// sequenceValues wraps the elements as BIGINTs, timestamps (microseconds)
// or dates (days).
func sequenceValues(mem memory.Allocator, t arrow.DataType, values []int64) arrow.Array {
	if t.ID() == arrow.DATE32 {
		buf := NewBuffer(mem, len(values)*arrow.Int32SizeBytes)
		days := arrow.Int32Traits.CastFromBytes(buf.Bytes())
		for k, v := range values {
			d, _ := floorDivMod(v, microsPerDay)
			days[k] = int32(d)
		}
		return MakeArray(t, len(values), nil, buf)
	}
	buf := NewBuffer(mem, len(values)*arrow.Int64SizeBytes)
	copy(arrow.Int64Traits.CastFromBytes(buf.Bytes()), values)
	return MakeArray(t, len(values), nil, buf)
}
