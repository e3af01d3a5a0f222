package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

func TestSetOperations(t *testing.T) {
	left := []column{{"a", tInt, `[1, 1, 2, null, null, 3]`}, {"s", tStr, `["x", "x", "y", null, null, "z"]`}}
	right := []column{{"b", tInt, `[1, null, 4, 1]`}, {"t", tStr, `["x", null, "w", "x"]`}}
	for _, c := range []struct {
		op   string
		all  bool
		want []string
	}{
		{planner.SetUnion, true, []string{"1,x", "1,x", "2,y", "NULL,NULL", "NULL,NULL", "3,z", "1,x", "NULL,NULL", "4,w", "1,x"}},
		{planner.SetUnion, false, []string{"1,x", "2,y", "NULL,NULL", "3,z", "4,w"}},
		{planner.SetIntersect, false, []string{"1,x", "NULL,NULL"}},
		{planner.SetIntersect, true, []string{"1,x", "1,x", "NULL,NULL"}},
		{planner.SetExcept, false, []string{"2,y", "3,z"}},
		{planner.SetExcept, true, []string{"2,y", "NULL,NULL", "3,z"}},
	} {
		name := c.op
		if c.all {
			name += " ALL"
		}
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			ctx := WithAllocator(context.Background(), mem)
			l, r := batchSource(t, mem, 4, left...), batchSource(t, mem, 3, right...)
			schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: tInt, Nullable: true}, {Name: "s", Type: tStr, Nullable: true}}, nil)
			var op Operator
			if c.op == planner.SetUnion {
				op = NewUnion(schema, c.all, l, r)
			} else {
				op = NewSetOp(c.op, c.all, schema, l, r)
			}
			got := drain(t, ctx, op)
			if !slices.Equal(sortedLines(got), sortedLines(slices.Clone(c.want))) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			if !op.Schema().Equal(schema) {
				t.Errorf("schema %s", op.Schema())
			}
		})
	}
}
