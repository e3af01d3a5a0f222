package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// closeTracker records whether its input was closed.
type closeTracker struct {
	Operator
	closed int
}

func (c *closeTracker) Close() error {
	c.closed++
	return c.Operator.Close()
}

// drain runs op and renders its rows as "a,b" strings.
func drain(t *testing.T, ctx context.Context, op Operator) []string {
	t.Helper()
	if err := op.Open(ctx); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		if b.NumRows() == 0 {
			t.Error("operator returned an empty batch")
		}
		for r := 0; r < int(b.NumRows()); r++ {
			cells := make([]string, b.NumCols())
			for c := range cells {
				cells[c] = value.Format(b.Column(c), r)
			}
			rows = append(rows, strings.Join(cells, ","))
		}
		b.Release()
	}
	if err := op.Close(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// threeBatches is an input of rows 1..9 over three batches, with a NULL.
func threeBatches(t *testing.T, mem memory.Allocator) (*arrow.Schema, []arrow.RecordBatch) {
	var recs []arrow.RecordBatch
	for _, j := range []string{`[1, 2, 3]`, `[4, null, 6]`, `[7, 8, 9]`} {
		recs = append(recs, newBatch(t, mem, column{"x", tBig, j}))
	}
	return recs[0].Schema(), recs
}

func TestOperators(t *testing.T) {
	x := &planner.ColumnRef{Index: 0, Name: "x", T: tBig}
	gt := func(v int64) planner.Expr { return call(planner.FnGt, tBool, x, lit(v, tBig)) }
	cases := []struct {
		name string
		op   func(in Operator) Operator
		want string
	}{
		{"filter", func(in Operator) Operator { return NewFilter(in, gt(3)) }, "4 6 7 8 9"},
		{"filter none", func(in Operator) Operator { return NewFilter(in, gt(100)) }, ""},
		{"filter null predicate", func(in Operator) Operator { return NewFilter(in, lit(nil, tBool)) }, ""},
		{"filter all", func(in Operator) Operator { return NewFilter(in, gt(-1)) }, "1 2 3 4 6 7 8 9"},
		{"project", func(in Operator) Operator {
			return NewProject(in, []planner.Expr{call(planner.FnMul, tBig, x, lit(int64(10), tBig)), lit("k", tStr)}, []string{"y", "k"})
		}, "10,k 20,k 30,k 40,k NULL,k 60,k 70,k 80,k 90,k"},
		{"limit", func(in Operator) Operator { return NewLimit(in, 4, 0) }, "1 2 3 4"},
		{"limit offset", func(in Operator) Operator { return NewLimit(in, 3, 2) }, "3 4 NULL"},
		{"limit offset past batch", func(in Operator) Operator { return NewLimit(in, 10, 7) }, "8 9"},
		{"limit zero", func(in Operator) Operator { return NewLimit(in, 0, 0) }, ""},
		{"filter then limit", func(in Operator) Operator { return NewLimit(NewFilter(in, gt(1)), 2, 1) }, "3 4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := WithAllocator(context.Background(), mem)
			schema, recs := threeBatches(t, mem)
			in := &closeTracker{Operator: NewBatches(schema, recs)}
			for _, r := range recs {
				r.Release()
			}
			got := strings.Join(drain(t, ctx, tc.op(in)), " ")
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if in.closed != 1 {
				t.Errorf("input closed %d times", in.closed)
			}
		})
	}
}

func TestLimitStopsEarly(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	schema, recs := threeBatches(t, mem)
	in := &closeTracker{Operator: NewBatches(schema, recs)}
	for _, r := range recs {
		r.Release()
	}
	lim := NewLimit(in, 2, 0)
	if err := lim.Open(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := lim.Next(ctx)
	if err != nil || b.NumRows() != 2 {
		t.Fatalf("first batch: %v, %v", b, err)
	}
	b.Release()
	if b, err := lim.Next(ctx); b != nil || err != nil {
		t.Fatalf("second batch: %v, %v", b, err)
	}
	if in.closed != 1 {
		t.Errorf("input not closed once satisfied (closed %d times)", in.closed)
	}
	lim.Close()
	if in.closed != 1 {
		t.Errorf("input closed %d times", in.closed)
	}
}

func TestValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: tBig, Nullable: true},
		{Name: "b", Type: tStr, Nullable: true},
		{Name: "c", Type: tDate, Nullable: true},
	}, nil)
	rows := [][]planner.Expr{
		{lit(int32(1), tInt), lit("x", tStr), cast(lit("2024-01-02", tStr), tDate)},
		{call(planner.FnAdd, tBig, lit(int64(2), tBig), lit(int64(3), tBig)), lit(nil, planner.TypeNull), lit(nil, tDate)},
	}
	got := strings.Join(drain(t, ctx, NewValues(schema, rows)), " ")
	if want := "1,x,2024-01-02 5,NULL,NULL"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bad := NewValues(schema, [][]planner.Expr{{lit(int32(1), tInt)}})
	if _, err := bad.Next(ctx); err == nil || !strings.Contains(err.Error(), "has 1 values, expected 3") {
		t.Errorf("short row: %v", err)
	}
}

func TestFilterError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := WithAllocator(context.Background(), mem)
	schema, recs := threeBatches(t, mem)
	in := NewBatches(schema, recs)
	for _, r := range recs {
		r.Release()
	}
	x := &planner.ColumnRef{Index: 0, Name: "x", T: tBig}
	f := NewFilter(in, call(planner.FnGt, tBool, call(planner.FnMul, tBig, x, lit(int64(1)<<62, tBig)), lit(int64(0), tBig)))
	if err := f.Open(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := f.Next(ctx)
	if out != nil {
		out.Release()
	}
	if err == nil || !strings.Contains(err.Error(), "integer overflow in (x * 4611686018427387904)") {
		t.Errorf("got %v", err)
	}
	f.Close()
}
