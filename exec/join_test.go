package exec

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// source is an operator over cols, split into batches of at most size rows
// so that joins see several probe and build batches.
func batchSource(t *testing.T, mem memory.Allocator, size int64, cols ...column) Operator {
	t.Helper()
	whole := newBatch(t, mem, cols...)
	defer whole.Release()
	var parts []arrow.RecordBatch
	for start := int64(0); start < whole.NumRows(); start += size {
		parts = append(parts, whole.NewSlice(start, min(start+size, whole.NumRows())))
	}
	op := NewBatches(whole.Schema(), parts)
	for _, p := range parts {
		p.Release()
	}
	return op
}

func sortedLines(rows []string) []string {
	slices.Sort(rows)
	return rows
}

func joinCol(i int, t arrow.DataType) *planner.ColumnRef {
	return &planner.ColumnRef{Index: i, Name: fmt.Sprintf("c%d", i), T: t}
}

var (
	joinLeft  = []column{{"id", tInt, `[1, 2, null, 3, 3]`}, {"s", tStr, `["a", "b", "n", "c", "c2"]`}}
	joinRight = []column{{"id", tInt, `[1, 3, 3, null, 4]`}, {"t", tStr, `["x", "y", "y2", "m", "z"]`}}
	innerRows = []string{"1,a,1,x", "3,c,3,y", "3,c,3,y2", "3,c2,3,y", "3,c2,3,y2"}
	leftPad   = []string{"2,b,NULL,NULL", "NULL,n,NULL,NULL"}
	rightPad  = []string{"NULL,NULL,NULL,m", "NULL,NULL,4,z"}
)

// joinCase is a join of two inputs on keys (column pairs) and a condition.
type joinCase struct {
	name        string
	typ         sql.JoinType
	left, right []column
	keys        [][2]int     // (left column, right column) equi keys
	cond        planner.Expr // over the output columns, besides the keys
	want        []string
}

// runJoin runs c as a hash join (when it has keys) and as a nested-loop join
// on the equivalent condition, building either side, and checks that all
// give the expected rows; then again outputting only the odd columns (the
// first column of each side, the key, is dropped).
func runJoin(t *testing.T, c joinCase) {
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
					if narrow {
						keep = make([]bool, len(c.left)+len(c.right))
						for i := range keep {
							keep[i] = i%2 == 1
						}
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

// oddFields keeps fields 1, 3, … of comma-separated rows.
func oddFields(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		var kept []string
		for k, f := range strings.Split(r, ",") {
			if k%2 == 1 {
				kept = append(kept, f)
			}
		}
		out[i] = strings.Join(kept, ",")
	}
	return out
}

func buildTestJoin(c joinCase, hash, buildLeft bool, keep []bool, left, right Operator) Operator {
	nl := len(c.left)
	var lkeys, rkeys, conds []planner.Expr
	for _, k := range c.keys {
		lt, rt := c.left[k[0]].T, c.right[k[1]].T
		lkeys = append(lkeys, joinCol(k[0], lt))
		rkeys = append(rkeys, joinCol(k[1], rt))
		conds = append(conds, call(planner.FnEq, tBool, joinCol(k[0], lt), joinCol(nl+k[1], rt)))
	}
	if hash {
		return NewHashJoin(c.typ, left, right, lkeys, rkeys, c.cond, buildLeft, keep)
	}
	if c.cond != nil {
		conds = append(conds, c.cond)
	}
	var cond planner.Expr
	for _, e := range conds {
		if cond == nil {
			cond = e
		} else {
			cond = call(planner.FnAnd, tBool, cond, e)
		}
	}
	return NewNestedLoopJoin(c.typ, left, right, cond, buildLeft, keep)
}

func TestJoinTypes(t *testing.T) {
	key := [][2]int{{0, 0}}
	notY := call(planner.FnNe, tBool, joinCol(3, tStr), lit("y", tStr))
	for _, c := range []joinCase{
		{name: "inner", typ: sql.JoinInner, keys: key, want: innerRows},
		{name: "left", typ: sql.JoinLeft, keys: key, want: append(slices.Clone(innerRows), leftPad...)},
		{name: "right", typ: sql.JoinRight, keys: key, want: append(slices.Clone(innerRows), rightPad...)},
		{name: "full", typ: sql.JoinFull, keys: key, want: append(append(slices.Clone(innerRows), leftPad...), rightPad...)},
		{name: "inner residual", typ: sql.JoinInner, keys: key, cond: notY,
			want: []string{"1,a,1,x", "3,c,3,y2", "3,c2,3,y2"}},
		{name: "left residual", typ: sql.JoinLeft, keys: key, cond: notY,
			want: append([]string{"1,a,1,x", "3,c,3,y2", "3,c2,3,y2"}, leftPad...)},
		{name: "right residual", typ: sql.JoinRight, keys: key, cond: notY,
			want: append([]string{"1,a,1,x", "3,c,3,y2", "3,c2,3,y2", "NULL,NULL,3,y"}, rightPad...)},
		{name: "full residual matches nothing", typ: sql.JoinFull, keys: key, cond: lit(false, tBool),
			want: []string{"1,a,NULL,NULL", "2,b,NULL,NULL", "NULL,n,NULL,NULL", "3,c,NULL,NULL", "3,c2,NULL,NULL",
				"NULL,NULL,1,x", "NULL,NULL,3,y", "NULL,NULL,3,y2", "NULL,NULL,NULL,m", "NULL,NULL,4,z"}},
		{name: "non-equi", typ: sql.JoinLeft, cond: call(planner.FnGt, tBool, joinCol(0, tInt), joinCol(2, tInt)),
			want: []string{"1,a,NULL,NULL", "2,b,1,x", "NULL,n,NULL,NULL", "3,c,1,x", "3,c2,1,x"}},
	} {
		c.left, c.right = joinLeft, joinRight
		runJoin(t, c)
	}
}

func TestCrossJoin(t *testing.T) {
	runJoin(t, joinCase{
		name: "cross", typ: sql.JoinCross,
		left:  []column{{"a", tInt, `[1, 2]`}},
		right: []column{{"b", tStr, `["x", null, "z"]`}},
		want:  []string{"1,x", "1,NULL", "1,z", "2,x", "2,NULL", "2,z"},
	})
}

func TestJoinMultiColumnStringKeys(t *testing.T) {
	left := []column{{"k1", tStr, `["a", "a", "b", null, "ab"]`}, {"k2", tBig, `[1, 2, 1, 1, 1]`}}
	right := []column{{"k1", tStr, `["a", "a", "b", "a", "a"]`}, {"k2", tBig, `[1, 1, 2, null, 11]`}}
	keys := [][2]int{{0, 0}, {1, 1}}
	runJoin(t, joinCase{name: "inner", typ: sql.JoinInner, left: left, right: right, keys: keys,
		want: []string{"a,1,a,1", "a,1,a,1"}})
	runJoin(t, joinCase{name: "full", typ: sql.JoinFull, left: left, right: right, keys: keys,
		want: []string{"a,1,a,1", "a,1,a,1", "a,2,NULL,NULL", "b,1,NULL,NULL", "NULL,1,NULL,NULL", "ab,1,NULL,NULL",
			"NULL,NULL,b,2", "NULL,NULL,a,NULL", "NULL,NULL,a,11"}})
}

func TestJoinEmptySides(t *testing.T) {
	empty := []column{{"id", tInt, `[]`}, {"t", tStr, `[]`}}
	key := [][2]int{{0, 0}}
	allRight := []string{"NULL,NULL,1,x", "NULL,NULL,3,y", "NULL,NULL,3,y2", "NULL,NULL,NULL,m", "NULL,NULL,4,z"}
	for _, c := range []joinCase{
		{name: "inner empty left", typ: sql.JoinInner, left: empty, right: joinRight},
		{name: "left empty left", typ: sql.JoinLeft, left: empty, right: joinRight},
		{name: "right empty left", typ: sql.JoinRight, left: empty, right: joinRight, want: allRight},
		{name: "full empty left", typ: sql.JoinFull, left: empty, right: joinRight, want: allRight},
		{name: "inner empty right", typ: sql.JoinInner, left: joinLeft, right: empty},
		{name: "left empty right", typ: sql.JoinLeft, left: joinLeft, right: empty,
			want: []string{"1,a,NULL,NULL", "2,b,NULL,NULL", "NULL,n,NULL,NULL", "3,c,NULL,NULL", "3,c2,NULL,NULL"}},
		{name: "cross empty", typ: sql.JoinCross, left: joinLeft, right: empty},
	} {
		if c.typ != sql.JoinCross {
			c.keys = key
		}
		runJoin(t, c)
	}
}

// TestJoinManyMatches checks that one probe row matching more build rows
// than fit in a batch is split across batches.
func TestJoinManyMatches(t *testing.T) {
	n := BatchSize + 100
	ones := strings.TrimSuffix(strings.Repeat("1,", n), ",")
	runJoin(t, joinCase{
		name: "many", typ: sql.JoinInner, keys: [][2]int{{0, 0}},
		left:  []column{{"k", tInt, `[1, 2, 1]`}},
		right: []column{{"k", tInt, "[" + ones + "]"}},
		want:  slices.Repeat([]string{"1,1"}, 2*n),
	})
}

func TestEncodeKeysEquality(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := newBatch(t, mem,
		column{"d", tDouble, `[0, -0, "NaN", null, 1.5]`},
		column{"s", tStr, `["a", "a", "", null, "ab"]`})
	defer b.Release()
	keys, err := encodeKeys(b.Columns(), int(b.NumRows()))
	if err != nil {
		t.Fatal(err)
	}
	if string(keys.key(0)) != string(keys.key(1)) {
		t.Error("0.0 and -0.0 must encode alike")
	}
	if !keys.hasNull[3] || keys.hasNull[2] {
		t.Errorf("hasNull = %v", keys.hasNull)
	}
	// The length prefix keeps ("a", "b…") apart from ("ab", …).
	if string(keys.key(0)) == string(keys.key(4)) {
		t.Error("different rows encode alike")
	}
}
