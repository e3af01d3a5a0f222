package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genColumn is a column the query generator may use, with literals that
// hit, miss and straddle its values.
type genColumn struct {
	name     string
	kind     kind
	literals []string
	// arith marks numeric columns safe for arithmetic: the extreme INT and
	// BIGINT fixtures overflow, which both engines report as an error.
	arith bool
	// group marks columns with few distinct values, fit for GROUP BY.
	group bool
}

type genTable struct {
	name    string
	columns []genColumn
}

var genTables = []genTable{
	{name: ev, columns: []genColumn{
		{name: "event_id", kind: kindNumber, literals: []string{"1000", "5000", "9999"}},
		{name: "user_id", kind: kindNumber, literals: []string{"10", "100", "500"}, arith: true},
		{name: "quantity", kind: kindNumber, literals: []string{"1", "2", "3"}, arith: true, group: true},
		{name: "price", kind: kindNumber, literals: []string{"9.99", "50", "200.5"}, arith: true},
		{name: "event_type", kind: kindString, literals: []string{"'purchase'", "'page_view'", "'search'"}, group: true},
		{name: "country", kind: kindString, literals: []string{"'DE'", "'US'", "'JP'", "'XX'"}, group: true},
		{name: "device", kind: kindString, literals: []string{"'mobile'", "'tablet'"}, group: true},
		{name: "category", kind: kindString, literals: []string{"'Books'", "'Toys'", "'Home'"}, group: true},
		{name: "product_id", kind: kindString, literals: []string{"'P00010'", "'P00100'"}},
		{name: "event_time", kind: kindTime, literals: []string{"TIMESTAMP '2026-01-02 12:00:00'", "TIMESTAMP '2026-01-04 00:00:00'"}},
	}},
	{name: "diff.t", columns: []genColumn{
		{name: "i", kind: kindNumber, literals: []string{"-7", "0", "3", "2147483647"}, group: true},
		{name: "b", kind: kindNumber, literals: []string{"-1", "3", "9000000000"}},
		{name: "d", kind: kindNumber, literals: []string{"-2.5", "0", "3.5"}, arith: true},
		{name: "m", kind: kindNumber, literals: []string{"-1.255", "0.001", "2.345"}},
		{name: "s", kind: kindString, literals: []string{"'abc'", "''", "'héllo'"}},
		{name: "dt", kind: kindTime, literals: []string{"DATE '2024-01-01'", "DATE '2024-03-01'"}},
		{name: "ts", kind: kindTime, literals: []string{"TIMESTAMP '2024-02-29 13:45:30.25'", "TIMESTAMP '2000-01-01 00:00:00'"}},
		{name: "flag", kind: kindBool, group: true},
	}},
}

// generator builds random queries from a seeded source.
type generator struct {
	rng   *rand.Rand
	table genTable
}

// generatedCases returns n random queries: filters × projections × GROUP
// BY with aggregates, over the demo clickstream and the edge-value table.
func generatedCases(seed uint64, n int) []diffCase {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cases := make([]diffCase, n)
	for i := range cases {
		g := generator{rng: rng, table: genTables[rng.IntN(len(genTables))]}
		if rng.IntN(2) == 0 {
			cases[i] = diffCase{sql: g.selectQuery()}
		} else {
			cases[i] = diffCase{sql: g.aggregateQuery()}
		}
	}
	return cases
}

func (g generator) column() genColumn {
	return g.table.columns[g.rng.IntN(len(g.table.columns))]
}

func (g generator) pick(options []string) string {
	return options[g.rng.IntN(len(options))]
}

func (g generator) where() string {
	if g.rng.IntN(5) == 0 {
		return ""
	}
	return " WHERE " + g.predicate(2)
}

// predicate is a boolean expression nested up to depth levels of
// AND/OR/NOT, so that NULL operands exercise three-valued logic.
func (g generator) predicate(depth int) string {
	if depth > 0 {
		switch g.rng.IntN(4) {
		case 0:
			return "(" + g.predicate(depth-1) + " AND " + g.predicate(depth-1) + ")"
		case 1:
			return "(" + g.predicate(depth-1) + " OR " + g.predicate(depth-1) + ")"
		case 2:
			return "NOT (" + g.predicate(depth-1) + ")"
		}
	}
	return g.atom()
}

func (g generator) atom() string {
	c := g.column()
	if g.rng.IntN(6) == 0 {
		return c.name + g.pick([]string{" IS NULL", " IS NOT NULL"})
	}
	if c.kind == kindBool {
		return g.pick([]string{c.name, "NOT " + c.name, c.name + " = true"})
	}
	lit := g.pick(c.literals)
	switch g.rng.IntN(5) {
	case 0:
		return fmt.Sprintf("%s IN (%s, %s%s)", c.name, lit, g.pick(c.literals), g.pick([]string{"", ", NULL"}))
	case 1:
		return fmt.Sprintf("%s BETWEEN %s AND %s", c.name, g.pick(c.literals), g.pick(c.literals))
	case 2:
		if c.kind == kindString {
			prefix := []rune(strings.Trim(lit, "'"))
			return fmt.Sprintf("%s LIKE '%s%%'", c.name, string(prefix[:min(len(prefix), 2)]))
		}
	}
	return c.name + " " + g.pick([]string{"=", "<>", "<", "<=", ">", ">="}) + " " + lit
}

// projection is one SELECT expression over the table.
func (g generator) projection() string {
	c := g.column()
	switch g.rng.IntN(6) {
	case 0:
		return "CASE WHEN " + g.predicate(1) + " THEN 1 ELSE 0 END"
	case 1:
		if c.kind != kindBool {
			return fmt.Sprintf("coalesce(%s, %s)", c.name, g.pick(c.literals))
		}
	case 2:
		if c.arith {
			return c.name + g.pick([]string{" * 2", " + 1", " - 0.5", " / 4"})
		}
		if c.kind == kindString {
			return g.pick([]string{"upper(", "length(", "lower("}) + c.name + ")"
		}
	}
	return c.name
}

func (g generator) selectQuery() string {
	cols := make([]string, 1+g.rng.IntN(3))
	for i := range cols {
		cols[i] = g.projection()
	}
	distinct := g.pick([]string{"", "", "DISTINCT "})
	return "SELECT " + distinct + strings.Join(cols, ", ") + " FROM " + g.table.name + g.where()
}

// aggregate is one aggregate call fit for the column's kind.
func (g generator) aggregate() string {
	c := g.column()
	options := []string{"count(*)", "count(" + c.name + ")", "count(DISTINCT " + c.name + ")"}
	if c.kind != kindBool {
		options = append(options, "min("+c.name+")", "max("+c.name+")")
	}
	if c.kind == kindNumber {
		options = append(options, "sum("+c.name+")", "avg("+c.name+")")
	}
	if c.kind == kindBool {
		options = append(options, "bool_and("+c.name+")", "count_if("+c.name+")")
	}
	return g.pick(options)
}

func (g generator) aggregateQuery() string {
	var keys []string
	for _, c := range g.table.columns {
		if c.group && g.rng.IntN(3) == 0 {
			keys = append(keys, c.name)
		}
	}
	aggs := make([]string, 1+g.rng.IntN(3))
	for i := range aggs {
		aggs[i] = g.aggregate()
	}
	q := "SELECT " + strings.Join(append(append([]string{}, keys...), aggs...), ", ") + " FROM " + g.table.name + g.where()
	if len(keys) > 0 {
		q += " GROUP BY " + strings.Join(keys, ", ")
		if g.rng.IntN(3) == 0 {
			q += " HAVING count(*) > " + g.pick([]string{"1", "2", "10"})
		}
	}
	return q
}
