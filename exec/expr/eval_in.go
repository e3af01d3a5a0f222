package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
)

// in evaluates x IN (v1, …, vn): TRUE if x equals some vi, NULL if x is NULL
// or if there is no match and some vi is NULL, FALSE otherwise. A list of
// literals is looked up in a hash set built once per evaluation; any other
// list is evaluated as x = v1 OR … OR x = vn.
func (ev *evaluator) in(c *planner.Call) (arrow.Array, error) {
	if len(c.Args) < 2 {
		return nil, fmt.Errorf("%s: needs a value and a list", c)
	}
	x, err := ev.operand(c.Args[0])
	if err != nil {
		return nil, err
	}
	defer x.release()
	if x.isNullLiteral() {
		return ev.allNull(planner.TypeBoolean), nil
	}
	if lits, ok := literals(c.Args[1:]); ok {
		if found, hasNull, ok := ev.inSet(x, lits); ok {
			return ev.inResult(x, found, hasNull), nil
		}
	}
	items, err := ev.operands(c.Args[1:])
	if err != nil {
		return nil, err
	}
	defer releaseOperands(items)
	eqs := make([]operand, 0, len(items)+1)
	defer func() { releaseOperands(eqs) }()
	for _, item := range items {
		eq, err := ev.compare(planner.FnEq, x, item)
		if err != nil {
			return nil, err
		}
		eqs = append(eqs, operand{arr: eq, t: planner.TypeBoolean})
	}
	if len(eqs) == 1 {
		eqs[0].arr.Retain()
		return eqs[0].arr, nil
	}
	return ev.logicFold(false, eqs), nil
}

func literals(args []planner.Expr) ([]*planner.Literal, bool) {
	lits := make([]*planner.Literal, len(args))
	for i, a := range args {
		l, ok := a.(*planner.Literal)
		if !ok {
			return nil, false
		}
		lits[i] = l
	}
	return lits, true
}

// inSet looks x up in the set of non-NULL literals; ok is false for types
// without a hash path.
func (ev *evaluator) inSet(x operand, lits []*planner.Literal) (found []byte, hasNull, ok bool) {
	found = make([]byte, bitutil.BytesForBits(int64(ev.n)))
	switch KindOf(x.t) {
	case KindBool:
		inLookup(boolVec(x, ev.n), literalSet(lits, func(v any) uint8 { return BoolByte(v.(bool)) }), found, ev.n)
	case KindInt8:
		inLookup(fixedVec[int8](x), literalSet(lits, asT[int8]), found, ev.n)
	case KindInt16:
		inLookup(fixedVec[int16](x), literalSet(lits, asT[int16]), found, ev.n)
	case KindInt32:
		inLookup(fixedVec[int32](x), literalSet(lits, asT[int32]), found, ev.n)
	case KindInt64:
		inLookup(fixedVec[int64](x), literalSet(lits, asT[int64]), found, ev.n)
	case KindFloat32:
		inLookup(fixedVec[float32](x), literalSet(lits, asT[float32]), found, ev.n)
	case KindFloat64:
		inLookup(fixedVec[float64](x), literalSet(lits, asT[float64]), found, ev.n)
	case KindDecimal:
		inLookup(fixedVec[decimal128.Num](x), literalSet(lits, asT[decimal128.Num]), found, ev.n)
	case KindBytes:
		inLookupBytes(newBytesVec(x), literalSet(lits, bytesKey), found, ev.n)
	default:
		return nil, false, false
	}
	for _, l := range lits {
		hasNull = hasNull || l.Value == nil
	}
	return found, hasNull, true
}

func asT[T any](v any) T { return v.(T) }

// bytesKey keys STRING literals (string) and BINARY/UUID literals ([]byte).
func bytesKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(v.([]byte))
}

// literalSet collects the non-NULL literal values, converted by key.
func literalSet[K comparable](lits []*planner.Literal, key func(any) K) map[K]struct{} {
	set := make(map[K]struct{}, len(lits))
	for _, l := range lits {
		if l.Value != nil {
			set[key(l.Value)] = struct{}{}
		}
	}
	return set
}

func inLookup[T comparable, V view[T]](x V, set map[T]struct{}, found []byte, n int) {
	for i := 0; i < n; i++ {
		if _, ok := set[x.At(i)]; ok {
			bitutil.SetBit(found, i)
		}
	}
}

func inLookupBytes(x *BytesVec, set map[string]struct{}, found []byte, n int) {
	for i := 0; i < n; i++ {
		if _, ok := set[string(x.At(i))]; ok {
			bitutil.SetBit(found, i)
		}
	}
}

// inResult turns per-row matches into the IN result.
func (ev *evaluator) inResult(x operand, found []byte, hasNull bool) arrow.Array {
	out := ev.newBitmap()
	copy(out.Bytes(), found)
	validity := ev.validity(x)
	if hasNull {
		// No match against a list with a NULL is unknown.
		if validity == nil {
			validity = ev.newBitmap()
			fill(validity.Bytes(), 0xff)
		}
		for j, f := range found {
			validity.Bytes()[j] &= f
		}
	}
	return MakeArray(planner.TypeBoolean, ev.n, validity, out)
}
