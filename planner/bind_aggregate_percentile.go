package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindPercentile binds median(x), percentile_cont(x, f), percentile_disc(x,
// f) and Spark's percentile_approx(x, f[, accuracy]) (also written
// approx_percentile). The parser turns percentile_cont(f) WITHIN GROUP
// (ORDER BY x) into percentile_cont(x, f). The fraction must be a constant
// between 0 and 1. percentile_approx is answered exactly, as
// percentile_disc: the accuracy argument only bounds an error lakesql does
// not make. percentile_cont interpolates, so it takes numbers and gives a
// DOUBLE; percentile_disc picks a value, of any orderable type.
func (b *binder) bindPercentile(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	want := 2
	switch e.Name {
	case "median":
		want = 1
	case "percentile_approx", "approx_percentile":
		if len(e.Args) == 3 {
			want = 3
		}
	}
	if len(e.Args) != want || e.Distinct {
		usage := map[int]string{1: "(value)", 2: "(value, fraction) or " + e.Name + "(fraction) WITHIN GROUP (ORDER BY value)", 3: "(value, fraction[, accuracy])"}
		return nil, errorf(e.Pos, "%s takes %s", e.Name, usage[want])
	}
	inner := aggregateArgs(s)
	arg, err := b.bindExpr(e.Args[0], inner)
	if err != nil {
		return nil, err
	}
	call := &AggCall{Fn: fn, Fraction: 0.5}
	if want >= 2 {
		if call.Fraction, err = b.constantFraction(e, inner); err != nil {
			return nil, err
		}
	}
	t := arg.Type()
	switch {
	case fn == AggPercentileCont:
		if t.ID() != arrow.NULL && !IsNumeric(t) {
			return nil, kindErrorf(ErrType, e.Pos, "%s needs a number, got %s", e.Name, TypeString(t))
		}
		arg, err = castTo(arg, TypeDouble)
		call.T = TypeDouble
	default:
		if t.ID() == arrow.NULL {
			arg, err = castTo(arg, TypeDouble)
		} else if !isOrderable(t) || t.ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			return nil, kindErrorf(ErrType, e.Pos, "%s cannot order values of type %s", e.Name, TypeString(t))
		}
		call.T = arg.Type()
	}
	if err != nil {
		return nil, errorf(e.Pos, "%s: %v", e.Name, err)
	}
	call.Arg = arg
	return call, nil
}

// constantFraction reads the fraction argument of a percentile: a constant
// number from 0 to 1.
func (b *binder) constantFraction(e *sql.FuncCall, s *scope) (float64, error) {
	x, err := b.bindExpr(e.Args[1], s)
	if err != nil {
		return 0, err
	}
	if IsNumeric(x.Type()) {
		if x, err = castTo(x, TypeDouble); err != nil {
			return 0, errorf(e.Pos, "%s: %v", e.Name, err)
		}
	}
	var f float64
	lit, ok := x.(*Literal)
	if ok {
		f, ok = lit.Value.(float64)
	}
	if !ok || f < 0 || f > 1 {
		return 0, errorf(e.Args[1].Position(), "%s: the fraction must be a constant number from 0 to 1, got %s", e.Name, sql.Format(e.Args[1]))
	}
	return f, nil
}
