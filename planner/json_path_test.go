package planner

import (
	"slices"
	"testing"
)

func TestParseJSONPath(t *testing.T) {
	key := func(k string) JSONStep { return JSONStep{Kind: JSONKey, Key: k} }
	index := func(n int) JSONStep { return JSONStep{Kind: JSONIndex, Index: n} }
	fromEnd := func(n int) JSONStep { return JSONStep{Kind: JSONIndexFromEnd, Index: n} }
	token := func(k string) JSONStep { return JSONStep{Kind: JSONPointerToken, Key: k} }
	cases := []struct {
		path   string
		syntax JSONPathSyntax
		steps  []JSONStep
		err    string
	}{
		{"$", JSONPathDuckDB, nil, ""},
		{"", JSONPathDuckDB, nil, ""},
		{"$.a.b", JSONPathDuckDB, []JSONStep{key("a"), key("b")}, ""},
		{"$.a b.c-d.é", JSONPathDuckDB, []JSONStep{key("a b"), key("c-d"), key("é")}, ""},
		{`$."a.b"[0]`, JSONPathDuckDB, []JSONStep{key("a.b"), index(0)}, ""},
		{`$."a\"b"`, JSONPathDuckDB, []JSONStep{key(`a"b`)}, ""},
		{`$['a|b']["c*"]`, JSONPathDollar, []JSONStep{key("a|b"), key("c*")}, ""},
		{"$[12][-1][#-2]", JSONPathDuckDB, []JSONStep{index(12), fromEnd(1), fromEnd(2)}, ""},
		{"a.b", JSONPathDuckDB, []JSONStep{key("a.b")}, ""},
		{"/a/~1b~0/0", JSONPathDuckDB, []JSONStep{token("a"), token("/b~"), token("0")}, ""},
		{"/", JSONPathDuckDB, []JSONStep{token("")}, ""},
		{"a", JSONPathDollar, nil, `JSON path "a" must start with $`},
		{"$.", JSONPathDuckDB, nil, `JSON path "$.": syntax error near "."`},
		{"$a", JSONPathDuckDB, nil, `JSON path "$a": syntax error near "a"`},
		{"$[x]", JSONPathDuckDB, nil, `JSON path "$[x]": syntax error near "[x]"`},
		{"$[+1]", JSONPathDuckDB, nil, `JSON path "$[+1]": syntax error near "[+1]"`},
		{"$[-0]", JSONPathDuckDB, nil, `JSON path "$[-0]": syntax error near "[-0]"`},
		{"$[0", JSONPathDuckDB, nil, `JSON path "$[0": syntax error near "[0"`},
		{`$["a"`, JSONPathDuckDB, nil, `JSON path "$[\"a\"": syntax error near "[\"a\""`},
		{`$."a`, JSONPathDuckDB, nil, `JSON path "$.\"a": syntax error near ".\"a"`},
		{"$.*", JSONPathDuckDB, nil, `JSON path "$.*": wildcards are not supported near ".*"`},
		{"$[*]", JSONPathDuckDB, nil, `JSON path "$[*]": wildcards are not supported near "[*]"`},
	}
	for _, c := range cases {
		steps, err := ParseJSONPath(c.path, c.syntax)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseJSONPath(%q): error %v, want %s", c.path, err, c.err)
		case c.err == "" && (err != nil || !slices.Equal(steps, c.steps)):
			t.Errorf("ParseJSONPath(%q) = %v, %v; want %v", c.path, steps, err, c.steps)
		}
	}
}
