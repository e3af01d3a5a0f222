package exec

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

var (
	tInt    = planner.TypeInt
	tBig    = planner.TypeBigint
	tFloat  = planner.TypeFloat
	tDouble = planner.TypeDouble
	tBool   = planner.TypeBoolean
	tStr    = planner.TypeVarchar
	tBin    = planner.TypeBinary
	tDate   = planner.TypeDate
	tTime   = planner.TypeTime
	tTs     = planner.TypeTimestamp
	tTsTZ   = planner.TypeTimestampTZ
)

func dec(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }

// column is a test column: a name, a type and its values in Arrow JSON.
type column struct {
	name string
	t    arrow.DataType
	json string
}

// newBatch builds a record batch from JSON columns.
func newBatch(t testing.TB, mem memory.Allocator, cols ...column) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arr, _, err := array.FromJSON(mem, c.t, strings.NewReader(c.json))
		if err != nil {
			t.Fatalf("column %s: %v", c.name, err)
		}
		defer arr.Release()
		fields[i] = arrow.Field{Name: c.name, Type: c.t, Nullable: true}
		arrs[i] = arr
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
}

// testCols is the batch most expression tests run over.
var testCols = []column{
	{"i", tInt, `[1, -2, null, 2147483647, 0]`},
	{"b", tBig, `[10, 20, null, 9223372036854775807, -5]`},
	{"d", tDouble, `[1.5, -2.5, null, 1e20, 0]`},
	{"s", tStr, `["abc", "a%c", null, "", "ABC"]`},
	{"t", tBool, `[true, false, null, true, false]`},
	{"m", dec(10, 2), `["1.25", "-3.50", null, "99999999.99", "0.00"]`},
	{"dt", tDate, `["2024-01-31", "1969-12-31", null, "1970-01-01", "2000-02-29"]`},
	{"ts", tTs, `[0, -1, null, 1700000000123456, 86400000000]`},
	{"f", tFloat, `[1.5, -2.25, null, 3e38, 0]`},
	{"j", tInt, `[3, 0, 5, null, -1]`},
	{"bin", tBin, `["AAE=", "YWJj", null, "", "/w=="]`},
	{"tz", tTsTZ, `[0, -1, null, 1700000000123456, 86400000000]`},
}

func ref(name string) *planner.ColumnRef {
	for i, c := range testCols {
		if c.name == name {
			return &planner.ColumnRef{Index: i, Name: name, T: c.t}
		}
	}
	panic("no test column " + name)
}

func lit(v any, t arrow.DataType) *planner.Literal { return &planner.Literal{Value: v, T: t} }

func call(fn string, t arrow.DataType, args ...planner.Expr) *planner.Call {
	return &planner.Call{Fn: fn, Args: args, T: t}
}

func cast(x planner.Expr, t arrow.DataType) *planner.Cast { return &planner.Cast{X: x, T: t} }

func tryCast(x planner.Expr, t arrow.DataType) *planner.Cast {
	return &planner.Cast{X: x, T: t, Try: true}
}

// evalCase is one expression and its expected rendering, row by row.
type evalCase struct {
	name string
	e    planner.Expr
	want string // values joined by "|"; an error message prefixed by "error: "
}

// runEvalCases evaluates each case over batch with a checked allocator.
func runEvalCases(t *testing.T, cols []column, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			batch := newBatch(t, mem, cols...)
			defer batch.Release()
			got, err := evalToString(mem, tc.e, batch)
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.e, got, tc.want)
			}
		})
	}
}

func evalToString(mem memory.Allocator, e planner.Expr, batch arrow.RecordBatch) (string, error) {
	arr, err := Eval(context.Background(), e, batch, mem)
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
