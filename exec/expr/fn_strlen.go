package expr

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// strlenKernel is DuckDB's strlen: the length of a string in bytes.
func strlenKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	s := newBytesVec(ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return int64(len(s.At(i))), ValueOK
	}, nil)
}
