package planner

import (
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// selectItem is a bound output column of a SELECT block. src is the parsed
// expression it came from, where errors about it point.
type selectItem struct {
	expr Expr
	name string
	src  sql.Expr
	// aliased: name is an AS alias, which HAVING and the items after this
	// one may use for it, as in DuckDB.
	aliased bool
}

// bindSelect binds a SELECT block that no ORDER BY applies to.
func (b *binder) bindSelect(sel *sql.Select) (Plan, error) {
	return b.bindSelectOrdered(sel, nil)
}

// bindSelectOrdered binds a SELECT block and the ORDER BY of the query whose
// body it is. The plan is, bottom up: FROM, WHERE, a generator of the
// select list (bind_select_generator.go), Aggregate (when the block
// groups or aggregates), HAVING, Window (when it has window calls),
// QUALIFY, the select list plus hidden ORDER BY columns, Distinct, Sort,
// and a projection dropping the hidden columns.
func (b *binder) bindSelectOrdered(sel *sql.Select, order []sql.OrderItem) (Plan, error) {
	input, err := b.bindSelectInput(sel)
	if err != nil {
		return nil, err
	}
	s := &scope{cols: input.Schema()}
	gen, err := b.findSelectGenerator(sel, input)
	if err != nil {
		return nil, err
	}
	groups, sets, err := b.bindGroupBy(sel, s, gen)
	if err != nil {
		return nil, err
	}
	agg := newAggregator(groups)
	win := newWindower()
	withAggs := *s
	withAggs.aggs, withAggs.windows, withAggs.items = agg, win, sel.Items
	items, err := b.bindSelectItems(sel.Items, &withAggs, gen)
	if err != nil {
		return nil, err
	}
	var having Expr
	if sel.Having != nil {
		hs := forbidWindows(&withAggs, "window functions are not allowed in HAVING")
		hs.aliases, hs.aliasesOverUngrouped = map[string]Expr{}, true
		for _, it := range items {
			if it.aliased {
				hs.addAlias(it.name, it.expr)
			}
		}
		if having, err = b.bindExpr(sel.Having, hs); err != nil {
			return nil, err
		}
	}
	qualify, err := b.bindQualify(sel, &withAggs, items)
	if err != nil {
		return nil, err
	}
	keys, hidden, err := b.bindSelectOrder(order, items, &withAggs)
	if err != nil {
		return nil, err
	}
	if sel.Distinct && len(hidden) > 0 {
		return nil, errorf(hidden[0].src.Position(), "for SELECT DISTINCT, ORDER BY expressions must appear in the select list")
	}
	all := append(items, hidden...)
	plan := input
	aggregated := len(groups) > 0 || len(agg.calls) > 0 || sel.Having != nil || sets != nil
	if agg.outerRef != nil && (aggregated || gen != nil) {
		return nil, agg.outerRef
	}
	if gen != nil {
		if aggregated {
			return nil, errorf(gen.src.Position(), "%s in the select list cannot be combined with aggregates; explode in a subquery and aggregate its rows", gen.unnest.Func)
		}
		plan = gen.unnest
	}
	if aggregated {
		gsets := newGroupingSets(sets, groups, agg)
		if qualify != nil {
			gsets.collect(&qualify.expr)
		}
		gsets.collectWindows(win)
		if plan, err = aggregatePlan(input, agg, gsets, all, having, sel.Having); err != nil {
			return nil, err
		}
		if qualify != nil {
			if qualify.expr, err = agg.finish(qualify.expr, qualify.src); err != nil {
				return nil, err
			}
		}
	}
	withQualify := all
	if qualify != nil {
		withQualify = append(all[:len(all):len(all)], *qualify)
	}
	if plan, err = win.plan(plan, withQualify, agg, aggregated); err != nil {
		return nil, err
	}
	all = withQualify[:len(all)]
	if qualify != nil {
		if plan, err = qualifyPlan(plan, &withQualify[len(all)]); err != nil {
			return nil, err
		}
	}
	proj := &Project{Input: plan}
	for _, it := range all {
		proj.Exprs = append(proj.Exprs, it.expr)
		proj.Names = append(proj.Names, it.name)
	}
	plan = proj
	if sel.Distinct {
		plan = &Distinct{Input: plan}
	}
	return sortPlan(plan, len(items), keys), nil
}

// bindSelectInput binds FROM, its USING SAMPLE and WHERE.
func (b *binder) bindSelectInput(sel *sql.Select) (Plan, error) {
	var input Plan = &Values{Rows: [][]Expr{{}}}
	var err error
	if sel.From != nil {
		if input, err = b.bindFrom(sel.From); err != nil {
			return nil, err
		}
	}
	if sel.Sample != nil {
		if input, err = b.samplePlan(input, *sel.Sample); err != nil {
			return nil, err
		}
	}
	if sel.Where == nil {
		return input, nil
	}
	s := forbidAggregates(&scope{cols: input.Schema(), selectList: sel.Items}, "aggregate functions are not allowed in WHERE")
	s = forbidWindows(s, "window functions are not allowed in WHERE")
	cond, err := b.bindExpr(sel.Where, s)
	if err != nil {
		return nil, err
	}
	if cond, err = requireBoolean(cond, sel.Where.Position(), "WHERE"); err != nil {
		return nil, err
	}
	return &Filter{Input: input, Cond: cond}, nil
}

// bindGroupBy binds the GROUP BY expressions over the input. An item may be
// an ordinal of the select list (GROUP BY 1) or, when no input column has
// that name, a select-list alias; GROUP BY ALL stands for the select items
// that aggregate nothing (bind_group_by_all.go). With ROLLUP, CUBE,
// GROUPING SETS or () it also returns the grouping sets, as indexes into
// the expressions (bind_grouping_sets.go); otherwise sets is nil.
func (b *binder) bindGroupBy(sel *sql.Select, s *scope, gen *selectGenerator) (groups []Expr, sets [][]int, err error) {
	gs := forbidAggregates(s, "aggregate functions are not allowed in GROUP BY")
	if sel.GroupByAll {
		groups, err = b.groupByAll(sel.Items, gs, gen)
		return groups, nil, err
	}
	if hasGroupingSets(sel.GroupBy) {
		return b.bindGroupingSets(sel, s, gs)
	}
	for _, g := range sel.GroupBy {
		target, err := groupTarget(g, sel.Items, s)
		if err != nil {
			return nil, nil, err
		}
		x, err := b.bindExpr(target, gs)
		if err != nil {
			return nil, nil, err
		}
		groups = append(groups, x)
	}
	return distinctExprs(groups), nil, nil
}

// distinctExprs drops the repeats of an expression from list.
func distinctExprs(list []Expr) []Expr {
	var out []Expr
	seen := map[string]bool{}
	for _, x := range list {
		if key := exprKey(x); !seen[key] {
			seen[key] = true
			out = append(out, x)
		}
	}
	return out
}

// groupTarget resolves a GROUP BY ordinal or alias to its select item.
func groupTarget(g sql.Expr, items []sql.SelectItem, s *scope) (sql.Expr, error) {
	switch g := g.(type) {
	case *sql.Literal:
		if g.Kind != sql.LitInteger {
			break
		}
		k, err := strconv.Atoi(g.Value)
		if err != nil || k < 1 || k > len(items) {
			return nil, errorf(g.Pos, "GROUP BY position %s is not in select list", g.Value)
		}
		if _, ok := items[k-1].Expr.(*sql.Star); ok {
			return nil, errorf(g.Pos, "GROUP BY position %d refers to *", k)
		}
		return items[k-1].Expr, nil
	case *sql.ColumnRef:
		if _, err := s.resolve(g); err == nil || len(g.Parts) > 1 {
			break
		}
		for _, item := range items {
			if item.Alias != "" && strings.EqualFold(item.Alias, g.Parts[0]) {
				return item.Expr, nil
			}
		}
	}
	return g, nil
}

// bindSelectItems binds the select list, expanding stars; the generator
// item, if any, stands for its columns. An item may use the alias of an
// item before it for that item's value (a lateral column alias, DuckDB's
// and Spark's), where no input column has the name.
func (b *binder) bindSelectItems(sqlItems []sql.SelectItem, s *scope, gen *selectGenerator) ([]selectItem, error) {
	var items []selectItem
	lateral := *s
	lateral.aliases = map[string]Expr{}
	s = &lateral
	for i, item := range sqlItems {
		if gen != nil && i == gen.item {
			items = append(items, gen.items()...)
			continue
		}
		if star, ok := item.Expr.(*sql.Star); ok {
			expanded, err := b.expandStar(star, s)
			if err != nil {
				return nil, err
			}
			if len(expanded) == 0 && len(sqlItems) == 1 && len(star.Exclude) > 0 {
				return nil, errorf(star.Pos, "the select list is empty: EXCLUDE leaves no column of %s", sql.Format(&sql.Star{Table: star.Table}))
			}
			items = append(items, expanded...)
			continue
		}
		e, err := b.bindExpr(item.Expr, s)
		if err != nil {
			return nil, err
		}
		items = append(items, selectItem{expr: e, name: selectItemName(item), src: item.Expr, aliased: item.Alias != ""})
		if item.Alias != "" {
			s.addAlias(item.Alias, e)
		}
	}
	return items, nil
}

// aggregatePlan puts an Aggregate (or one per grouping set, gsets) over
// input and rewrites the output columns (and HAVING, which becomes a
// Filter) to read the Aggregate's columns.
func aggregatePlan(input Plan, agg *aggregator, gsets *groupingSets, items []selectItem, having Expr, havingSrc sql.Expr) (Plan, error) {
	for _, it := range items {
		agg.nameCall(it.expr, it.name)
	}
	gsets.collect(&having)
	for i := range items {
		gsets.collect(&items[i].expr)
		e, err := agg.finish(items[i].expr, items[i].src)
		if err != nil {
			return nil, err
		}
		items[i].expr = e
	}
	plan := gsets.plan(input, agg)
	if having == nil {
		return plan, nil
	}
	cond, err := agg.finish(having, havingSrc)
	if err != nil {
		return nil, err
	}
	if cond, err = requireBoolean(cond, havingSrc.Position(), "HAVING"); err != nil {
		return nil, err
	}
	return &Filter{Input: plan, Cond: cond}, nil
}

// selectItemName is the output name of a select item: its alias, the column
// name for a plain column, else the expression text.
func selectItemName(item sql.SelectItem) string {
	if item.Alias != "" {
		return item.Alias
	}
	if ref, ok := item.Expr.(*sql.ColumnRef); ok {
		return ref.Parts[len(ref.Parts)-1]
	}
	return sql.Format(item.Expr)
}
