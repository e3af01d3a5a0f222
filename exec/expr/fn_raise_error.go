package expr

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// raiseErrorKernel is raise_error(message): it fails the statement with the
// message of the first row it runs on. CASE and COALESCE run it only on
// the rows that reach it, so over none it returns an empty array.
func raiseErrorKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ev.n == 0 {
		return NullArray(ev.mem, c.T, 0), nil
	}
	msg := "raise_error(NULL)"
	switch o := ops[0]; {
	case o.lit != nil:
		if s, ok := o.lit.Value.(string); ok {
			msg = s
		}
	case o.arr.IsValid(0):
		msg = o.arr.ValueStr(0)
	}
	return nil, errors.New(msg)
}
