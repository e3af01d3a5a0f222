package optimizer

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// pruneNestedFields narrows the struct columns of scans to the fields the
// query reads. When every use of a struct column is a field access (s.a,
// s.b.c) — in the Project or Aggregate reading the scan through Filters,
// Sorts and Limits — the scan asks for a struct of those fields only, and
// the Parquet reader decodes only their leaf column chunks. Fields keep
// their field ids, so files are matched as before.
func pruneNestedFields(p planner.Plan) planner.Plan {
	if children := p.Children(); len(children) > 0 {
		kids := make([]planner.Plan, len(children))
		for i, c := range children {
			kids[i] = pruneNestedFields(c)
		}
		p = p.WithChildren(kids)
	}
	switch p.(type) {
	case *planner.Project, *planner.Aggregate:
	default:
		return p
	}
	chain := []planner.Plan{p}
	n := p.Children()[0]
	for {
		if _, isScan := n.(*planner.Scan); isScan {
			break
		}
		switch n.(type) {
		case *planner.Filter, *planner.Sort, *planner.TopN, *planner.Limit:
			chain = append(chain, n)
			n = n.Children()[0]
		default:
			return p
		}
	}
	scan := n.(*planner.Scan)
	exprs := nodeExprs(chain)
	if scan.Filter != nil {
		exprs = append(exprs, scan.Filter)
	}
	if slices.ContainsFunc(exprs, planner.HasSubquery) {
		return p
	}
	u := fieldUses{paths: map[int][][]string{}, whole: map[int]bool{}}
	for _, e := range exprs {
		u.collect(e)
	}
	narrowed := map[int]arrow.DataType{}
	for c, paths := range u.paths {
		st, ok := scan.Columns[c].T.(*arrow.StructType)
		if ok && !u.whole[c] {
			if t := narrowStruct(st, paths); !arrow.TypeEqual(t, st) {
				narrowed[c] = t
			}
		}
	}
	if len(narrowed) == 0 {
		return p
	}
	out := *scan
	out.Columns = slices.Clone(scan.Columns)
	for c, t := range narrowed {
		out.Columns[c].T = t
	}
	retype := func(e planner.Expr) planner.Expr {
		if e == nil {
			return nil
		}
		return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
			switch x := x.(type) {
			case *planner.ColumnRef:
				if t, ok := narrowed[x.Index]; ok {
					return &planner.ColumnRef{Index: x.Index, Name: x.Name, T: t}
				}
			case *planner.Call:
				// A field read from a narrowed struct is itself narrowed.
				if st, ok := x.Args[0].Type().(*arrow.StructType); ok && x.Fn == planner.FnGetField {
					if i, ok := st.FieldIdx(x.Args[1].(*planner.Literal).Value.(string)); ok {
						x.T = st.Field(i).Type
					}
				}
			}
			return x
		})
	}
	out.Filter = retype(scan.Filter)
	var input planner.Plan = &out
	for i := len(chain) - 1; i >= 0; i-- {
		input = withExprs(chain[i], input, retype)
	}
	return input
}

// nodeExprs lists the expressions of the nodes that read scan columns.
func nodeExprs(chain []planner.Plan) []planner.Expr {
	var out []planner.Expr
	for _, n := range chain {
		switch n := n.(type) {
		case *planner.Project:
			out = append(out, n.Exprs...)
		case *planner.Aggregate:
			out = append(out, n.GroupBy...)
			for _, a := range n.Aggs {
				out = append(out, a.Exprs()...)
			}
		case *planner.Filter:
			out = append(out, n.Cond)
		case *planner.Sort:
			for _, k := range n.Keys {
				out = append(out, k.Expr)
			}
		case *planner.TopN:
			for _, k := range n.Keys {
				out = append(out, k.Expr)
			}
		}
	}
	return out
}

// withExprs copies node n over input with its expressions rewritten by f.
func withExprs(n planner.Plan, input planner.Plan, f func(planner.Expr) planner.Expr) planner.Plan {
	keys := func(ks []planner.SortKey) []planner.SortKey {
		out := slices.Clone(ks)
		for i := range out {
			out[i].Expr = f(out[i].Expr)
		}
		return out
	}
	switch n := n.(type) {
	case *planner.Project:
		out := *n
		out.Input, out.Exprs = input, make([]planner.Expr, len(n.Exprs))
		for i, e := range n.Exprs {
			out.Exprs[i] = f(e)
		}
		return &out
	case *planner.Aggregate:
		out := *n
		out.Input, out.GroupBy, out.Aggs = input, make([]planner.Expr, len(n.GroupBy)), make([]*planner.AggCall, len(n.Aggs))
		for i, e := range n.GroupBy {
			out.GroupBy[i] = f(e)
		}
		for i, a := range n.Aggs {
			out.Aggs[i] = a.MapExprs(f)
		}
		return &out
	case *planner.Filter:
		return &planner.Filter{Input: input, Cond: f(n.Cond)}
	case *planner.Sort:
		out := *n
		out.Input, out.Keys = input, keys(n.Keys)
		return &out
	case *planner.TopN:
		out := *n
		out.Input, out.Keys = input, keys(n.Keys)
		return &out
	}
	return n.WithChildren([]planner.Plan{input})
}

// fieldUses records, per column index, the field paths read from it, and
// whether the column is also used whole.
type fieldUses struct {
	paths map[int][][]string
	whole map[int]bool
}

func (u *fieldUses) collect(e planner.Expr) {
	if path, col, ok := fieldPath(e); ok {
		u.paths[col] = append(u.paths[col], path)
		return
	}
	switch e := e.(type) {
	case *planner.ColumnRef:
		u.whole[e.Index] = true
	case *planner.Call:
		for _, a := range e.Args {
			u.collect(a)
		}
	case *planner.Cast:
		u.collect(e.X)
	case *planner.Case:
		for _, w := range e.Whens {
			u.collect(w.Cond)
			u.collect(w.Result)
		}
		if e.Else != nil {
			u.collect(e.Else)
		}
	}
}

// fieldPath recognizes get_field(…get_field(column, 'a')…, 'z') as the
// path a…z of the column.
func fieldPath(e planner.Expr) ([]string, int, bool) {
	c, ok := e.(*planner.Call)
	if !ok || c.Fn != planner.FnGetField {
		return nil, 0, false
	}
	name := c.Args[1].(*planner.Literal).Value.(string)
	if ref, ok := c.Args[0].(*planner.ColumnRef); ok {
		return []string{name}, ref.Index, true
	}
	path, col, ok := fieldPath(c.Args[0])
	return append(path, name), col, ok
}

// narrowStruct keeps the fields of t that paths reach, in t's order; a
// field read whole keeps its type.
func narrowStruct(t *arrow.StructType, paths [][]string) *arrow.StructType {
	var fields []arrow.Field
	for _, f := range t.Fields() {
		var tails [][]string
		whole := false
		for _, p := range paths {
			if p[0] != f.Name {
				continue
			}
			if len(p) == 1 {
				whole = true
			}
			tails = append(tails, p[1:])
		}
		if tails == nil {
			continue
		}
		if st, ok := f.Type.(*arrow.StructType); ok && !whole {
			f.Type = narrowStruct(st, tails)
		}
		fields = append(fields, f)
	}
	return arrow.StructOf(fields...)
}
