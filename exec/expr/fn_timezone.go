package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Session time zone conversions (planner/timezone.go). The zone is a
// constant STRING operand, loaded once per evaluation.

// zoneOperand reads the constant zone operand of c.
func zoneOperand(c *planner.Call, o operand) (*time.Location, error) {
	if o.lit == nil {
		return nil, fmt.Errorf("%s: the time zone must be a constant string", c)
	}
	name, _ := o.lit.Value.(string)
	return value.LoadZone(name)
}

func tzLocalKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	loc, err := zoneOperand(c, ops[1])
	if err != nil {
		return nil, err
	}
	x := fixedVec[int64](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return value.InstantToLocal(x.At(i), loc), ValueOK
	}, nil)
}

// tzAddIntervalKernel adds intervals to instants in a zone: the months and
// days on the wall clock there, then the rest as elapsed time.
func tzAddIntervalKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	loc, err := zoneOperand(c, ops[2])
	if err != nil {
		return nil, err
	}
	x, iv := fixedVec[int64](ops[0]), fixedVec[arrow.MonthDayNanoInterval](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return AddIntervalIn(x.At(i), iv.At(i), loc)
	}, rangeError(c))
}

// AddIntervalIn adds iv to the instant us: its months and days on the wall
// clock in loc (nil: UTC), then the rest as elapsed time.
func AddIntervalIn(us int64, iv arrow.MonthDayNanoInterval, loc *time.Location) (int64, outcome) {
	if value.IsUTC(loc) {
		return AddInterval(us, iv)
	}
	if iv.Months != 0 || iv.Days != 0 {
		local, o := AddInterval(value.InstantToLocal(us, loc), arrow.MonthDayNanoInterval{Months: iv.Months, Days: iv.Days})
		if o != ValueOK {
			return 0, o
		}
		us = value.LocalToInstant(local, loc)
	}
	return IntAdd(us, iv.Nanoseconds/1000)
}

func tzInstantKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	loc, err := zoneOperand(c, ops[1])
	if err != nil {
		return nil, err
	}
	x := fixedVec[int64](ops[0])
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		return value.LocalToInstant(x.At(i), loc), ValueOK
	}, nil)
}

func tzParseKernel(try bool) func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	return func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
		loc, err := zoneOperand(c, ops[1])
		if err != nil {
			return nil, err
		}
		s := newBytesVec(ops[0])
		return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
			v, err := value.ParseTimestampTZIn(unsafeString(s.At(i)), loc)
			switch {
			case err == nil:
				return v, ValueOK
			case try:
				return 0, valueNull
			}
			return 0, overflow
		}, func(i int) error {
			return fmt.Errorf("cannot cast '%s' to TIMESTAMPTZ", s.At(i))
		})
	}
}

func tzFormatKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	loc, err := zoneOperand(c, ops[1])
	if err != nil {
		return nil, err
	}
	x := fixedVec[int64](ops[0])
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return value.AppendTimestampIn(dst, x.At(i), loc)
	}), nil
}
