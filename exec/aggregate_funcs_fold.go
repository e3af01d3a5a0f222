package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/exec/expr"
	"github.com/lakesql/lakesql/planner"
)

// foldAcc folds each group's non-NULL values with an associative and
// commutative op (product's up to rounding), in the argument's own type:
// product (DOUBLE), bit_and, bit_or and bit_xor (an integer type). A group
// without a value is NULL.
type foldAcc[T expr.FixedWidth] struct {
	op   func(a, b T) T
	t    arrow.DataType
	vals []T
	has  []bool
}

// integer are the integer types bit_and, bit_or and bit_xor fold.
type integer interface{ int8 | int16 | int32 | int64 }

func newFoldAcc(fn string, t arrow.DataType) (accumulator, error) {
	switch id := t.ID(); {
	case fn == planner.AggProduct:
		if id == arrow.FLOAT64 {
			return &foldAcc[float64]{op: func(a, b float64) float64 { return a * b }, t: t}, nil
		}
	case id == arrow.INT8:
		return newBitAcc[int8](fn, t), nil
	case id == arrow.INT16:
		return newBitAcc[int16](fn, t), nil
	case id == arrow.INT32:
		return newBitAcc[int32](fn, t), nil
	case id == arrow.INT64:
		return newBitAcc[int64](fn, t), nil
	}
	return nil, fmt.Errorf("%s of %s", fn, planner.TypeString(t))
}

func newBitAcc[T integer](fn string, t arrow.DataType) accumulator {
	switch fn {
	case planner.AggBitAnd:
		return &foldAcc[T]{op: func(a, b T) T { return a & b }, t: t}
	case planner.AggBitOr:
		return &foldAcc[T]{op: func(a, b T) T { return a | b }, t: t}
	}
	return &foldAcc[T]{op: func(a, b T) T { return a ^ b }, t: t} // bit_xor
}

func (a *foldAcc[T]) update(_ context.Context, arg arrow.Array, gids []int32, groups int) error {
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	vals, valid := expr.FixedValues[T](arg), nullMask(arg)
	for i, g := range gids {
		if !isValid(valid, i) {
			continue
		}
		if a.has[g] {
			a.vals[g] = a.op(a.vals[g], vals[i])
		} else {
			a.vals[g], a.has[g] = vals[i], true
		}
	}
	return nil
}

func (a *foldAcc[T]) result(mem memory.Allocator, groups int) arrow.Array {
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	return buildFixed(mem, a.t, a.vals[:groups], a.has[:groups])
}

func (a *foldAcc[T]) merge(_ context.Context, other accumulator, gmap []int32, groups int) error {
	o := other.(*foldAcc[T])
	a.vals, a.has = grow(a.vals, groups), grow(a.has, groups)
	o.vals, o.has = grow(o.vals, len(gmap)), grow(o.has, len(gmap))
	for i, g := range gmap {
		if g < 0 || !o.has[i] {
			continue
		}
		if a.has[g] {
			a.vals[g] = a.op(a.vals[g], o.vals[i])
		} else {
			a.vals[g], a.has[g] = o.vals[i], true
		}
	}
	return nil
}
