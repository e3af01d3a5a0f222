package sql

import (
	"slices"
	"strings"
)

// Nested values: x[index], x.field and ARRAY[…] (see ast_nested.go), and
// nested types, written as Spark and Hive write them:
//
//	ARRAY<t>   (also LIST<t>)
//	MAP<k, v>
//	STRUCT<name: t, name t NOT NULL, …>
//
// or as Trino writes them: ARRAY(t), MAP(k, v), ROW(name t, …). The element
// of an ARRAY and the value of a MAP may be marked NOT NULL.

// nestedTypeArgs parses the <…> after ARRAY, LIST, MAP or STRUCT into tn.
func (p *parser) nestedTypeArgs(tn *TypeName, word string) {
	closing := ">"
	if p.acceptOp("(") {
		closing = ")"
	} else {
		p.expectOp("<")
	}
	switch word {
	case "array", "list":
		tn.Name = "ARRAY"
		tn.Args = []TypeName{p.nestedTypeArg()}
	case "map":
		tn.Name = "MAP"
		key := p.typeName()
		p.expectOp(",")
		tn.Args = []TypeName{key, p.nestedTypeArg()}
	case "struct", "row":
		tn.Name = "STRUCT"
		for {
			name := p.ident()
			p.acceptOp(":")
			f := p.nestedTypeArg()
			f.Field = name
			tn.Args = append(tn.Args, f)
			if !p.acceptOp(",") {
				break
			}
		}
	}
	if closing == ">" {
		p.splitShift()
	}
	p.expectOp(closing)
}

// splitShift splits a >> token, the end of two nested type argument lists
// (ARRAY<ARRAY<INT>>), into two >.
func (p *parser) splitShift() {
	t := p.tok()
	if !t.isOp(">>") {
		return
	}
	first, second := t, t
	first.text, first.raw = ">", ">"
	second.text, second.raw = ">", ">"
	second.pos.Col++
	p.toks = slices.Insert(p.toks, p.i+1, second)
	p.toks[p.i] = first
}

// nestedTypeArg parses a type followed by an optional NOT NULL.
func (p *parser) nestedTypeArg() TypeName {
	t := p.typeName()
	if p.tok().isWord("not") && p.peek(1).isWord("null") {
		p.skip(2)
		t.NotNull = true
	}
	return t
}

// formatNestedType prints a nested type so that it parses back to itself.
func formatNestedType(t TypeName) string {
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		s := FormatType(a)
		if a.NotNull {
			s += " NOT NULL"
		}
		if t.Name == "STRUCT" {
			s = quoteIdent(a.Field) + ": " + s
		}
		args[i] = s
	}
	return t.Name + "<" + strings.Join(args, ", ") + ">"
}

// QuoteIdent quotes a name as the parser reads it back (see quoteIdent).
func QuoteIdent(name string) string { return quoteIdent(name) }

// nestedPostfix parses the [index], [begin:end:step] and .field suffixes
// after an operand.
func (p *parser) nestedPostfix(x Expr) Expr {
	for {
		switch t := p.tok(); {
		case t.isOp("["):
			p.advance()
			x = p.subscriptOrSlice(x, t.pos)
		case t.isOp(".") && p.peek(1).isName():
			p.advance()
			x = &FieldExpr{X: x, Field: p.ident(), Pos: t.pos}
		default:
			return x
		}
	}
}

// subscriptOrSlice parses what follows the [ at pos: index] or DuckDB's
// slice begin:end] or begin:end:step], each part optional; an end left out
// before a step may also be spelled - (x[:-:2]).
func (p *parser) subscriptOrSlice(x Expr, pos Pos) Expr {
	var begin Expr
	if !p.tok().isOp(":") {
		begin = p.expr()
		if !p.acceptOp(":") {
			p.expectOp("]")
			return &SubscriptExpr{X: x, Index: begin, Pos: pos}
		}
	} else {
		p.advance()
	}
	s := &SliceExpr{X: x, Begin: begin, Pos: pos}
	if p.tok().isOp("-") && p.peek(1).isOp(":") {
		p.advance() // DuckDB's x[begin:-:step], the end left out
	} else {
		s.End = p.sliceBound()
	}
	if p.acceptOp(":") {
		s.Step = p.sliceBound()
	}
	p.expectOp("]")
	return s
}

// sliceBound parses a slice's end or step, nil when it is left out.
func (p *parser) sliceBound() Expr {
	if p.tok().isOp(":") || p.tok().isOp("]") {
		return nil
	}
	return p.expr()
}

// arrayConstructor parses ARRAY[a, b, …] (Trino, PostgreSQL) as array(a, b, …).
func (p *parser) arrayConstructor() Expr {
	return p.listLiteral(p.advance().pos)
}

// listLiteral parses [a, b, …] (DuckDB's list, and ARRAY's brackets) as
// array(a, b, …) at pos.
func (p *parser) listLiteral(pos Pos) Expr {
	p.expectOp("[")
	call := &FuncCall{Name: "array", Pos: pos}
	if !p.tok().isOp("]") {
		call.Args = p.exprList()
	}
	p.expectOp("]")
	return call
}

// mapLiteral parses DuckDB's MAP {key: value, …} into map(key, value, …).
func (p *parser) mapLiteral() Expr {
	call := &FuncCall{Name: "map", Pos: p.advance().pos}
	p.expectOp("{")
	for !p.tok().isOp("}") {
		key := p.expr()
		p.expectOp(":")
		call.Args = append(call.Args, key, p.expr())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	return call
}

// structLiteral parses {'name': value, …} (DuckDB's struct; a name may
// also be written as an identifier) as named_struct('name', value, …) at
// pos.
func (p *parser) structLiteral(pos Pos) Expr {
	p.expectOp("{")
	call := &FuncCall{Name: "named_struct", Pos: pos}
	if p.tok().isOp("}") {
		panic(errorAt(p.tok(), "a struct literal needs at least one field: {'name': value, …}"))
	}
	for !p.tok().isOp("}") {
		name := p.tok()
		var field string
		if name.kind == tokString {
			field = p.advance().text
		} else {
			field = p.ident()
		}
		if field == "" {
			panic(errorAt(name, "a struct field needs a name"))
		}
		p.expectOp(":")
		call.Args = append(call.Args, &Literal{Kind: LitString, Value: field, Pos: name.pos}, p.expr())
		if !p.acceptOp(",") {
			break
		}
	}
	p.expectOp("}")
	return call
}

// lateralView parses LATERAL VIEW [OUTER] generator(args) alias [AS] col,
// … (Spark) after the table x, as x CROSS JOIN generator(args), or for
// OUTER x LEFT JOIN generator(args) ON TRUE. As in Spark, the column names
// run on while commas follow.
func (p *parser) lateralView(x TableExpr) TableExpr {
	t := p.advance()
	p.expectWord("view")
	j := &Join{Type: JoinCross, L: x, Pos: t.pos}
	if p.eatWord("outer") {
		j.Type, j.On = JoinLeft, &Literal{Kind: LitBool, Value: "true", Pos: t.pos}
	}
	f := &TableFunc{Pos: p.tok().pos}
	f.Name = strings.ToLower(p.ident())
	f.Args = p.callArgs()
	if !p.tok().isWord("as") {
		f.Alias = p.ident()
	}
	if p.acceptWord("as") || p.tok().isName() {
		for {
			f.ColAliases = append(f.ColAliases, p.ident())
			if !p.tok().isOp(",") || !p.peek(1).isName() {
				break
			}
			p.advance()
		}
	}
	j.R = f
	return j
}

// withOrdinality parses WITH ORDINALITY after UNNEST(…).
func (p *parser) withOrdinality() bool {
	if p.tok().isWord("with") && p.peek(1).isWord("ordinality") {
		p.skip(2)
		return true
	}
	return false
}
