package storage

import (
	"bytes"
	"math"
	"reflect"
	"strings"

	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// FieldStats summarizes one column over a set of rows (a manifest's partition
// field, a data file, a row group). Counts are -1 when unknown; a nil bound is
// unknown.
type FieldStats struct {
	Lower, Upper iceberg.Literal
	Nulls        int64
	Values       int64 // including nulls
	NaNs         int64
	// NoBoundsMeansAllNull says that missing bounds mean every value is NULL
	// (true for manifest partition summaries).
	NoBoundsMeansAllNull bool
}

func (s FieldStats) allNull() bool {
	if s.Values >= 0 && s.Nulls >= 0 && s.Nulls == s.Values {
		return true
	}
	return s.NoBoundsMeansAllNull && s.Lower == nil && s.Upper == nil
}

// MightMatch reports whether rows described by stats could satisfy a bound
// Iceberg expression (without NOT: see iceberg.RewriteNotExpr). It answers
// true whenever it cannot tell, so skipping on false never drops a match.
func MightMatch(expr iceberg.BooleanExpression, stats func(fieldID int) FieldStats) bool {
	ok, err := iceberg.VisitExpr[bool](expr, &rangeEvaluator{stats: stats})
	return err != nil || ok
}

// rangeEvaluator decides "might match" from bounds and counts.
type rangeEvaluator struct {
	stats func(fieldID int) FieldStats
}

func (rangeEvaluator) VisitTrue() bool                            { return true }
func (rangeEvaluator) VisitFalse() bool                           { return false }
func (rangeEvaluator) VisitNot(bool) bool                         { return true } // not reached after RewriteNotExpr; stay safe
func (rangeEvaluator) VisitAnd(l, r bool) bool                    { return l && r }
func (rangeEvaluator) VisitOr(l, r bool) bool                     { return l || r }
func (rangeEvaluator) VisitUnbound(iceberg.UnboundPredicate) bool { return true }

func (e *rangeEvaluator) VisitBound(p iceberg.BoundPredicate) bool {
	return iceberg.VisitBoundPredicate[bool](p, e)
}

func (e *rangeEvaluator) of(t iceberg.BoundTerm) FieldStats {
	return e.stats(t.Ref().Field().ID)
}

func (e *rangeEvaluator) VisitIsNull(t iceberg.BoundTerm) bool { return e.of(t).Nulls != 0 }

func (e *rangeEvaluator) VisitNotNull(t iceberg.BoundTerm) bool { return !e.of(t).allNull() }

func (e *rangeEvaluator) VisitIsNan(t iceberg.BoundTerm) bool { return e.of(t).NaNs != 0 }

func (e *rangeEvaluator) VisitNotNan(t iceberg.BoundTerm) bool {
	s := e.of(t)
	return !(s.Values >= 0 && s.NaNs == s.Values)
}

func (e *rangeEvaluator) VisitLess(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	return !s.allNull() && compareBound(s.Lower, v, func(c int) bool { return c < 0 })
}

func (e *rangeEvaluator) VisitLessEqual(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	return !s.allNull() && compareBound(s.Lower, v, func(c int) bool { return c <= 0 })
}

func (e *rangeEvaluator) VisitGreater(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	return !s.allNull() && compareBound(s.Upper, v, func(c int) bool { return c > 0 })
}

func (e *rangeEvaluator) VisitGreaterEqual(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	return !s.allNull() && compareBound(s.Upper, v, func(c int) bool { return c >= 0 })
}

func (e *rangeEvaluator) VisitEqual(t iceberg.BoundTerm, v iceberg.Literal) bool {
	return e.inRange(e.of(t), v)
}

func (e *rangeEvaluator) inRange(s FieldStats, v iceberg.Literal) bool {
	if s.allNull() {
		return false
	}
	return compareBound(s.Lower, v, func(c int) bool { return c <= 0 }) &&
		compareBound(s.Upper, v, func(c int) bool { return c >= 0 })
}

// VisitNotEqual: x <> v holds for no row when every value is NULL or the
// bounds hold the one value v (an identity partition's value, a file whose
// min = max); NULL rows never pass.
func (e *rangeEvaluator) VisitNotEqual(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	return !s.allNull() && !s.only(v)
}

// only reports whether the bounds prove that every non-NULL value is v.
// Bounds are inclusive (a truncated string bound still bounds), so
// lower = upper = v leaves no other value.
func (s FieldStats) only(v iceberg.Literal) bool {
	if unusable(s.Lower) || unusable(s.Upper) {
		return false
	}
	lo, ok1 := compareLiterals(s.Lower, v)
	hi, ok2 := compareLiterals(s.Upper, v)
	return ok1 && ok2 && lo == 0 && hi == 0
}

func (e *rangeEvaluator) VisitIn(t iceberg.BoundTerm, set iceberg.Set[iceberg.Literal]) bool {
	s := e.of(t)
	for _, v := range set.Members() {
		if e.inRange(s, v) {
			return true
		}
	}
	return false
}

// VisitNotIn: x NOT IN (…) holds for no row when every value is NULL or the
// bounds hold one value, which is in the set.
func (e *rangeEvaluator) VisitNotIn(t iceberg.BoundTerm, set iceberg.Set[iceberg.Literal]) bool {
	s := e.of(t)
	if s.allNull() {
		return false
	}
	for _, v := range set.Members() {
		if s.only(v) {
			return false
		}
	}
	return true
}

func (e *rangeEvaluator) VisitStartsWith(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	if s.allNull() {
		return false
	}
	prefix, ok := v.(iceberg.StringLiteral)
	if !ok {
		return true
	}
	p := string(prefix)
	if lower, ok := s.Lower.(iceberg.StringLiteral); ok && cut(string(lower), len(p)) > p {
		return false
	}
	if upper, ok := s.Upper.(iceberg.StringLiteral); ok && cut(string(upper), len(p)) < p {
		return false
	}
	return true
}

// VisitNotStartsWith: NOT starts_with(x, p) holds for no row when every
// value is NULL, or both bounds start with p (every string between two
// strings with prefix p has it too).
func (e *rangeEvaluator) VisitNotStartsWith(t iceberg.BoundTerm, v iceberg.Literal) bool {
	s := e.of(t)
	if s.allNull() {
		return false
	}
	prefix, ok := v.(iceberg.StringLiteral)
	lower, lok := s.Lower.(iceberg.StringLiteral)
	upper, uok := s.Upper.(iceberg.StringLiteral)
	return !ok || !lok || !uok || !strings.HasPrefix(string(lower), string(prefix)) || !strings.HasPrefix(string(upper), string(prefix))
}

func cut(s string, n int) string { return s[:min(n, len(s))] }

// unusable reports a bound that cannot be compared: missing, or a NaN some
// writers put in float bounds against the spec.
func unusable(l iceberg.Literal) bool {
	switch v := l.(type) {
	case nil:
		return true
	case iceberg.Float32Literal:
		return math.IsNaN(float64(v))
	case iceberg.Float64Literal:
		return math.IsNaN(float64(v))
	}
	return false
}

// compareBound applies test to the comparison of a bound with v, and answers
// true (might match) when the two cannot be compared.
func compareBound(bound, v iceberg.Literal, test func(int) bool) bool {
	if unusable(bound) {
		return true
	}
	c, ok := compareLiterals(bound, v)
	return !ok || test(c)
}

// compareLiterals orders two literals of the same Iceberg type; ok is false
// when they cannot be compared.
func compareLiterals(a, b iceberg.Literal) (int, bool) {
	if reflect.TypeOf(a) == reflect.TypeOf(b) {
		switch x := a.(type) {
		case iceberg.BoolLiteral:
			return cmpOrdered(boolInt(bool(x)), boolInt(bool(b.(iceberg.BoolLiteral)))), true
		case iceberg.Int32Literal:
			return cmpOrdered(x, b.(iceberg.Int32Literal)), true
		case iceberg.Int64Literal:
			return cmpOrdered(x, b.(iceberg.Int64Literal)), true
		case iceberg.Float32Literal:
			return cmpOrdered(x, b.(iceberg.Float32Literal)), true
		case iceberg.Float64Literal:
			return cmpOrdered(x, b.(iceberg.Float64Literal)), true
		case iceberg.DateLiteral:
			return cmpOrdered(x, b.(iceberg.DateLiteral)), true
		case iceberg.TimeLiteral:
			return cmpOrdered(x, b.(iceberg.TimeLiteral)), true
		case iceberg.TimestampLiteral:
			return cmpOrdered(x, b.(iceberg.TimestampLiteral)), true
		case iceberg.TimestampNsLiteral:
			return cmpOrdered(x, b.(iceberg.TimestampNsLiteral)), true
		case iceberg.StringLiteral:
			return strings.Compare(string(x), string(b.(iceberg.StringLiteral))), true
		case iceberg.BinaryLiteral:
			return bytes.Compare(x, b.(iceberg.BinaryLiteral)), true
		case iceberg.FixedLiteral:
			return bytes.Compare(x, b.(iceberg.FixedLiteral)), true
		case iceberg.UUIDLiteral:
			bx, by := uuid.UUID(x), uuid.UUID(b.(iceberg.UUIDLiteral))
			return bytes.Compare(bx[:], by[:]), true
		case iceberg.DecimalLiteral:
			return x.Comparator()(iceberg.Decimal(x), iceberg.Decimal(b.(iceberg.DecimalLiteral))), true
		}
		return 0, false
	}
	// Different types (a bound stored under an older column type): convert
	// the literal to the bound's type.
	// Sentinels such as "above the int range" have their own Go types and
	// are not compared.
	if conv, err := b.To(a.Type()); err == nil && reflect.TypeOf(conv) == reflect.TypeOf(a) {
		return compareLiterals(a, conv)
	}
	return 0, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOrdered[T ~int32 | ~int64 | ~float32 | ~float64 | ~int](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
