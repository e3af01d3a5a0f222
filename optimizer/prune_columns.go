package optimizer

import (
	"github.com/lakesql/lakesql/planner"
)

// pruneColumns narrows every scan to the columns its ancestors reference, so
// Parquet column chunks nobody reads are never fetched or decoded.
func pruneColumns(p planner.Plan) planner.Plan {
	all := make([]bool, len(p.Schema()))
	for i := range all {
		all[i] = true
	}
	out, _ := narrow(p, all)
	return out
}

// narrow rewrites p to produce only the needed columns (it may keep more) and
// returns the new plan with, for each old column index, its new index or -1.
func narrow(p planner.Plan, needed []bool) (planner.Plan, []int) {
	switch p := p.(type) {
	case *planner.Scan:
		return narrowScan(p, needed)
	case *planner.Project:
		inNeeded := make([]bool, len(p.Input.Schema()))
		for i, e := range p.Exprs {
			if needed[i] {
				markColumns(e, inNeeded)
			}
		}
		input, mapping := narrow(p.Input, inNeeded)
		out := &planner.Project{Input: input}
		newIndex := make([]int, len(p.Exprs))
		for i, e := range p.Exprs {
			newIndex[i] = -1
			if needed[i] {
				newIndex[i] = len(out.Exprs)
				out.Exprs = append(out.Exprs, remapColumns(e, mapping))
				out.Names = append(out.Names, p.Names[i])
			}
		}
		return out, newIndex
	case *planner.Filter:
		inNeeded := append([]bool(nil), needed...)
		markColumns(p.Cond, inNeeded)
		input, mapping := narrow(p.Input, inNeeded)
		return &planner.Filter{Input: input, Cond: remapColumns(p.Cond, mapping)}, mapping
	case *planner.Limit:
		input, mapping := narrow(p.Input, needed)
		return &planner.Limit{Input: input, Limit: p.Limit, Offset: p.Offset}, mapping
	}
	return p, identity(len(p.Schema()))
}

func narrowScan(s *planner.Scan, needed []bool) (planner.Plan, []int) {
	if s.Filter != nil {
		// The scan's own filter reads its columns too.
		needed = append([]bool(nil), needed...)
		markColumns(s.Filter, needed)
	}
	out := *s
	out.Columns = nil
	mapping := make([]int, len(s.Columns))
	for i, c := range s.Columns {
		mapping[i] = -1
		if needed[i] {
			mapping[i] = len(out.Columns)
			out.Columns = append(out.Columns, c)
		}
	}
	if len(out.Columns) == 0 && len(s.Columns) > 0 {
		// Rows still have to be counted: keep one column.
		out.Columns = append(out.Columns, s.Columns[0])
		mapping[0] = 0
	}
	if s.Filter != nil {
		out.Filter = remapColumns(s.Filter, mapping)
	}
	return &out, mapping
}

func identity(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

// markColumns sets needed[i] for every column e references.
func markColumns(e planner.Expr, needed []bool) {
	planner.Walk(e, func(x planner.Expr) {
		if ref, ok := x.(*planner.ColumnRef); ok {
			needed[ref.Index] = true
		}
	})
}

// remapColumns rewrites column indexes through mapping.
func remapColumns(e planner.Expr, mapping []int) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: mapping[ref.Index], Name: ref.Name, T: ref.T}
		}
		return x
	})
}
