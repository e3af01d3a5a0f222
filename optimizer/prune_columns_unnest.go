package optimizer

import "github.com/lakesql/lakesql/planner"

// narrowUnnest keeps the input columns needed above the generator or by its
// array expression; the generated columns stay.
func narrowUnnest(u *planner.Unnest, needed []bool) (planner.Plan, []int) {
	nIn := len(u.Input.Schema())
	inNeeded := append([]bool(nil), needed[:nIn]...)
	markColumns(u.List, inNeeded)
	input, mapping := narrow(u.Input, inNeeded)
	out := *u
	out.Input, out.List = input, remapColumns(u.List, mapping)
	newIndex := append([]int(nil), mapping...)
	base := len(input.Schema())
	for k := range u.Columns {
		newIndex = append(newIndex, base+k)
	}
	return &out, newIndex
}
