package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
)

// arrayJoinKernel is array_join(a, sep[, null_replacement]) of Spark and
// Trino: the array's strings joined by sep, NULL elements skipped, or
// replaced when a replacement is given.
func arrayJoinKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	a := ops[0].arr.(*array.List)
	elems := a.ListValues().(*array.String)
	sep := newBytesVec(ops[1])
	var nullRep *BytesVec
	if len(ops) == 3 {
		nullRep = newBytesVec(ops[2])
	}
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		start, end := a.ValueOffsets(i)
		first := true
		for j := int(start); j < int(end); j++ {
			if elems.IsNull(j) && nullRep == nil {
				continue
			}
			if !first {
				dst = append(dst, sep.At(i)...)
			}
			first = false
			if elems.IsNull(j) {
				dst = append(dst, nullRep.At(i)...)
			} else {
				dst = append(dst, elems.Value(j)...)
			}
		}
		return dst
	}), nil
}
