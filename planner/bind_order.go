package planner

import (
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// orderKey is a bound ORDER BY key: a column of the plan being sorted.
type orderKey struct {
	index            int
	desc, nullsFirst bool
}

// newOrderKey puts NULLs last unless the item says NULLS FIRST, ascending
// and descending, as DuckDB and Trino do; Spark agrees for DESC, which is
// where "top N" queries meet NULLs.
func newOrderKey(index int, o sql.OrderItem) orderKey {
	k := orderKey{index: index, desc: o.Desc}
	if o.NullsFirst != nil {
		k.nullsFirst = *o.NullsFirst
	}
	return k
}

// bindOrderedBody binds a query body and the query's ORDER BY. A SELECT body
// lets ORDER BY see its input columns too (bindSelectOrdered); any other body
// (a set operation, VALUES, a parenthesized query) is sorted by its output
// columns, named, numbered, or in expressions.
func (b *binder) bindOrderedBody(body sql.SetExpr, order []sql.OrderItem) (Plan, error) {
	if sel, ok := body.(*sql.Select); ok {
		return b.bindSelectOrdered(sel, order)
	}
	plan, err := b.bindSetExpr(body)
	if err != nil || len(order) == 0 {
		return plan, err
	}
	cols := plan.Schema()
	order = orderByAll(order, len(cols))
	proj := &Project{Input: plan}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
		proj.Exprs = append(proj.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		proj.Names = append(proj.Names, c.Name)
	}
	s := &scope{cols: cols}
	keys := make([]orderKey, len(order))
	for i, o := range order {
		idx, ok, err := outputColumn(o.Expr, names)
		if err != nil {
			return nil, err
		}
		if !ok {
			x, err := b.bindExpr(o.Expr, s)
			if err != nil {
				return nil, err
			}
			idx = len(proj.Exprs)
			if ref, isRef := x.(*ColumnRef); isRef {
				idx = ref.Index
			} else {
				proj.Exprs = append(proj.Exprs, x)
				proj.Names = append(proj.Names, sql.Format(o.Expr))
			}
		}
		keys[i] = newOrderKey(idx, o)
	}
	if len(proj.Exprs) > len(cols) {
		plan = proj
	}
	return sortPlan(plan, len(cols), keys), nil
}

// bindSelectOrder binds ORDER BY for a SELECT block: keys name output columns
// (by ordinal or name) or are expressions over the block's input, which
// become hidden columns unless the select list already computes them.
func (b *binder) bindSelectOrder(order []sql.OrderItem, items []selectItem, s *scope) ([]orderKey, []selectItem, error) {
	order = orderByAll(order, len(items))
	names := make([]string, len(items))
	itemKeys := make(map[string]int, len(items))
	for i, it := range items {
		names[i] = it.name
		if _, ok := itemKeys[exprKey(it.expr)]; !ok {
			itemKeys[exprKey(it.expr)] = i
		}
	}
	var hidden []selectItem
	keys := make([]orderKey, len(order))
	for i, o := range order {
		idx, ok, err := outputColumn(o.Expr, names)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			x, err := b.bindExpr(o.Expr, s)
			if err != nil {
				return nil, nil, err
			}
			key := exprKey(x)
			if idx, ok = itemKeys[key]; !ok {
				idx = len(items) + len(hidden)
				itemKeys[key] = idx
				hidden = append(hidden, selectItem{expr: x, name: sql.Format(o.Expr), src: o.Expr})
			}
		}
		keys[i] = newOrderKey(idx, o)
	}
	return keys, hidden, nil
}

// orderByAll turns DuckDB's ORDER BY ALL into the ordinals of all n output
// columns, left to right, each with ALL's direction; any other ORDER BY is
// returned as it is.
func orderByAll(order []sql.OrderItem, n int) []sql.OrderItem {
	if len(order) != 1 || !order[0].All {
		return order
	}
	keys := make([]sql.OrderItem, n)
	for i := range keys {
		keys[i] = order[0]
		keys[i].All = false
		keys[i].Expr = &sql.Literal{Kind: sql.LitInteger, Value: strconv.Itoa(i + 1)}
	}
	return keys
}

// outputColumn resolves an ORDER BY ordinal (ORDER BY 2) or output column
// name (ORDER BY alias); ok is false for anything else.
func outputColumn(e sql.Expr, names []string) (int, bool, error) {
	switch e := e.(type) {
	case *sql.Literal:
		if e.Kind != sql.LitInteger {
			break
		}
		k, err := strconv.Atoi(e.Value)
		if err != nil || k < 1 || k > len(names) {
			return 0, false, errorf(e.Pos, "ORDER BY position %s is not in select list", e.Value)
		}
		return k - 1, true, nil
	case *sql.ColumnRef:
		if len(e.Parts) > 1 {
			break
		}
		for i, n := range names {
			if strings.EqualFold(n, e.Parts[0]) {
				return i, true, nil
			}
		}
	}
	return 0, false, nil
}

// sortPlan sorts plan by keys and then drops its columns from visible on
// (the hidden ORDER BY columns). Without keys it returns plan unchanged.
func sortPlan(plan Plan, visible int, keys []orderKey) Plan {
	if len(keys) == 0 {
		return plan
	}
	cols := plan.Schema()
	sort := &Sort{Input: plan}
	for _, k := range keys {
		c := cols[k.index]
		key := SortKey{Expr: &ColumnRef{Index: k.index, Name: c.Name, T: c.T}, Desc: k.desc, NullsFirst: k.nullsFirst}
		sort.Keys = append(sort.Keys, sortKeysOf(key)...)
	}
	if visible == len(cols) {
		return sort
	}
	out := &Project{Input: sort}
	for i, c := range cols[:visible] {
		out.Exprs = append(out.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		out.Names = append(out.Names, c.Name)
		out.Marks = append(out.Marks, c.ColumnMarks)
	}
	return out
}

// limitRows applies LIMIT/OFFSET. Over a Sort (possibly under the projection
// that drops hidden sort columns) a limit becomes a TopN, which keeps only
// limit+offset rows instead of sorting everything.
func limitRows(plan Plan, limit, offset int64) Plan {
	if limit >= 0 {
		switch p := plan.(type) {
		case *Sort:
			return &TopN{Input: p.Input, Keys: p.Keys, Limit: limit, Offset: offset}
		case *Project:
			if sort, ok := p.Input.(*Sort); ok {
				return &Project{Input: limitRows(sort, limit, offset), Exprs: p.Exprs, Names: p.Names}
			}
		}
	}
	return &Limit{Input: plan, Limit: limit, Offset: offset}
}
