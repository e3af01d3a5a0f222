package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/storage"
)

// latePredicates extracts from a scan's bound row filter the conjuncts that
// storage can test on one integer-backed column (=, IN, <, <=, >, >= with
// literals) or STRING column (=, IN), so that row groups decode the other
// columns only at rows that can match (late materialization). Every predicate returned is implied by
// the filter; conjuncts it cannot use are left out, never approximated.
func latePredicates(filter iceberg.BooleanExpression, cols []storage.ReadColumn) []storage.ColumnPredicate {
	if filter == nil {
		return nil
	}
	var conjuncts []iceberg.BooleanExpression
	var walk func(e iceberg.BooleanExpression)
	walk = func(e iceberg.BooleanExpression) {
		if and, ok := e.(iceberg.AndExpr); ok {
			l, r := andChildren(and)
			walk(l)
			walk(r)
			return
		}
		conjuncts = append(conjuncts, e)
	}
	walk(filter)
	var preds []storage.ColumnPredicate
	for _, c := range conjuncts {
		if p, ok := latePredicate(c, cols); ok {
			preds = append(preds, p)
		}
	}
	return preds
}

// andChildren returns the operands of an AND through the visitor, the only
// way iceberg-go exposes them.
func andChildren(and iceberg.AndExpr) (l, r iceberg.BooleanExpression) {
	v := &andSplitter{}
	iceberg.VisitExpr[iceberg.BooleanExpression](and, v)
	return v.left, v.right
}

// andSplitter rebuilds the expression unchanged, recording the operands of
// the outermost AND (visited last).
type andSplitter struct{ left, right iceberg.BooleanExpression }

func (v *andSplitter) VisitTrue() iceberg.BooleanExpression  { return iceberg.AlwaysTrue{} }
func (v *andSplitter) VisitFalse() iceberg.BooleanExpression { return iceberg.AlwaysFalse{} }
func (v *andSplitter) VisitNot(e iceberg.BooleanExpression) iceberg.BooleanExpression {
	return iceberg.NewNot(e)
}
func (v *andSplitter) VisitAnd(l, r iceberg.BooleanExpression) iceberg.BooleanExpression {
	v.left, v.right = l, r
	return iceberg.NewAnd(l, r)
}
func (v *andSplitter) VisitOr(l, r iceberg.BooleanExpression) iceberg.BooleanExpression {
	return iceberg.NewOr(l, r)
}
func (v *andSplitter) VisitUnbound(p iceberg.UnboundPredicate) iceberg.BooleanExpression { return p }
func (v *andSplitter) VisitBound(p iceberg.BoundPredicate) iceberg.BooleanExpression     { return p }

func latePredicate(e iceberg.BooleanExpression, cols []storage.ReadColumn) (storage.ColumnPredicate, bool) {
	var none storage.ColumnPredicate
	p, ok := e.(iceberg.BoundPredicate)
	if !ok {
		return none, false
	}
	ref, ok := p.Term().(iceberg.BoundReference)
	if !ok {
		return none, false
	}
	col := -1
	for i, c := range cols {
		if c.FieldID == ref.Field().ID {
			col = i
			break
		}
	}
	isString := col >= 0 && cols[col].Type.ID() == arrow.STRING
	if col < 0 || !isString && !storage.FilterableType(cols[col].Type) {
		return none, false
	}
	var lits []iceberg.Literal
	var op storage.CompareOp
	switch p.Op() {
	case iceberg.OpEQ, iceberg.OpIn:
		op = storage.OpEq
	case iceberg.OpLT:
		op = storage.OpLt
	case iceberg.OpLTEQ:
		op = storage.OpLe
	case iceberg.OpGT:
		op = storage.OpGt
	case iceberg.OpGTEQ:
		op = storage.OpGe
	default:
		return none, false
	}
	switch p := p.(type) {
	case iceberg.BoundLiteralPredicate:
		lits = []iceberg.Literal{p.Literal()}
	case iceberg.BoundSetPredicate:
		if op != storage.OpEq {
			return none, false
		}
		lits = p.Literals().Members()
	default:
		return none, false
	}
	if len(lits) == 0 {
		return none, false
	}
	if isString {
		return stringPredicate(col, op, lits)
	}
	vals := make([]int64, 0, len(lits))
	for _, l := range lits {
		v, ok := lateLiteral(l, cols[col].Type)
		if !ok {
			return none, false
		}
		vals = append(vals, v)
	}
	return storage.ColumnPredicate{Col: col, Op: op, Values: vals}, true
}

// stringPredicate is the predicate col = any of lits on a STRING column:
// equality only, as byte order is not worth testing per row.
func stringPredicate(col int, op storage.CompareOp, lits []iceberg.Literal) (storage.ColumnPredicate, bool) {
	if op != storage.OpEq {
		return storage.ColumnPredicate{}, false
	}
	strs := make([]string, 0, len(lits))
	for _, l := range lits {
		s, ok := l.(iceberg.StringLiteral)
		if !ok {
			return storage.ColumnPredicate{}, false
		}
		strs = append(strs, string(s))
	}
	return storage.ColumnPredicate{Col: col, Op: op, Strings: strs}, true
}

// lateLiteral returns a literal as the integer the Arrow column stores, when
// its type matches the column's exactly.
func lateLiteral(l iceberg.Literal, t arrow.DataType) (int64, bool) {
	switch l := l.(type) {
	case iceberg.Int32Literal:
		return int64(l), t.ID() == arrow.INT32
	case iceberg.Int64Literal:
		return int64(l), t.ID() == arrow.INT64
	case iceberg.DateLiteral:
		return int64(l), t.ID() == arrow.DATE32
	case iceberg.TimestampLiteral:
		ts, ok := t.(*arrow.TimestampType)
		return int64(l), ok && ts.Unit == arrow.Microsecond
	case iceberg.DecimalLiteral:
		// The unscaled value, at the column's scale (binding converts
		// literals to it) and within int64 (FilterableType's 18 digits).
		d, ok := t.(*arrow.Decimal128Type)
		v := l.Val
		return int64(v.LowBits()), ok && int(d.Scale) == l.Scale && v.FitsInPrecision(d.Precision)
	}
	return 0, false
}
