package optimizer

import "github.com/lakesql/lakesql/planner"

// narrowAggregate narrows an Aggregate's input to the columns its group keys
// and aggregate arguments read. The Aggregate keeps all its own outputs.
func narrowAggregate(a *planner.Aggregate) planner.Plan {
	inNeeded := make([]bool, len(a.Input.Schema()))
	for _, g := range a.GroupBy {
		markColumns(g, inNeeded)
	}
	for _, c := range a.Aggs {
		for _, e := range c.Exprs() {
			markColumns(e, inNeeded)
		}
	}
	input, mapping := narrow(a.Input, inNeeded)
	out := &planner.Aggregate{Input: input, Names: a.Names}
	for _, g := range a.GroupBy {
		out.GroupBy = append(out.GroupBy, remapColumns(g, mapping))
	}
	for _, c := range a.Aggs {
		out.Aggs = append(out.Aggs, c.MapExprs(func(e planner.Expr) planner.Expr { return remapColumns(e, mapping) }))
	}
	return out
}

// neededWithKeys adds the columns sort keys read to needed.
func neededWithKeys(needed []bool, keys []planner.SortKey) []bool {
	out := append([]bool(nil), needed...)
	for _, k := range keys {
		markColumns(k.Expr, out)
	}
	return out
}

func remapSortKeys(keys []planner.SortKey, mapping []int) []planner.SortKey {
	out := make([]planner.SortKey, len(keys))
	for i, k := range keys {
		out[i] = planner.SortKey{Expr: remapColumns(k.Expr, mapping), Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}
