package expr

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// countingColumn is column 0 of the batch, counting its evaluations.
type countingColumn struct{ evals *int }

func (c countingColumn) Type() arrow.DataType { return planner.TypeBigint }
func (c countingColumn) String() string       { return "counted" }
func (c countingColumn) EvalBatch(_ context.Context, batch arrow.RecordBatch, _ memory.Allocator) (arrow.Array, error) {
	*c.evals++
	col := batch.Column(0)
	col.Retain()
	return col, nil
}

// TestBatchEvaluatorSharesSubexpressions checks that a subexpression two
// expressions share is computed once per batch, with the answers Eval
// gives, and that a volatile one (rand()) is computed where it is written.
func TestBatchEvaluatorSharesSubexpressions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{1, 2, 3}, []bool{true, false, true})
	col := b.NewArray()
	b.Release()
	batch := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: planner.TypeBigint, Nullable: true}}, nil), []arrow.Array{col}, 3)
	col.Release()
	defer batch.Release()

	evals := 0
	one := &planner.Literal{Value: int64(1), T: planner.TypeBigint}
	shared := &planner.Call{Fn: planner.FnAdd, Args: []planner.Expr{countingColumn{&evals}, one}, T: planner.TypeBigint}
	twice := &planner.Call{Fn: planner.FnMul, Args: []planner.Expr{shared, &planner.Literal{Value: int64(2), T: planner.TypeBigint}}, T: planner.TypeBigint}
	ev := NewBatchEvaluator(context.Background(), batch, mem)
	var got []string
	for _, e := range []planner.Expr{shared, twice} {
		a, err := ev.Eval(e)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.String())
		a.Release()
	}
	ev.Release()
	if evals != 1 {
		t.Errorf("shared subexpression computed %d times, want 1", evals)
	}
	if want := []string{"[2 (null) 4]", "[4 (null) 8]"}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}

	rnd := &planner.Call{Fn: planner.FnRand, T: planner.TypeDouble}
	ev = NewBatchEvaluator(context.Background(), batch, mem)
	defer ev.Release()
	a, err := ev.Eval(rnd)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	c, err := ev.Eval(rnd)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if array.Equal(a, c) {
		t.Error("rand() evaluated twice gave the same values: it was shared")
	}
}
