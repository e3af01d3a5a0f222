package sql

import "strings"

// PIVOT and UNPIVOT after a FROM item, as Spark, Snowflake and SQL Server
// write them, are parsed into the queries they stand for, the way
// LATERAL VIEW is (parse_nested.go): the binder sees a subquery.

// pivot parses X PIVOT (agg [AS a], … FOR col IN (value [AS v], …)) [alias]
// into
//
//	(SELECT * EXCLUDE (col, the columns the aggregates read),
//	        agg FILTER (WHERE col IS NOT DISTINCT FROM value) AS name, …
//	 FROM X GROUP BY ALL) alias
//
// a row per group of X's other columns, and a column per value and
// aggregate, named as Spark names them: the value's alias or text, then _
// and the aggregate's alias or text where there are several aggregates or
// it has an alias.
func (p *parser) pivot(x TableExpr) TableExpr {
	t := p.advance()
	p.expectOp("(")
	var aggs []SelectItem
	for {
		item := SelectItem{Pos: p.tok().pos, Expr: p.expr()}
		if call, ok := item.Expr.(*FuncCall); !ok || call.Over != nil {
			panic(&Error{Pos: item.Pos, Msg: "PIVOT takes aggregate calls before FOR, like sum(amount)"})
		}
		if p.acceptWord("as") {
			item.Alias = p.aliasName()
		}
		aggs = append(aggs, item)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectWord("for")
	colTok := p.tok()
	col := &ColumnRef{Parts: []string{p.ident()}, Pos: colTok.pos}
	p.expectWord("in")
	values := p.aliasedList()
	p.expectOp(")")
	sel := &Select{Pos: t.pos, From: x, GroupByAll: true}
	star := &Star{Exclude: []*ColumnRef{col}, Pos: t.pos}
	for _, a := range aggs {
		Inspect(a.Expr, func(e Expr) bool {
			if ref, ok := e.(*ColumnRef); ok && !excludes(star, ref) {
				star.Exclude = append(star.Exclude, &ColumnRef{Parts: ref.Parts[len(ref.Parts)-1:], Pos: ref.Pos})
			}
			return true
		})
	}
	sel.Items = []SelectItem{{Expr: star, Pos: t.pos}}
	for _, v := range values {
		for _, a := range aggs {
			call := *a.Expr.(*FuncCall)
			var match Expr = &IsDistinctExpr{L: col, R: v.Expr, Not: true, Pos: v.Pos}
			if call.Filter != nil {
				match = &BinaryExpr{Op: "AND", L: call.Filter, R: match, Pos: v.Pos}
			}
			call.Filter = match
			name := pivotValueName(v)
			if len(aggs) > 1 || a.Alias != "" {
				aggName := a.Alias
				if aggName == "" {
					aggName = Format(a.Expr)
				}
				name += "_" + aggName
			}
			sel.Items = append(sel.Items, SelectItem{Expr: &call, Alias: name, Pos: v.Pos})
		}
	}
	return p.derived(sel, t)
}

// unpivot parses X UNPIVOT [INCLUDE | EXCLUDE NULLS] (value FOR name IN
// (col [AS label], …)) [alias] into
//
//	(SELECT * EXCLUDE (the cols, __unpivot), __unpivot.name AS name, __unpivot.value AS value
//	 FROM X CROSS JOIN unnest(array(named_struct('name', 'label', 'value', col), …)) AS __unpivoted (__unpivot)
//	 WHERE __unpivot.value IS NOT NULL) alias
//
// a row per row of X and listed column, without the rows whose value is
// NULL unless INCLUDE NULLS says so; the values take the columns' common
// type.
func (p *parser) unpivot(x TableExpr) TableExpr {
	t := p.advance()
	includeNulls := false
	if p.tok().isWord("include") || p.tok().isWord("exclude") {
		includeNulls = p.tok().isWord("include")
		p.advance()
		p.expectWord("nulls")
	}
	p.expectOp("(")
	value := p.ident()
	p.expectWord("for")
	name := p.ident()
	p.expectWord("in")
	cols := p.aliasedList()
	p.expectOp(")")
	const entry, entries = "__unpivot", "__unpivoted"
	star := &Star{Exclude: []*ColumnRef{{Parts: []string{entry}, Pos: t.pos}}, Pos: t.pos}
	pairs := &FuncCall{Name: "array", Pos: t.pos}
	for _, c := range cols {
		ref, ok := c.Expr.(*ColumnRef)
		if !ok {
			panic(&Error{Pos: c.Pos, Msg: "UNPIVOT takes column names in IN (…)"})
		}
		star.Exclude = append(star.Exclude, ref)
		label := c.Alias
		if label == "" {
			label = ref.Parts[len(ref.Parts)-1]
		}
		pairs.Args = append(pairs.Args, &FuncCall{Name: "named_struct", Pos: c.Pos, Args: []Expr{
			&Literal{Kind: LitString, Value: "name", Pos: c.Pos}, &Literal{Kind: LitString, Value: label, Pos: c.Pos},
			&Literal{Kind: LitString, Value: "value", Pos: c.Pos}, ref}})
	}
	field := func(f string) Expr {
		return &FieldExpr{X: &ColumnRef{Parts: []string{entry}, Pos: t.pos}, Field: f, Pos: t.pos}
	}
	sel := &Select{Pos: t.pos, Items: []SelectItem{
		{Expr: star, Pos: t.pos},
		{Expr: field("name"), Alias: name, Pos: t.pos},
		{Expr: field("value"), Alias: value, Pos: t.pos},
	}}
	sel.From = &Join{Type: JoinCross, L: x, Pos: t.pos,
		R: &TableFunc{Name: "unnest", Args: []Expr{pairs}, Alias: entries, ColAliases: []string{entry}, Pos: t.pos}}
	if !includeNulls {
		sel.Where = &IsNullExpr{X: field("value"), Not: true, Pos: t.pos}
	}
	return p.derived(sel, t)
}

// aliasedList parses (expr [AS alias], …), where an alias may be a string.
func (p *parser) aliasedList() []SelectItem {
	p.expectOp("(")
	var items []SelectItem
	for {
		item := SelectItem{Pos: p.tok().pos, Expr: p.expr()}
		if p.acceptWord("as") {
			if t := p.tok(); t.kind == tokString {
				p.advance()
				item.Alias = t.text
			} else {
				item.Alias = p.aliasName()
			}
		}
		items = append(items, item)
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp(")")
	return items
}

// derived wraps sel as a FROM item with the alias that follows, if any.
func (p *parser) derived(sel *Select, t token) TableExpr {
	s := &SubqueryTable{Query: &Query{Body: sel, Pos: t.pos}, Pos: t.pos}
	s.Alias = p.tableAlias()
	return s
}

// pivotValueName is the name PIVOT gives the columns of value v: its alias,
// or its text (a string without quotes).
func pivotValueName(v SelectItem) string {
	if v.Alias != "" {
		return v.Alias
	}
	if lit, ok := v.Expr.(*Literal); ok && lit.Kind != LitNull {
		return lit.Value
	}
	if neg, ok := v.Expr.(*UnaryExpr); ok && neg.Op == "-" {
		if lit, ok := neg.X.(*Literal); ok && lit.Kind != LitString {
			return "-" + lit.Value
		}
	}
	return Format(v.Expr)
}

// excludes reports whether star's EXCLUDE already names ref's column.
func excludes(star *Star, ref *ColumnRef) bool {
	name := ref.Parts[len(ref.Parts)-1]
	for _, e := range star.Exclude {
		if strings.EqualFold(e.Parts[len(e.Parts)-1], name) {
			return true
		}
	}
	return false
}
