package sql

// withinGroup parses the WITHIN GROUP (ORDER BY value) of an ordered-set
// aggregate, percentile_cont(0.5) WITHIN GROUP (ORDER BY x), into the
// argument form DuckDB and Spark also accept: percentile_cont(x, 0.5).
func (p *parser) withinGroup(f *FuncCall) {
	t := p.tok()
	p.skip(2) // WITHIN GROUP
	p.expectOp("(")
	p.expectWord("order")
	p.expectWord("by")
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
