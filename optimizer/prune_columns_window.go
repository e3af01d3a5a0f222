package optimizer

import "github.com/lakesql/lakesql/planner"

// narrowWindow drops the window calls nobody reads (the whole Window when
// none is read: it never changes the rows) and narrows the input to the
// input columns needed above plus those the remaining calls read.
func narrowWindow(w *planner.Window, needed []bool) (planner.Plan, []int) {
	width := len(w.Input.Schema())
	inNeeded := append([]bool(nil), needed[:width]...)
	var calls []*planner.WindowCall
	var names []string
	for i, c := range w.Calls {
		if !needed[width+i] {
			continue
		}
		calls, names = append(calls, c), append(names, w.Names[i])
		for _, a := range c.Args {
			markColumns(a, inNeeded)
		}
		for _, p := range c.PartitionBy {
			markColumns(p, inNeeded)
		}
		inNeeded = neededWithKeys(inNeeded, c.OrderBy)
	}
	input, mapping := narrow(w.Input, inNeeded)
	newWidth := len(input.Schema())
	for i := range w.Calls {
		mapping = append(mapping, -1)
		if needed[width+i] {
			mapping[width+i] = newWidth
			newWidth++
		}
	}
	if len(calls) == 0 {
		return input, mapping
	}
	out := &planner.Window{Input: input, Names: names}
	for _, c := range calls {
		call := *c
		call.Args = remapAll(c.Args, mapping)
		call.PartitionBy = remapAll(c.PartitionBy, mapping)
		call.OrderBy = remapSortKeys(c.OrderBy, mapping)
		out.Calls = append(out.Calls, &call)
	}
	return out, mapping
}

func remapAll(exprs []planner.Expr, mapping []int) []planner.Expr {
	out := make([]planner.Expr, len(exprs))
	for i, e := range exprs {
		out[i] = remapColumns(e, mapping)
	}
	return out
}
