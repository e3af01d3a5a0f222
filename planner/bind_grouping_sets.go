package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// GROUP BY ROLLUP (…), CUBE (…), GROUPING SETS (…) and () group the rows
// once per grouping set: a row per group of each set, the group columns
// outside the set NULL, and grouping(x, …) telling a rolled-up NULL from a
// NULL group. The block is bound as for a plain GROUP BY over the union of
// the sets' expressions; its Aggregate is then one Aggregate per set, each
// projected to the full layout (NULL for the columns it does not group,
// the grouping() values as constants) and joined by UNION ALL. So the
// input is read once per set. Every aggregate stays exact (DISTINCT,
// percentiles, string_agg), and the empty set () is a global aggregate:
// one row over no rows, as standard SQL has it. The MySQL dialect's WITH
// ROLLUP is translated into ROLLUP (sql/mysqldialect/rollup.go).

// maxGroupingSets bounds the expansion of CUBE and nested constructs: each
// set is one more aggregation of the input.
const maxGroupingSets = 1024

// hasGroupingSets reports whether GROUP BY holds ROLLUP, CUBE, GROUPING
// SETS or ().
func hasGroupingSets(items []sql.Expr) bool {
	return slices.ContainsFunc(items, func(x sql.Expr) bool {
		_, ok := x.(*sql.GroupingSets)
		return ok
	})
}

// setExpander expands GROUP BY items into grouping sets, each a list of
// indexes into groups, the distinct expressions bound by bind.
type setExpander struct {
	bind   func(sql.Expr) (Expr, error)
	groups []Expr
	keys   map[string]int
}

// bindGroupingSets binds a GROUP BY with grouping constructs: the distinct
// group expressions and the grouping sets over them.
func (b *binder) bindGroupingSets(sel *sql.Select, s, gs *scope) ([]Expr, [][]int, error) {
	e := &setExpander{keys: map[string]int{}, bind: func(g sql.Expr) (Expr, error) {
		target, err := groupTarget(g, sel.Items, s)
		if err != nil {
			return nil, err
		}
		return b.bindExpr(target, gs)
	}}
	sets, err := e.product(sel.GroupBy)
	return e.groups, sets, err
}

// index binds a group expression and returns its index in e.groups.
func (e *setExpander) index(g sql.Expr) (int, error) {
	x, err := e.bind(g)
	if err != nil {
		return 0, err
	}
	key := exprKey(x)
	if i, ok := e.keys[key]; ok {
		return i, nil
	}
	e.keys[key] = len(e.groups)
	e.groups = append(e.groups, x)
	return len(e.groups) - 1, nil
}

// product is the grouping sets of a list of items: one set of each item's
// sets in every combination, joined (GROUP BY a, ROLLUP (b) is (a, b), (a)).
func (e *setExpander) product(items []sql.Expr) ([][]int, error) {
	sets := [][]int{{}}
	for _, item := range items {
		alts, err := e.item(item)
		if err != nil {
			return nil, err
		}
		if len(sets)*len(alts) > maxGroupingSets {
			return nil, errorf(item.Position(), "GROUP BY makes more than %d grouping sets", maxGroupingSets)
		}
		next := make([][]int, 0, len(sets)*len(alts))
		for _, set := range sets {
			for _, alt := range alts {
				next = append(next, joinSets(set, alt))
			}
		}
		sets = next
	}
	return sets, nil
}

// joinSets is a followed by the indexes of b that a does not hold.
func joinSets(a, b []int) []int {
	out := slices.Clone(a)
	for _, i := range b {
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// item is the grouping sets of one GROUP BY item.
func (e *setExpander) item(x sql.Expr) ([][]int, error) {
	g, ok := x.(*sql.GroupingSets)
	if !ok {
		i, err := e.index(x)
		return [][]int{{i}}, err
	}
	if g.Kind == "GROUPING SETS" {
		var out [][]int
		for _, elem := range g.Elems {
			sets, err := e.product(elem)
			if err != nil {
				return nil, err
			}
			if out = append(out, sets...); len(out) > maxGroupingSets {
				return nil, errorf(g.Pos, "GROUP BY makes more than %d grouping sets", maxGroupingSets)
			}
		}
		return out, nil
	}
	elems := make([][]int, len(g.Elems))
	for k, elem := range g.Elems {
		for _, x := range elem {
			i, err := e.index(x)
			if err != nil {
				return nil, err
			}
			elems[k] = joinSets(elems[k], []int{i})
		}
	}
	var out [][]int
	if g.Kind == "ROLLUP" { // (e1, …, en), (e1, …, en-1), …, ()
		for n := len(elems); n >= 0; n-- {
			out = append(out, slices.Concat(elems[:n]...))
		}
		return out, nil
	}
	if 1<<min(len(elems), 31) > maxGroupingSets {
		return nil, errorf(g.Pos, "CUBE of %d elements makes more than %d grouping sets", len(elems), maxGroupingSets)
	}
	for mask := 1<<len(elems) - 1; mask >= 0; mask-- { // every subset, the full one first
		var set []int
		for k, elem := range elems {
			if mask&(1<<(len(elems)-1-k)) != 0 {
				set = joinSets(set, elem)
			}
		}
		out = append(out, set)
	}
	return out, nil
}

// groupingOutput stands for grouping(x, …) while a block is bound: bit
// n-1-k of its value is set when argument k is not grouped in the row's
// grouping set (grouping(a, b) is 2 where only b is grouped), as in the
// standard, DuckDB, Trino and Spark. cols are the argument's group columns
// of the aggregator (a struct has several).
type groupingOutput struct {
	cols [][]int
	key  string // the call by group columns, for finding repeats
	name string // the call as written, for EXPLAIN
}

func (g *groupingOutput) Type() arrow.DataType { return TypeBigint }
func (g *groupingOutput) String() string       { return g.key }

// bindGrouping binds grouping(x, …) (and DuckDB's grouping_id): each
// argument must be an expression of the block's GROUP BY, or a select alias
// as GROUP BY resolves one.
func (b *binder) bindGrouping(e *sql.FuncCall, s *scope) (Expr, error) {
	switch {
	case s.aggs == nil:
		return nil, errorf(e.Pos, "%s is not allowed here", e.Name)
	case s.aggs.forbidden != "":
		return nil, errorf(e.Pos, "%s (%s is one)", s.aggs.forbidden, e.Name)
	case e.Star || e.Distinct || len(e.OrderBy) > 0:
		return nil, errorf(e.Pos, "%s takes GROUP BY expressions only", e.Name)
	case len(e.Args) == 0 || len(e.Args) > 63:
		return nil, errorf(e.Pos, "%s needs 1 to 63 arguments, got %d", e.Name, len(e.Args))
	case len(s.aggs.groups) == 0:
		return nil, errorf(e.Pos, "%s needs a GROUP BY", e.Name)
	}
	out := &groupingOutput{name: sql.Format(e)}
	var keys []string
	for _, arg := range e.Args {
		if ref, ok := arg.(*sql.ColumnRef); ok {
			target, err := groupTarget(ref, s.items, s)
			if err != nil {
				return nil, err
			}
			arg = target
		}
		x, err := b.bindExpr(arg, forbidAggregates(s, "aggregate functions are not allowed in "+e.Name))
		if err != nil {
			return nil, err
		}
		cols, ok := s.aggs.groupColumns(x)
		if !ok {
			return nil, errorf(arg.Position(), "argument of %s must be an expression of GROUP BY", e.Name)
		}
		out.cols = append(out.cols, cols)
		keys = append(keys, fmt.Sprint(cols))
	}
	out.key = "grouping(" + strings.Join(keys, ", ") + ")"
	return out, nil
}

// groupColumns lists the aggregator's group columns of group expression x
// (several for a struct, which groups by its parts).
func (a *aggregator) groupColumns(x Expr) ([]int, bool) {
	key := exprKey(x)
	_, isGroup := a.groupKeys[key]
	_, isStruct := a.structs[key]
	if !isGroup && !isStruct {
		return nil, false
	}
	var cols []int
	for _, g := range newAggregator([]Expr{x}).groups {
		cols = append(cols, a.groupKeys[exprKey(g)])
	}
	return cols, true
}

// groupingSets is how a block's Aggregate groups: sets of the aggregator's
// group columns (nil for a plain GROUP BY), and the block's grouping()
// calls, computed as constants per set in columns after the aggregates.
type groupingSets struct {
	agg   *aggregator
	sets  [][]int
	calls []*groupingOutput
	index map[string]int
}

// newGroupingSets turns sets of group expressions (nil for a plain GROUP
// BY) into sets of the aggregator's group columns.
func newGroupingSets(sets [][]int, groups []Expr, agg *aggregator) *groupingSets {
	gs := &groupingSets{agg: agg, index: map[string]int{}}
	for _, set := range sets {
		cols := []int{}
		for _, i := range set {
			c, _ := agg.groupColumns(groups[i])
			cols = joinSets(cols, c)
		}
		gs.sets = append(gs.sets, cols)
	}
	return gs
}

// collect turns the grouping() calls in *e into references to their
// columns, which the aggregator's finish makes column references.
func (gs *groupingSets) collect(e *Expr) {
	if *e == nil {
		return
	}
	*e = Rewrite(*e, func(x Expr) Expr {
		g, ok := x.(*groupingOutput)
		if !ok {
			return x
		}
		k, seen := gs.index[g.key]
		if !seen {
			k = len(gs.calls)
			gs.index[g.key] = k
			gs.calls = append(gs.calls, g)
		}
		return &aggOutput{Index: len(gs.agg.groups) + len(gs.agg.calls) + k, Name: gs.calls[k].name, T: TypeBigint}
	})
}

// collectWindows collects the grouping() calls in the block's window calls.
func (gs *groupingSets) collectWindows(win *windower) {
	for _, c := range win.calls {
		for k := range c.Args {
			gs.collect(&c.Args[k])
		}
		for k := range c.PartitionBy {
			gs.collect(&c.PartitionBy[k])
		}
		for k := range c.OrderBy {
			gs.collect(&c.OrderBy[k].Expr)
		}
	}
}

// plan builds the block's aggregation over input: agg's Aggregate, or,
// for grouping sets, the UNION ALL of one Aggregate per set laid out as
// agg's (group columns, aggregates) followed by the grouping() values.
func (gs *groupingSets) plan(input Plan, agg *aggregator) Plan {
	full := agg.plan(input)
	sets := gs.sets
	if sets == nil {
		if len(gs.calls) == 0 {
			return full
		}
		sets = [][]int{{}}
		for i := range agg.groups {
			sets[0] = append(sets[0], i)
		}
	}
	var out Plan
	for _, set := range sets {
		branch := gs.branch(input, agg, full, set)
		if out == nil {
			out = branch
			continue
		}
		out = &SetOp{Op: "UNION", All: true, Left: out, Right: branch, Columns: branch.Schema()}
	}
	return out
}

// branch aggregates input by the group columns of one set and projects the
// result to the layout of full plus the grouping() values.
func (gs *groupingSets) branch(input Plan, agg *aggregator, full *Aggregate, set []int) Plan {
	slices.Sort(set)
	a := &Aggregate{Input: input, Aggs: agg.calls}
	for _, i := range set {
		a.GroupBy = append(a.GroupBy, agg.groups[i])
		a.Names = append(a.Names, full.Names[i])
	}
	a.Names = append(a.Names, agg.names...)
	proj := &Project{Input: a}
	for i, g := range agg.groups {
		var x Expr = &Literal{T: g.Type()}
		if k := slices.Index(set, i); k >= 0 {
			x = &ColumnRef{Index: k, Name: full.Names[i], T: g.Type()}
		}
		proj.Exprs = append(proj.Exprs, x)
		proj.Names = append(proj.Names, full.Names[i])
	}
	for j, c := range agg.calls {
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: len(set) + j, Name: agg.names[j], T: c.T})
		proj.Names = append(proj.Names, agg.names[j])
	}
	for _, g := range gs.calls {
		var v int64
		for _, cols := range g.cols {
			v <<= 1
			if !slices.Contains(set, cols[0]) {
				v |= 1
			}
		}
		proj.Exprs = append(proj.Exprs, &Literal{Value: v, T: TypeBigint})
		proj.Names = append(proj.Names, g.name)
	}
	return proj
}
