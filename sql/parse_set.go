package sql

import "strings"

// Reset is RESET name (one setting back to its default) or RESET (all of
// them, Name ""). Name is lower case.
type Reset struct {
	Name string
	Pos  Pos
}

func (Reset) stmt() {}

// reset parses RESET [name]; names may be dotted, as in SET.
func (p *parser) reset() Statement {
	r := &Reset{Pos: p.advance().pos}
	if p.atStatementEnd() {
		return r
	}
	if p.tok().isWord("time") && p.peek(1).isWord("zone") {
		p.skip(2)
		r.Name = "timezone"
		return r
	}
	parts, _ := p.dottedName(0)
	r.Name = strings.ToLower(strings.Join(parts, "."))
	return r
}

// atStatementEnd reports whether the statement ends at the current token.
func (p *parser) atStatementEnd() bool {
	t := p.tok()
	return t.kind == tokEOF || t.isOp(";")
}
