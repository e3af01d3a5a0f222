// Package exectest builds the batches and expressions the tests of exec
// and exec/expr run on.
package exectest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// Dec is DECIMAL(p, s).
func Dec(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }

// Column is a test column: a name, a type and its values in Arrow JSON.
type Column struct {
	Name string
	T    arrow.DataType
	JSON string
}

// NewBatch builds a record batch from JSON columns.
func NewBatch(t testing.TB, mem memory.Allocator, cols ...Column) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arr, _, err := array.FromJSON(mem, c.T, strings.NewReader(c.JSON))
		if err != nil {
			t.Fatalf("column %s: %v", c.Name, err)
		}
		defer arr.Release()
		fields[i] = arrow.Field{Name: c.Name, Type: c.T, Nullable: true}
		arrs[i] = arr
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
}

// Lit is a literal of type t.
func Lit(v any, t arrow.DataType) *planner.Literal { return &planner.Literal{Value: v, T: t} }

// Call is a call of fn returning t.
func Call(fn string, t arrow.DataType, args ...planner.Expr) *planner.Call {
	return &planner.Call{Fn: fn, Args: args, T: t}
}

// Cast is CAST(x AS t).
func Cast(x planner.Expr, t arrow.DataType) *planner.Cast { return &planner.Cast{X: x, T: t} }

// TryCast is TRY_CAST(x AS t).
func TryCast(x planner.Expr, t arrow.DataType) *planner.Cast {
	return &planner.Cast{X: x, T: t, Try: true}
}

// TestCols is the batch most expression tests run over.
var TestCols = []Column{
	{"i", planner.TypeInt, `[1, -2, null, 2147483647, 0]`},
	{"b", planner.TypeBigint, `[10, 20, null, 9223372036854775807, -5]`},
	{"d", planner.TypeDouble, `[1.5, -2.5, null, 1e20, 0]`},
	{"s", planner.TypeVarchar, `["abc", "a%c", null, "", "ABC"]`},
	{"t", planner.TypeBoolean, `[true, false, null, true, false]`},
	{"m", Dec(10, 2), `["1.25", "-3.50", null, "99999999.99", "0.00"]`},
	{"dt", planner.TypeDate, `["2024-01-31", "1969-12-31", null, "1970-01-01", "2000-02-29"]`},
	{"ts", planner.TypeTimestamp, `[0, -1, null, 1700000000123456, 86400000000]`},
	{"f", planner.TypeFloat, `[1.5, -2.25, null, 3e38, 0]`},
	{"j", planner.TypeInt, `[3, 0, 5, null, -1]`},
	{"bin", planner.TypeBinary, `["AAE=", "YWJj", null, "", "/w=="]`},
	{"tz", planner.TypeTimestampTZ, `[0, -1, null, 1700000000123456, 86400000000]`},
}

func Ref(name string) *planner.ColumnRef {
	for i, c := range TestCols {
		if c.Name == name {
			return &planner.ColumnRef{Index: i, Name: name, T: c.T}
		}
	}
	panic("no test column " + name)
}

// EvalCase is one expression and its expected rendering, row by row.
type EvalCase struct {
	Name string
	E    planner.Expr
	Want string // values joined by "|"; an error message prefixed by "error: "
}

// Eval is the function that evaluates an expression over a batch
// (expr.Eval: passed in, since expr's own tests use this package).
type Eval func(ctx context.Context, e planner.Expr, batch arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error)

// RunEvalCases evaluates each case over a batch of cols with a checked
// allocator.
func RunEvalCases(t *testing.T, eval Eval, cols []Column, cases []EvalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			batch := NewBatch(t, mem, cols...)
			defer batch.Release()
			got, err := evalToString(eval, mem, tc.E, batch)
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != tc.Want {
				t.Errorf("%s\n got %s\nwant %s", tc.E, got, tc.Want)
			}
		})
	}
}

func evalToString(eval Eval, mem memory.Allocator, e planner.Expr, batch arrow.RecordBatch) (string, error) {
	arr, err := eval(context.Background(), e, batch, mem)
	if err != nil {
		return "", err
	}
	defer arr.Release()
	if arr.Len() != int(batch.NumRows()) {
		return "", fmt.Errorf("result has %d rows, batch %d", arr.Len(), batch.NumRows())
	}
	if !arrow.TypeEqual(arr.DataType(), e.Type()) {
		return "", fmt.Errorf("result type %s, expression type %s", arr.DataType(), e.Type())
	}
	vals := make([]string, arr.Len())
	for i := range vals {
		vals[i] = value.Format(arr, i)
	}
	return strings.Join(vals, "|"), nil
}
