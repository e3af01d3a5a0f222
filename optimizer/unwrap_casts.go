package optimizer

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
)

// unwrapCasts rewrites the WHERE conditions (Filter nodes) with unwrapCast
// and unwrapCastIn, so the rows are tested on the column as stored: TPC-H's
// l_shipdate <= date '1998-12-01' - interval '90' day, whose right side is
// a TIMESTAMP, otherwise casts six million dates per query. The rewrites
// may turn a NULL into FALSE (x = 2.5 on an INT column becomes FALSE), which
// only AND and OR pass on unchanged to a WHERE, so the rule goes no deeper;
// one that holds for every value (x < 3000000000 on an INT) becomes x IS NOT
// NULL, as a NULL x still fails it.
func unwrapCasts(p planner.Plan) planner.Plan {
	p = withChildren(p, unwrapCasts)
	f, ok := p.(*planner.Filter)
	if !ok {
		return p
	}
	out := *f
	out.Cond = unwrapCastsInCondition(f.Cond)
	return &out
}

func unwrapCastsInCondition(e planner.Expr) planner.Expr {
	call, ok := e.(*planner.Call)
	if !ok {
		return e
	}
	switch call.Fn {
	case planner.FnAnd, planner.FnOr:
		return mapOperands(call, unwrapCastsInCondition)
	case planner.FnEq, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe:
		r, ok := unwrapCast(call)
		if !ok {
			return e
		}
		if lit, isLit := r.(*planner.Literal); isLit && lit.Value == true {
			return &planner.Call{Fn: planner.FnIsNotNull, Args: []planner.Expr{castColumn(call)}, T: planner.TypeBoolean}
		}
		return r
	case planner.FnIn:
		if r, ok := unwrapCastIn(call); ok {
			return r
		}
	}
	return e
}

// castColumn is the column under the cast of a comparison unwrapCast took.
func castColumn(call *planner.Call) planner.Expr {
	for _, a := range call.Args {
		if c, ok := a.(*planner.Cast); ok {
			return c.X
		}
	}
	return nil
}

// unwrapCast rewrites CAST(column AS T) op constant, which the binder writes
// whenever a column meets a constant of a wider type (price BETWEEN 50 AND
// 200 on a DECIMAL(9,2), int_col = 2.0, ts >= now() on a TIMESTAMP), into a
// comparison of the column itself with a constant of its own type, which
// partitions and statistics can use. The casts unwrapped keep order, so the
// constant is rounded onto the column's values: an INT column x > 2.5 is
// x > 2, x = 2.5 is FALSE.
func unwrapCast(call *planner.Call) (planner.Expr, bool) {
	fn, castExpr, litExpr := call.Fn, call.Args[0], call.Args[1]
	if _, isLit := castExpr.(*planner.Literal); isLit {
		fn, castExpr, litExpr = flippedOp[fn], litExpr, castExpr
	}
	c, ok := castExpr.(*planner.Cast)
	lit, isLit := litExpr.(*planner.Literal)
	if !ok || !isLit || c.Try || lit.Value == nil || !isColumn(c.X) || fn == "" {
		return nil, false
	}
	g, ok := gridOf(c.X.Type(), c.T)
	if !ok {
		return nil, false
	}
	lo, hi, ok := g.round(lit)
	if !ok {
		return nil, false
	}
	exact := lo.Cmp(hi) == 0
	switch fn {
	case planner.FnEq:
		if !exact {
			if g.lossy {
				return nil, false
			}
			return falseLiteral(), true
		}
		return g.compare(planner.FnEq, c.X, lo)
	case planner.FnGe:
		return g.compare(planner.FnGe, c.X, hi)
	case planner.FnGt:
		return g.compare(planner.FnGt, c.X, lo)
	case planner.FnLe:
		return g.compare(planner.FnLe, c.X, lo)
	case planner.FnLt:
		return g.compare(planner.FnLt, c.X, hi)
	}
	return nil, false
}

// unwrapCastIn rewrites CAST(column AS T) IN (constants) the same way;
// constants no column value casts to are dropped.
func unwrapCastIn(call *planner.Call) (planner.Expr, bool) {
	c, ok := call.Args[0].(*planner.Cast)
	if !ok {
		return nil, false
	}
	args := []planner.Expr{c.X}
	for _, v := range call.Args[1:] {
		eq, ok := unwrapCast(&planner.Call{Fn: planner.FnEq, Args: []planner.Expr{c, v}, T: planner.TypeBoolean})
		if !ok {
			return nil, false
		}
		if cmp, isCmp := eq.(*planner.Call); isCmp {
			args = append(args, cmp.Args[1])
		}
	}
	if len(args) == 1 {
		return falseLiteral(), true
	}
	return &planner.Call{Fn: planner.FnIn, Args: args, T: planner.TypeBoolean}, true
}

// castGrid is an order-preserving cast from a column type to a wider type T:
// the column value stored as the integer n becomes the T value n·step.
type castGrid struct {
	step     *big.Rat
	min, max *big.Int // the column's stored integers
	// lossy: T is DOUBLE, which rounds; the cast is kept only where it is
	// still one to one (below 2^52 units), and off-grid equality is left alone.
	lossy bool
	of    func(n *big.Int) any // the column literal of n
	t     arrow.DataType
}

const microsPerDayInt = 86400 * 1_000_000

// gridOf describes the cast from column type s to t, ok false when the
// cast is not one of the order-preserving widenings.
func gridOf(s, t arrow.DataType) (castGrid, bool) {
	g := castGrid{step: big.NewRat(1, 1), t: s}
	switch s.ID() {
	case arrow.INT32:
		g.min, g.max = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
		g.of = func(n *big.Int) any { return int32(n.Int64()) }
	case arrow.INT64:
		g.min, g.max = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		g.of = func(n *big.Int) any { return n.Int64() }
	case arrow.DECIMAL128:
		d := s.(*arrow.Decimal128Type)
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Precision)), nil)
		g.max = new(big.Int).Sub(limit, big.NewInt(1))
		g.min = new(big.Int).Neg(g.max)
		g.step = new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil))
		g.of = func(n *big.Int) any { return decimal128.FromBigInt(n) }
	case arrow.DATE32:
		g.min, g.max = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
		g.of = func(n *big.Int) any { return int32(n.Int64()) }
		if t.ID() != arrow.TIMESTAMP {
			return g, false
		}
		g.step = big.NewRat(microsPerDayInt, 1)
		return g, true
	case arrow.TIMESTAMP:
		// TIMESTAMP ↔ TIMESTAMPTZ casts are plain casts only in UTC (the
		// binder rewrites them into tz_* calls in other zones).
		g.min, g.max = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
		g.of = func(n *big.Int) any { return n.Int64() }
		return g, t.ID() == arrow.TIMESTAMP
	default:
		return g, false
	}
	switch t.ID() {
	case arrow.INT64, arrow.DECIMAL128:
		return g, s.ID() != arrow.DECIMAL128 || t.ID() == arrow.DECIMAL128
	case arrow.FLOAT64:
		d, isDec := s.(*arrow.Decimal128Type)
		g.lossy = s.ID() == arrow.INT64 || isDec
		return g, !isDec || d.Precision <= 15
	}
	return g, false
}

// round places a T constant among the column's values: lo is the largest
// stored integer whose value is <= v, hi the smallest whose value is >= v.
func (g castGrid) round(lit *planner.Literal) (lo, hi *big.Int, ok bool) {
	v, ok := ratOf(lit)
	if !ok {
		return nil, nil, false
	}
	q := new(big.Rat).Quo(v, g.step)
	lo = new(big.Int).Div(q.Num(), q.Denom()) // Euclidean: the floor, as the denominator is positive
	hi = new(big.Int).Set(lo)
	if !q.IsInt() {
		hi.Add(hi, big.NewInt(1))
	}
	if g.lossy && new(big.Int).Abs(hi).Cmp(big.NewInt(1<<52)) >= 0 {
		return nil, nil, false
	}
	return lo, hi, true
}

// compare builds column fn n. A bound beyond the column's range decides the
// comparison for every row: an INT column is never 3000000000 and always
// below it.
func (g castGrid) compare(fn string, col planner.Expr, n *big.Int) (planner.Expr, bool) {
	switch {
	case n.Cmp(g.max) > 0:
		return boolLit(fn == planner.FnLe || fn == planner.FnLt), true
	case n.Cmp(g.min) < 0:
		return boolLit(fn == planner.FnGe || fn == planner.FnGt), true
	}
	return comparison(fn, col, &planner.Literal{Value: g.of(n), T: g.t}), true
}

// ratOf is a numeric or temporal constant as an exact rational.
func ratOf(lit *planner.Literal) (*big.Rat, bool) {
	switch v := lit.Value.(type) {
	case int32:
		return new(big.Rat).SetInt64(int64(v)), true
	case int64:
		return new(big.Rat).SetInt64(v), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(v), true
	case decimal128.Num:
		d, ok := lit.T.(*arrow.Decimal128Type)
		if !ok {
			return nil, false
		}
		return new(big.Rat).SetFrac(v.BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale)), nil)), true
	}
	return nil, false
}
