package planner

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
)

// IcebergFilter translates a predicate over a scan's columns into an Iceberg
// expression over the table's column names, for pruning. The result is implied
// by e: every row for which e is TRUE satisfies it (parts that cannot be
// translated become AlwaysTrue), so pruning with it never drops a matching row.
// ok is false when nothing could be translated.
func IcebergFilter(e Expr, cols []ScanColumn) (iceberg.BooleanExpression, bool) {
	out := toIceberg(e, cols)
	if out == nil || out.Op() == iceberg.OpTrue {
		return iceberg.AlwaysTrue{}, false
	}
	return out, true
}

// toIceberg returns nil when e cannot be expressed.
func toIceberg(e Expr, cols []ScanColumn) iceberg.BooleanExpression {
	call, ok := e.(*Call)
	if !ok {
		if lit, ok := e.(*Literal); ok && lit.T.ID() == arrow.BOOL {
			if lit.Value == false || lit.Value == nil {
				return iceberg.AlwaysFalse{}
			}
			return iceberg.AlwaysTrue{}
		}
		return nil
	}
	switch call.Fn {
	case FnAnd:
		l, r := toIceberg(call.Args[0], cols), toIceberg(call.Args[1], cols)
		switch {
		case l == nil && r == nil:
			return nil
		case l == nil:
			return r // a AND b implies b
		case r == nil:
			return l
		}
		return iceberg.NewAnd(l, r)
	case FnOr:
		l, r := toIceberg(call.Args[0], cols), toIceberg(call.Args[1], cols)
		if l == nil || r == nil {
			return nil
		}
		return iceberg.NewOr(l, r)
	case FnNot:
		inner := toIcebergExact(call.Args[0], cols)
		if inner == nil {
			return nil
		}
		return iceberg.NewNot(inner)
	case FnEq, FnNe, FnLt, FnLe, FnGt, FnGe:
		return comparisonToIceberg(call, cols)
	case FnLike:
		return likeToIceberg(call, cols, false)
	}
	return toIcebergExact(e, cols)
}

// toIcebergExact translates e only when the translation is equivalent to e,
// which NOT needs: NOT of a weaker predicate would be a stronger one. Iceberg
// rewrites NOT (x < c) as x >= c, which drops NaN rows that lakesql (ordering
// NaN above all numbers) keeps, so predicates on float columns are never exact.
func toIcebergExact(e Expr, cols []ScanColumn) iceberg.BooleanExpression {
	call, ok := e.(*Call)
	if !ok || len(call.Args) > 0 && isFloat(call.Args[0].Type()) && call.Fn != FnIsNull && call.Fn != FnIsNotNull {
		return nil
	}
	switch call.Fn {
	case FnAnd, FnOr:
		l, r := toIcebergExact(call.Args[0], cols), toIcebergExact(call.Args[1], cols)
		if l == nil || r == nil {
			return nil
		}
		if call.Fn == FnAnd {
			return iceberg.NewAnd(l, r)
		}
		return iceberg.NewOr(l, r)
	case FnNot:
		inner := toIcebergExact(call.Args[0], cols)
		if inner == nil {
			return nil
		}
		return iceberg.NewNot(inner)
	case FnIsNull, FnIsNotNull:
		ref, ok := columnOf(call.Args[0], cols)
		if !ok {
			return nil
		}
		if call.Fn == FnIsNull {
			return iceberg.IsNull(ref)
		}
		return iceberg.NotNull(ref)
	case FnEq, FnNe, FnLt, FnLe, FnGt, FnGe:
		return comparisonToIceberg(call, cols)
	case FnIn:
		return inToIceberg(call, cols)
	case FnLike:
		return likeToIceberg(call, cols, true)
	case FnStartsWith:
		ref, ok := columnOf(call.Args[0], cols)
		lit, isLit := call.Args[1].(*Literal)
		if !ok || !isLit || lit.Value == nil {
			return nil
		}
		return iceberg.StartsWith(ref, lit.Value.(string))
	}
	return nil
}

// flipped gives the comparison with its operands swapped: 5 < x is x > 5.
var flipped = map[string]string{FnEq: FnEq, FnNe: FnNe, FnLt: FnGt, FnLe: FnGe, FnGt: FnLt, FnGe: FnLe}

var icebergOps = map[string]iceberg.Operation{
	FnEq: iceberg.OpEQ, FnNe: iceberg.OpNEQ, FnLt: iceberg.OpLT, FnLe: iceberg.OpLTEQ, FnGt: iceberg.OpGT, FnGe: iceberg.OpGTEQ,
}

func comparisonToIceberg(call *Call, cols []ScanColumn) iceberg.BooleanExpression {
	fn, colExpr, litExpr := call.Fn, call.Args[0], call.Args[1]
	if _, isLit := colExpr.(*Literal); isLit {
		fn, colExpr, litExpr = flipped[fn], litExpr, colExpr
	}
	ref, ok := columnOf(colExpr, cols)
	if !ok {
		return nil
	}
	lit, ok := litExpr.(*Literal)
	if !ok || lit.Value == nil {
		return nil
	}
	if IsNaN(lit.Value) {
		return nil
	}
	value, ok := IcebergLiteral(lit.Value, lit.T)
	if !ok {
		return nil
	}
	pred := iceberg.LiteralPredicate(icebergOps[fn], ref, value)
	// lakesql orders NaN above every number (as DuckDB does), so x > c and
	// x <> c hold for NaN; Iceberg's metrics exclude NaN from bounds, so say so.
	if isFloat(colExpr.Type()) && (fn == FnGt || fn == FnGe || fn == FnNe) {
		return iceberg.NewOr(pred, iceberg.IsNaN(ref))
	}
	return pred
}

func inToIceberg(call *Call, cols []ScanColumn) iceberg.BooleanExpression {
	ref, ok := columnOf(call.Args[0], cols)
	if !ok {
		return nil
	}
	lits := make([]iceberg.Literal, 0, len(call.Args)-1)
	for _, a := range call.Args[1:] {
		lit, ok := a.(*Literal)
		if !ok || IsNaN(lit.Value) {
			return nil
		}
		if lit.Value == nil {
			continue // x IN (…, NULL) is never TRUE because of the NULL
		}
		v, ok := IcebergLiteral(lit.Value, lit.T)
		if !ok {
			return nil
		}
		lits = append(lits, v)
	}
	if len(lits) == 0 {
		return iceberg.AlwaysFalse{}
	}
	return iceberg.SetPredicate(iceberg.OpIn, ref, lits)
}

// likeToIceberg turns x LIKE 'prefix%' into starts_with(x, 'prefix') and a
// pattern without wildcards into x = 'text'; both are exact. Other patterns
// ('a_p%') imply starts_with of their literal prefix, which only a context
// that needs no exactness (not under NOT) may use.
func likeToIceberg(call *Call, cols []ScanColumn, exact bool) iceberg.BooleanExpression {
	ref, ok := columnOf(call.Args[0], cols)
	if !ok {
		return nil
	}
	lits := make([]string, 0, 2)
	for _, a := range call.Args[1:] {
		lit, ok := a.(*Literal)
		if !ok || lit.Value == nil {
			return nil
		}
		lits = append(lits, lit.Value.(string))
	}
	escape := `\`
	if len(lits) == 2 {
		escape = lits[1]
	}
	prefix, shape, ok := likePrefixOf(lits[0], escape)
	switch {
	case !ok:
		return nil
	case shape == likeEqual:
		return iceberg.EqualTo(ref, prefix)
	case shape == likePrefix || !exact && prefix != "":
		return iceberg.StartsWith(ref, prefix)
	}
	return nil
}

// columnOf names the column (or struct field: s.a is "s.a", which Iceberg
// binds to the nested field) that e reads.
func columnOf(e Expr, cols []ScanColumn) (iceberg.Reference, bool) {
	if name, ok := fieldName(e); ok {
		base, ok := columnOf(e.(*Call).Args[0], cols)
		return base + iceberg.Reference("."+name), ok
	}
	ref, ok := e.(*ColumnRef)
	if !ok || ref.Index >= len(cols) || IsMetadataColumn(cols[ref.Index].FieldID) {
		return "", false
	}
	return iceberg.Reference(cols[ref.Index].Name), true
}

func isFloat(t arrow.DataType) bool {
	return t.ID() == arrow.FLOAT32 || t.ID() == arrow.FLOAT64
}

// IsNaN reports whether a constant is a float NaN.
func IsNaN(v any) bool {
	switch f := v.(type) {
	case float32:
		return math.IsNaN(float64(f))
	case float64:
		return math.IsNaN(f)
	}
	return false
}

// IcebergLiteral converts a planner constant to an Iceberg literal.
func IcebergLiteral(v any, t arrow.DataType) (iceberg.Literal, bool) {
	switch x := v.(type) {
	case bool:
		return iceberg.BoolLiteral(x), true
	case int32:
		if t.ID() == arrow.DATE32 {
			return iceberg.DateLiteral(iceberg.Date(x)), true
		}
		return iceberg.Int32Literal(x), true
	case int64:
		switch t.ID() {
		case arrow.TIMESTAMP:
			if t.(*arrow.TimestampType).Unit == arrow.Nanosecond {
				return iceberg.TimestampNsLiteral(iceberg.TimestampNano(x)), true
			}
			return iceberg.TimestampLiteral(iceberg.Timestamp(x)), true
		case arrow.TIME64:
			return iceberg.TimeLiteral(iceberg.Time(x)), true
		}
		return iceberg.Int64Literal(x), true
	case float32:
		return iceberg.Float32Literal(x), true
	case float64:
		return iceberg.Float64Literal(x), true
	case string:
		return iceberg.StringLiteral(x), true
	case []byte:
		if t.ID() == arrow.BINARY {
			return iceberg.BinaryLiteral(x), true
		}
	case decimal128.Num:
		return iceberg.DecimalLiteral(iceberg.Decimal{Val: x, Scale: int(t.(*arrow.Decimal128Type).Scale)}), true
	}
	return nil, false
}
