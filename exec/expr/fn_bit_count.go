package expr

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// bitCountKernel is bit_count(x): the bits set in an integer's two's
// complement at its own type's width.
func bitCountKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	switch KindOf(ops[0].t) {
	case KindInt8:
		return bitCountRows[int8](ev, c, ops)
	case KindInt16:
		return bitCountRows[int16](ev, c, ops)
	case KindInt32:
		return bitCountRows[int32](ev, c, ops)
	case KindInt64:
		return bitCountRows[int64](ev, c, ops)
	}
	return nil, fmt.Errorf("%s: unsupported type %s", c, planner.TypeString(ops[0].t))
}

func bitCountRows[T int8 | int16 | int32 | int64](ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := fixedVec[T](ops[0])
	mask := ^uint64(0) >> (64 - 8*unsafe.Sizeof(T(0))) // the type's bits of its sign extension
	return fixedRows(ev, c.T, ops, func(i int) (int8, outcome) {
		return int8(bits.OnesCount64(uint64(x.At(i)) & mask)), ValueOK
	}, nil)
}
