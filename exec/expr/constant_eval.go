package expr

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// EvalConstant evaluates an expression that reads no column (every leaf a
// literal) with the same kernels that run queries, so that folding at plan
// time gives exactly the value execution would. ok is false when e fails (an
// overflow, a bad cast: the executor reports it then, if the row is reached)
// or its value has no literal form.
func EvalConstant(ctx context.Context, e planner.Expr) (*planner.Literal, bool) {
	mem := memory.DefaultAllocator
	batch := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer batch.Release()
	arr, err := Eval(ctx, e, batch, mem)
	if err != nil {
		return nil, false
	}
	defer arr.Release()
	v, ok := LiteralValue(arr, 0)
	if !ok {
		return nil, false
	}
	return &planner.Literal{Value: v, T: e.Type()}, true
}

// ConstantExpr is row i of arr as a constant expression: a literal, or for
// a struct the named_struct of its fields' constants, from which folding
// reads fields (get_field). Its strings are copies, free of arr's memory.
// ok is false for values without a literal form.
func ConstantExpr(arr arrow.Array, i int) (planner.Expr, bool) {
	if st, isStruct := arr.(*array.Struct); isStruct && st.IsValid(i) {
		t := st.DataType().(*arrow.StructType)
		args := make([]planner.Expr, 0, 2*st.NumField())
		for f := range st.NumField() {
			field, ok := ConstantExpr(st.Field(f), i)
			if !ok {
				return nil, false
			}
			args = append(args, &planner.Literal{Value: t.Field(f).Name, T: planner.TypeVarchar}, field)
		}
		return &planner.Call{Fn: planner.FnMakeStruct, Args: args, T: t}, true
	}
	v, ok := LiteralValue(arr, i)
	if !ok {
		return nil, false
	}
	if str, isString := v.(string); isString {
		v = strings.Clone(str)
	}
	return &planner.Literal{Value: v, T: arr.DataType()}, true
}

// LiteralValue returns row i of arr in the Go form planner.Literal holds
// (nil for NULL); ok is false for types literals do not carry.
func LiteralValue(arr arrow.Array, i int) (any, bool) {
	if arr.IsNull(i) {
		return nil, true
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i), true
	case *array.Int32:
		return a.Value(i), true
	case *array.Int64:
		return a.Value(i), true
	case *array.Float32:
		return a.Value(i), true
	case *array.Float64:
		return a.Value(i), true
	case *array.String:
		return a.Value(i), true
	case *array.Binary:
		return append([]byte(nil), a.Value(i)...), true
	case *array.Decimal128:
		return a.Value(i), true
	case *array.Date32:
		return int32(a.Value(i)), true
	case *array.Timestamp:
		return int64(a.Value(i)), true
	case *array.Time64:
		return int64(a.Value(i)), true
	}
	return nil, false
}
