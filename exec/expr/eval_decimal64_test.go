package expr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestDecimal64ArithMatchesRowKernel checks the 64-bit loops of +, - and *
// against the row-by-row decimal kernel, over random columns and constants
// of several precisions and scales, NULLs and values at the edges of the
// bounds included; where the loop declines, the row kernel's answer (or
// overflow) is what Eval gives.
func TestDecimal64ArithMatchesRowKernel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(7, 8))
	types := []*arrow.Decimal128Type{{Precision: 15, Scale: 2}, {Precision: 18, Scale: 0}, {Precision: 18, Scale: 6}, {Precision: 31, Scale: 4}, {Precision: 38, Scale: 2}, {Precision: 4, Scale: 2}}
	column := func(t *arrow.Decimal128Type, n int) arrow.Array { return randomDecimals(mem, r, t, n) }
	for _, fn := range []string{planner.FnAdd, planner.FnSub, planner.FnMul} {
		for _, ta := range types {
			for _, tb := range types {
				for _, constant := range []bool{false, true} {
					n := 64
					x, y := column(ta, n), column(tb, n)
					batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: ta, Nullable: true}, {Name: "y", Type: tb, Nullable: true}}, nil), []arrow.Array{x, y}, int64(n))
					x.Release()
					y.Release()
					var right planner.Expr = &planner.ColumnRef{Index: 1, Name: "y", T: tb}
					if constant {
						right = &planner.Literal{Value: decimal128.FromI64(int64(r.IntN(1000) - 500)), T: tb}
					}
					call := &planner.Call{Fn: fn, Args: []planner.Expr{&planner.ColumnRef{Index: 0, Name: "x", T: ta}, right}, T: decimalResultType(fn, ta, tb)}
					got, gotErr := Eval(context.Background(), call, batch, mem)
					want, wantErr := rowKernelEval(call, batch, mem)
					name := fmt.Sprintf("%s %s %s const=%v", ta, fn, tb, constant)
					switch {
					case (gotErr == nil) != (wantErr == nil):
						t.Errorf("%s: error %v, row kernel %v", name, gotErr, wantErr)
					case gotErr == nil && !array.Equal(got, want):
						t.Errorf("%s:\n got %v\nwant %v", name, got, want)
					}
					for _, a := range []arrow.Array{got, want} {
						if a != nil {
							a.Release()
						}
					}
					batch.Release()
				}
			}
		}
	}
}

// randomDecimals is n random values of type t: NULLs, the type's largest
// value, values beyond 64 bits where the precision allows, and others.
func randomDecimals(mem memory.Allocator, r *rand.Rand, t *arrow.Decimal128Type, n int) arrow.Array {
	b := array.NewDecimal128Builder(mem, t)
	defer b.Release()
	limit := math.Pow10(int(min(t.Precision, 18)))
	for range n {
		switch k := r.IntN(20); {
		case k == 0:
			b.AppendNull()
		case k == 1:
			b.Append(decimal128.FromI64(int64(limit - 1)))
		case k == 2 && t.Precision > 18:
			b.Append(decimal128.FromI64(math.MaxInt64).Mul(decimal128.FromI64(10)))
		default:
			b.Append(decimal128.FromI64(int64(r.Float64()*2*limit - limit)))
		}
	}
	return b.NewArray()
}

// TestDecimal64CompareMatchesCmp checks the 64-bit comparison loops
// against decimal128's own comparison, on columns and constants.
func TestDecimal64CompareMatchesCmp(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(11, 12))
	for _, typ := range []*arrow.Decimal128Type{{Precision: 15, Scale: 2}, {Precision: 38, Scale: 2}} {
		for _, right := range []string{"column", "constant", "itself"} {
			const n = 200
			x, y := randomDecimals(mem, r, typ, n), randomDecimals(mem, r, typ, n)
			batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}, {Name: "y", Type: typ, Nullable: true}}, nil), []arrow.Array{x, y}, n)
			var rhs planner.Expr = &planner.ColumnRef{Index: 1, Name: "y", T: typ}
			switch right {
			case "constant":
				rhs = &planner.Literal{Value: y.(*array.Decimal128).Value(3), T: typ}
			case "itself":
				rhs = &planner.ColumnRef{Index: 0, Name: "x", T: typ}
			}
			for _, fn := range []string{planner.FnEq, planner.FnNe, planner.FnLt, planner.FnLe, planner.FnGt, planner.FnGe} {
				call := &planner.Call{Fn: fn, Args: []planner.Expr{&planner.ColumnRef{Index: 0, Name: "x", T: typ}, rhs}, T: planner.TypeBoolean}
				got, err := Eval(context.Background(), call, batch, mem)
				if err != nil {
					t.Fatal(err)
				}
				for i := range n {
					yi := y.(*array.Decimal128).Value(i)
					switch right {
					case "constant":
						yi = y.(*array.Decimal128).Value(3)
					case "itself":
						yi = x.(*array.Decimal128).Value(i)
					}
					c := x.(*array.Decimal128).Value(i).Cmp(yi)
					want := map[string]bool{planner.FnEq: c == 0, planner.FnNe: c != 0, planner.FnLt: c < 0, planner.FnLe: c <= 0, planner.FnGt: c > 0, planner.FnGe: c >= 0}[fn]
					if got.IsValid(i) && got.(*array.Boolean).Value(i) != want {
						t.Fatalf("%s %s %s row %d: got %v, want %v", typ, fn, right, i, !want, want)
					}
				}
				got.Release()
			}
			x.Release()
			y.Release()
			batch.Release()
		}
	}
}

// decimalResultType is the binder's result type: precision and scale of
// the operation, capped at 38 digits.
func decimalResultType(fn string, a, b *arrow.Decimal128Type) arrow.DataType {
	s := max(a.Scale, b.Scale)
	p := max(a.Precision-a.Scale, b.Precision-b.Scale) + s + 1
	if fn == planner.FnMul {
		s, p = a.Scale+b.Scale, a.Precision+b.Precision+1
	}
	return &arrow.Decimal128Type{Precision: min(p, 38), Scale: s}
}

// rowKernelEval evaluates call with the row-by-row decimal kernel only.
func rowKernelEval(call *planner.Call, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	ev := &evaluator{ctx: context.Background(), batch: batch, mem: mem, n: int(batch.NumRows())}
	ops, err := ev.operands(call.Args)
	if err != nil {
		return nil, err
	}
	a, b := ops[0], ops[1]
	defer a.release()
	defer b.release()
	f, err := decimalKernel(call, a.t, b.t)
	if err != nil {
		return nil, err
	}
	return binaryKernel(ev, call, a, b, f)
}

// TestDecimal64BoundsAcrossCalls checks that a BatchEvaluator, which keeps
// the bounds of the decimal arrays it has read or made and does not read
// them again, gives what evaluating each expression alone gives, for
// nested sums and products whose inner results sometimes leave 64 bits.
func TestDecimal64BoundsAcrossCalls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(9, 10))
	types := []*arrow.Decimal128Type{{Precision: 15, Scale: 2}, {Precision: 18, Scale: 6}, {Precision: 31, Scale: 4}, {Precision: 4, Scale: 2}}
	for _, ta := range types {
		for _, tb := range types {
			n := 64
			x, y := randomDecimals(mem, r, ta, n), randomDecimals(mem, r, tb, n)
			batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: ta, Nullable: true}, {Name: "y", Type: tb, Nullable: true}}, nil), []arrow.Array{x, y}, int64(n))
			x.Release()
			y.Release()
			colX := &planner.ColumnRef{Index: 0, Name: "x", T: ta}
			colY := &planner.ColumnRef{Index: 1, Name: "y", T: tb}
			call := func(fn string, a, b planner.Expr) planner.Expr {
				return &planner.Call{Fn: fn, Args: []planner.Expr{a, b}, T: decimalResultType(fn, a.Type().(*arrow.Decimal128Type), b.Type().(*arrow.Decimal128Type))}
			}
			xy := call(planner.FnMul, colX, colY)
			exprs := []planner.Expr{xy, call(planner.FnAdd, xy, colX), call(planner.FnMul, call(planner.FnSub, colX, colY), colY), call(planner.FnSub, xy, call(planner.FnAdd, colY, colX))}
			shared := NewBatchEvaluator(context.Background(), batch, mem)
			for _, e := range exprs {
				got, gotErr := shared.Eval(e)
				want, wantErr := Eval(context.Background(), e, batch, mem)
				switch {
				case (gotErr == nil) != (wantErr == nil):
					t.Errorf("%s over %s, %s: error %v, alone %v", e, ta, tb, gotErr, wantErr)
				case gotErr == nil && !array.Equal(got, want):
					t.Errorf("%s over %s, %s:\n got %v\nwant %v", e, ta, tb, got, want)
				}
				for _, a := range []arrow.Array{got, want} {
					if a != nil {
						a.Release()
					}
				}
			}
			shared.Release()
			batch.Release()
		}
	}
}
