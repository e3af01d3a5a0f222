package sql

import (
	"strconv"
	"strings"
)

// Sample is the size of a random sample: each row kept with probability
// Percent/100, or Rows rows (Rows is -1 for a percentage).
type Sample struct {
	Percent float64
	Rows    int64
	Pos     Pos
}

// SampledTable is X TABLESAMPLE …: a random sample of X's rows.
type SampledTable struct {
	X      TableExpr
	Sample Sample
}

func (SampledTable) tableExpr() {}

// tableSample parses the TABLESAMPLE that may follow a table of FROM and
// returns x sampled, or x when none follows.
func (p *parser) tableSample(x TableExpr) TableExpr {
	if !p.tok().isWord("tablesample") {
		return x
	}
	return &SampledTable{X: x, Sample: p.sampleSize(p.advance())}
}

// sampledWithAlias parses the alias of x (parseAlias sets it) and a
// TABLESAMPLE before it, as Spark writes it, or after it, as Trino does.
func (p *parser) sampledWithAlias(x TableExpr, parseAlias func()) TableExpr {
	sampled := p.tableSample(x)
	parseAlias()
	if sampled != x {
		return sampled
	}
	return p.tableSample(x)
}

// usingSample parses DuckDB's USING SAMPLE …, which samples the rows of a
// select block's FROM, or returns nil.
func (p *parser) usingSample() *Sample {
	if !p.tok().isWord("using") || !p.peek(1).isWord("sample") {
		return nil
	}
	t := p.advance()
	p.advance()
	s := p.sampleSize(t)
	return &s
}

// sampleSize parses a sample's size in the forms of Trino (BERNOULLI (10),
// SYSTEM (10): percentages), Spark ((10 PERCENT), (5 ROWS)) and DuckDB
// (10%, 10 PERCENT, 5 ROWS, and a bare 5: rows). SYSTEM and DuckDB's
// RESERVOIR sample rows the way BERNOULLI and ROWS do.
func (p *parser) sampleSize(at token) Sample {
	s := Sample{Rows: -1, Pos: at.pos}
	method := ""
	for _, m := range []string{"bernoulli", "system", "reservoir"} {
		if p.acceptWord(m) {
			method = m
		}
	}
	paren := p.acceptOp("(")
	t := p.tok()
	if t.kind != tokNumber {
		p.want("sample size")
		panic(p.unexpected())
	}
	p.advance()
	n, err := strconv.ParseFloat(t.text, 64)
	switch {
	case p.acceptOp("%") || p.acceptWord("percent") || !p.tok().isWord("rows") && (method == "bernoulli" || method == "system"):
		if err != nil || n < 0 || n > 100 {
			panic(errorAt(t, "sample percentage %s is not between 0 and 100", t.text))
		}
		s.Percent = n
	default:
		p.acceptWord("rows")
		rows, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil || rows < 0 || strings.ContainsAny(t.text, ".eE") {
			panic(errorAt(t, "sample size %s is not a whole number of rows", t.text))
		}
		s.Rows = rows
	}
	if paren {
		p.expectOp(")")
	}
	if r := p.tok(); r.isWord("repeatable") {
		panic(errorAt(r, "REPEATABLE is not supported: a sample is drawn anew at every run"))
	}
	return s
}
