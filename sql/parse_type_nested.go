package sql

import "strings"

// Nested types are written as Spark and Hive write them:
//
//	ARRAY<t>   (also LIST<t>)
//	MAP<k, v>
//	STRUCT<name: t, name t NOT NULL, …>
//
// The element of an ARRAY and the value of a MAP may be marked NOT NULL.

// nestedTypeArgs parses the <…> after ARRAY, LIST, MAP or STRUCT into tn.
func (p *parser) nestedTypeArgs(tn *TypeName, word string) {
	p.expectOp("<")
	switch word {
	case "array", "list":
		tn.Name = "ARRAY"
		tn.Args = []TypeName{p.nestedTypeArg()}
	case "map":
		tn.Name = "MAP"
		key := p.typeName()
		p.expectOp(",")
		tn.Args = []TypeName{key, p.nestedTypeArg()}
	case "struct":
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
	p.expectOp(">")
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
