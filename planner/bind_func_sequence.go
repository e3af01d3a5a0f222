package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// FnSequence is Spark's sequence(start, stop[, step]) → ARRAY, both ends
// included: integers by an integer step (1, or -1 when stop < start), dates
// and timestamps by an interval step (1 day, or -1 day). A step leading
// away from stop is an error.
const FnSequence = "sequence"

func bindSequence(_ *binder, c *funcCall) (Expr, error) {
	if allNull(c.args[:2]) {
		return &Literal{T: TypeNull}, nil
	}
	bounds, err := unifyResults(c.pos, c.args[0], c.args[1])
	if err != nil {
		return nil, err
	}
	t := bounds[0].Type()
	var step param
	switch {
	case IsInteger(t):
		step = intArg
		for i, b := range bounds {
			bounds[i] = castFolded(b, TypeBigint)
		}
	case isTemporal(t):
		step = accepting(func(t arrow.DataType) bool { return t.ID() == arrow.INTERVAL_MONTH_DAY_NANO }, TypeInterval)
	default:
		return nil, c.mismatch()
	}
	args := bounds
	if len(c.args) == 3 {
		s, ok := step(c.args[2])
		if !ok {
			return nil, c.mismatch()
		}
		args = append(args, s)
	}
	seq := &Call{Fn: FnSequence, Args: args, T: arrow.ListOfField(elementField(bounds[0].Type()))}
	return castFolded(seq, arrow.ListOfField(elementField(t))), nil
}
