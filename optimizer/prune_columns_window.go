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
		for _, e := range c.Exprs() {
			markColumns(e, inNeeded)
		}
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
		call, _ := c.MapExprs(func(e planner.Expr) (planner.Expr, error) { return remapColumns(e, mapping), nil })
		out.Calls = append(out.Calls, call)
	}
	return out, mapping
}
