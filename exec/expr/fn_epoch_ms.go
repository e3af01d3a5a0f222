package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// epochUnitsKernel counts whole units of perUnit microseconds since
// 1970-01-01: rounded down (Spark's unix_millis) or toward zero (DuckDB's
// epoch_ms, which makes -0.5 ms 0).
func epochUnitsKernel(perUnit int64, floor bool) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		x := newInstantVec(ops[0])
		return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
			if floor {
				q, _ := floorDivMod(x.At(i), perUnit)
				return q, ValueOK
			}
			return x.At(i) / perUnit, ValueOK
		}, nil)
	}
}

// millisToTimestampKernel is DuckDB's epoch_ms(BIGINT): the TIMESTAMP that
// many milliseconds after 1970-01-01; out of range is an error.
func millisToTimestampKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	ms := fixedVec[int64](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) { return intMul(ms.At(i), 1000) },
		func(i int) error {
			return fmt.Errorf("epoch_ms: %d milliseconds is out of the TIMESTAMP range", ms.At(i))
		})
}
