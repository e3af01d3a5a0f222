package optimizer

import (
	"slices"

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
	case *planner.FileScan:
		return p.Narrow(needed)
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
	case *planner.Join:
		return narrowJoin(p, needed)
	case *planner.SubqueryAlias:
		input, mapping := narrow(p.Input, needed)
		out := &planner.SubqueryAlias{Input: input, Alias: p.Alias, Columns: make([]planner.Column, len(input.Schema()))}
		for i, m := range mapping {
			if m >= 0 {
				out.Columns[m] = p.Columns[i]
			}
		}
		return out, mapping
	case *planner.Aggregate:
		return narrowAggregate(p), identity(len(p.Schema()))
	case *planner.Window:
		return narrowWindow(p, needed)
	case *planner.Unnest:
		return narrowUnnest(p, needed)
	case *planner.Sort:
		input, mapping := narrow(p.Input, neededWithKeys(needed, p.Keys))
		return &planner.Sort{Input: input, Keys: remapSortKeys(p.Keys, mapping)}, mapping
	case *planner.TopN:
		input, mapping := narrow(p.Input, neededWithKeys(needed, p.Keys))
		return &planner.TopN{Input: input, Keys: remapSortKeys(p.Keys, mapping), Limit: p.Limit, Offset: p.Offset}, mapping
	case *planner.Materialize:
		// Every reference reads the same rows, so none narrows them; the
		// scans below still drop what the shared query does not use.
		out := *p
		out.Input = pruneColumns(p.Input)
		return &out, identity(len(p.Schema()))
	case *planner.Distinct:
		// Distinctness depends on every column; the scans below still drop
		// what the input's own projection does not use.
		return &planner.Distinct{Input: pruneColumns(p.Input)}, identity(len(p.Schema()))
	case *planner.RecursiveCTE:
		// Each round's rows feed the next whole, so neither part narrows;
		// the scans below still drop what each part does not use.
		out := *p
		out.Anchor, out.Step = pruneColumns(p.Anchor), pruneColumns(p.Step)
		return &out, identity(len(p.Schema()))
	case *planner.SetOp:
		// Distinctness depends on every column, so a set operation keeps them
		// all; its inputs' scans can still drop what the inputs do not use.
		out := *p
		out.Left, out.Right = pruneColumns(p.Left), pruneColumns(p.Right)
		return &out, identity(len(p.Columns))
	}
	return p, identity(len(p.Schema()))
}

// narrowJoin keeps the columns needed above the join or by its keys and
// condition, on each side, and outputs only those needed above.
func narrowJoin(j *planner.Join, needed []bool) (planner.Plan, []int) {
	if j.Keep != nil {
		return j, identity(len(j.Schema())) // narrowed already
	}
	nl := len(j.Left.Schema())
	if j.LeftOnly() {
		// needed covers the left columns only; the right ones are never output.
		needed = append(append([]bool(nil), needed...), make([]bool, len(j.Right.Schema()))...)
	}
	inNeeded := append([]bool(nil), needed...)
	if j.Cond != nil {
		markColumns(j.Cond, inNeeded)
	}
	leftNeeded, rightNeeded := inNeeded[:nl], inNeeded[nl:]
	for i := range j.LeftKeys {
		markColumns(j.LeftKeys[i], leftNeeded)
		markColumns(j.RightKeys[i], rightNeeded)
	}
	left, leftMap := narrow(j.Left, leftNeeded)
	right, rightMap := narrow(j.Right, rightNeeded)
	mapping := append([]int(nil), leftMap...)
	newNl := len(left.Schema())
	for _, m := range rightMap {
		if m >= 0 {
			m += newNl
		}
		mapping = append(mapping, m)
	}
	out := &planner.Join{Type: j.Type, Left: left, Right: right, BuildLeft: j.BuildLeft}
	for i := range j.LeftKeys {
		out.LeftKeys = append(out.LeftKeys, remapColumns(j.LeftKeys[i], leftMap))
		out.RightKeys = append(out.RightKeys, remapColumns(j.RightKeys[i], rightMap))
	}
	if j.Cond != nil {
		out.Cond = remapColumns(j.Cond, mapping)
	}
	// Output only what is needed above; mapping goes to the kept columns.
	keep := make([]bool, len(out.Joined()))
	for i, m := range mapping {
		if m >= 0 && needed[i] {
			keep[m] = true
		}
	}
	if slices.Contains(keep, false) {
		out.Keep = keep
		kept := 0
		newIndex := make([]int, len(keep))
		for m, k := range keep {
			newIndex[m] = -1
			if k {
				newIndex[m] = kept
				kept++
			}
		}
		for i, m := range mapping {
			if m >= 0 {
				mapping[i] = newIndex[m]
			}
		}
	}
	if j.LeftOnly() {
		mapping = mapping[:nl]
	}
	return out, mapping
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

// remapColumns rewrites column indexes through mapping. The plans of
// subqueries inside e are left as they are: optimize_subqueries already ran
// this rule on them, and pruning each occurrence again would give a
// subquery pushed into a scan's filter a plan of its own, so it would run
// twice (the executor shares results by plan).
func remapColumns(e planner.Expr, mapping []int) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: mapping[ref.Index], Name: ref.Name, T: ref.T}
		}
		return x
	})
}
