package expr

import (
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/uuid"

	"github.com/lakesql/lakesql/planner"
)

// Volatile kernels: a new value for every row of every evaluation (the
// optimizer neither folds nor duplicates them, see planner.IsVolatile).

// randKernel is rand(): a DOUBLE uniformly distributed in [0, 1).
func randKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return fixedRows(ev, c.T, ops, func(int) (float64, outcome) { return rand.Float64(), ValueOK }, nil)
}

// uuidKernel is uuid(): a random (version 4) UUID as its 36-character text.
func uuidKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	var err error
	out := ev.stringRows(ops, func(dst []byte, _ int) []byte {
		id, e := uuid.NewRandom()
		if e != nil {
			err = e
		}
		return append(dst, id.String()...)
	})
	return releaseOnError(out, err)
}
