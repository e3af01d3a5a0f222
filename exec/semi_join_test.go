package exec

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
)

// TestSemiAntiJoin runs semi and anti joins as hash and nested-loop joins,
// building either side, with and without a residual condition, with NULL
// keys (which never match) and empty inputs; the output is the left rows.
func TestSemiAntiJoin(t *testing.T) {
	key := [][2]int{{0, 0}}
	notY := call(planner.FnNe, tBool, joinCol(3, tStr), lit("y", tStr))
	onlyY := call(planner.FnEq, tBool, joinCol(3, tStr), lit("y", tStr))
	empty := []column{{"id", tInt, `[]`}, {"t", tStr, `[]`}}
	allLeft := []string{"1,a", "2,b", "NULL,n", "3,c", "3,c2"}
	for _, c := range []joinCase{
		{name: "semi", typ: planner.JoinSemi, left: joinLeft, right: joinRight, keys: key,
			want: []string{"1,a", "3,c", "3,c2"}},
		{name: "anti", typ: planner.JoinAnti, left: joinLeft, right: joinRight, keys: key,
			want: []string{"2,b", "NULL,n"}},
		{name: "semi residual", typ: planner.JoinSemi, left: joinLeft, right: joinRight, keys: key, cond: onlyY,
			want: []string{"3,c", "3,c2"}},
		{name: "anti residual", typ: planner.JoinAnti, left: joinLeft, right: joinRight, keys: key, cond: notY,
			want: []string{"2,b", "NULL,n"}},
		{name: "anti residual matches nothing", typ: planner.JoinAnti, left: joinLeft, right: joinRight, keys: key,
			cond: lit(false, tBool), want: allLeft},
		{name: "semi empty right", typ: planner.JoinSemi, left: joinLeft, right: empty, keys: key},
		{name: "anti empty right", typ: planner.JoinAnti, left: joinLeft, right: empty, keys: key, want: allLeft},
		{name: "semi empty left", typ: planner.JoinSemi, left: empty, right: joinRight, keys: key},
		{name: "anti empty left", typ: planner.JoinAnti, left: empty, right: joinRight, keys: key},
		{name: "semi non-equi", typ: planner.JoinSemi, left: joinLeft, right: joinRight,
			cond: call(planner.FnGt, tBool, joinCol(0, tInt), joinCol(2, tInt)), want: []string{"2,b", "3,c", "3,c2"}},
	} {
		for _, hash := range []bool{true, false} {
			for _, buildLeft := range []bool{false, true} {
				for _, narrow := range []bool{false, true} {
					if hash && len(c.keys) == 0 {
						continue
					}
					t.Run(fmt.Sprintf("%s/hash=%v/buildLeft=%v/narrow=%v", c.name, hash, buildLeft, narrow), func(t *testing.T) {
						mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
						defer mem.AssertSize(t, 0)
						ctx := WithAllocator(context.Background(), mem)
						left, right := batchSource(t, mem, 2, c.left...), batchSource(t, mem, 3, c.right...)
						want := slices.Clone(c.want)
						var keep []bool
						if narrow { // only the left side's second column
							keep = []bool{false, true, false, false}
							want = oddFields(want)
						}
						op := buildTestJoin(c, hash, buildLeft, keep, left, right)
						got := sortedLines(drain(t, ctx, op))
						if want = sortedLines(want); !slices.Equal(got, want) {
							t.Errorf("got  %q\nwant %q", got, want)
						}
					})
				}
			}
		}
	}
}
