package sql

// withinGroup parses the WITHIN GROUP (ORDER BY value) of an ordered-set
// aggregate, percentile_cont(0.5) WITHIN GROUP (ORDER BY x), into the
// argument form DuckDB and Spark also accept: percentile_cont(x, 0.5).
//
// Of an aggregate that orders what it collects, listagg(x, ',') WITHIN
// GROUP (ORDER BY y) as Trino, Oracle and Snowflake write it, the order is
// the one inside its parentheses: string_agg(x, ',' ORDER BY y).
func (p *parser) withinGroup(f *FuncCall) {
	t := p.tok()
	p.skip(2) // WITHIN GROUP
	p.expectOp("(")
	p.expectWord("order")
	p.expectWord("by")
	if orderedAggregates[f.Name] {
		if len(f.OrderBy) > 0 {
			panic(errorAt(t, "%s has an ORDER BY inside its parentheses and WITHIN GROUP (ORDER BY …): keep one", f.Name))
		}
		f.OrderBy = p.orderItems()
		p.expectOp(")")
		return
	}
	item := p.orderItem()
	p.expectOp(")")
	if item.Desc {
		panic(errorAt(t, "WITHIN GROUP (ORDER BY … DESC) is not supported; order ascending and take 1 - the fraction"))
	}
	if len(f.Args) != 1 || f.Distinct || f.Star {
		panic(errorAt(t, "%s(fraction) WITHIN GROUP (ORDER BY value) takes one fraction", f.Name))
	}
	f.Args = []Expr{item.Expr, f.Args[0]}
}

// orderedAggregates are the aggregates whose WITHIN GROUP orders the values
// they collect.
var orderedAggregates = map[string]bool{
	"listagg": true, "string_agg": true, "group_concat": true, "array_agg": true, "list": true, "collect_list": true,
}
