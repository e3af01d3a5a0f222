package sql

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	type tok struct {
		kind tokenKind
		text string
		pos  Pos
	}
	tests := []struct {
		src  string
		want []tok
	}{
		{"SELECT Foo", []tok{{tokWord, "select", Pos{1, 1}}, {tokWord, "foo", Pos{1, 8}}, {tokEOF, "", Pos{1, 11}}}},
		{`"Mixed ""Case"""`, []tok{{tokQuoted, `Mixed "Case"`, Pos{1, 1}}, {tokEOF, "", Pos{1, 17}}}},
		{"`a``b`", []tok{{tokQuoted, "a`b", Pos{1, 1}}, {tokEOF, "", Pos{1, 7}}}},
		{"a$1 _x", []tok{{tokWord, "a$1", Pos{1, 1}}, {tokWord, "_x", Pos{1, 5}}, {tokEOF, "", Pos{1, 7}}}},
		{"'it''s'", []tok{{tokString, "it's", Pos{1, 1}}, {tokEOF, "", Pos{1, 8}}}},
		{"1 1.5 .5 1. 1e10 2.5E-3", []tok{
			{tokNumber, "1", Pos{1, 1}}, {tokNumber, "1.5", Pos{1, 3}}, {tokNumber, ".5", Pos{1, 7}},
			{tokNumber, "1.", Pos{1, 10}}, {tokNumber, "1e10", Pos{1, 13}}, {tokNumber, "2.5E-3", Pos{1, 18}},
			{tokEOF, "", Pos{1, 24}}}},
		{"a::b=>c!=d==e<>f||g", []tok{
			{tokWord, "a", Pos{1, 1}}, {tokOp, "::", Pos{1, 2}}, {tokWord, "b", Pos{1, 4}}, {tokOp, "=>", Pos{1, 5}},
			{tokWord, "c", Pos{1, 7}}, {tokOp, "<>", Pos{1, 8}}, {tokWord, "d", Pos{1, 10}}, {tokOp, "=", Pos{1, 11}},
			{tokWord, "e", Pos{1, 13}}, {tokOp, "<>", Pos{1, 14}}, {tokWord, "f", Pos{1, 16}}, {tokOp, "||", Pos{1, 17}},
			{tokWord, "g", Pos{1, 19}}, {tokEOF, "", Pos{1, 20}}}},
		{"a//b/ /c//*d*/e", []tok{
			{tokWord, "a", Pos{1, 1}}, {tokOp, "//", Pos{1, 2}}, {tokWord, "b", Pos{1, 4}}, {tokOp, "/", Pos{1, 5}},
			{tokOp, "/", Pos{1, 7}}, {tokWord, "c", Pos{1, 8}}, {tokOp, "/", Pos{1, 9}}, {tokWord, "e", Pos{1, 15}},
			{tokEOF, "", Pos{1, 16}}}},
		{"a -- comment ; 'x\n/* multi\nline */ b", []tok{{tokWord, "a", Pos{1, 1}}, {tokWord, "b", Pos{3, 9}}, {tokEOF, "", Pos{3, 10}}}},
		{"'multi\nline' é", []tok{{tokString, "multi\nline", Pos{1, 1}}, {tokWord, "é", Pos{2, 7}}, {tokEOF, "", Pos{2, 8}}}},
		{"t.a t.*", []tok{
			{tokWord, "t", Pos{1, 1}}, {tokOp, ".", Pos{1, 2}}, {tokWord, "a", Pos{1, 3}},
			{tokWord, "t", Pos{1, 5}}, {tokOp, ".", Pos{1, 6}}, {tokOp, "*", Pos{1, 7}}, {tokEOF, "", Pos{1, 8}}}},
	}
	for _, tt := range tests {
		toks, err := tokenize(tt.src)
		if err != nil {
			t.Errorf("tokenize(%q): %v", tt.src, err)
			continue
		}
		var got []tok
		for _, x := range toks {
			got = append(got, tok{x.kind, x.text, x.pos})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokenize(%q)\n got %v\nwant %v", tt.src, got, tt.want)
		}
	}
}

func TestTokenizeErrors(t *testing.T) {
	tests := []struct {
		src  string
		want Error
	}{
		{"SELECT 'abc", Error{Pos{1, 8}, "unterminated string literal"}},
		{"SELECT 'it''s", Error{Pos{1, 8}, "unterminated string literal"}},
		{"SELECT\n  \"abc", Error{Pos{2, 3}, "unterminated quoted identifier"}},
		{"SELECT `abc", Error{Pos{1, 8}, "unterminated quoted identifier"}},
		{`SELECT ""`, Error{Pos{1, 8}, "empty quoted identifier"}},
		{"SELECT 1 /* never closed", Error{Pos{1, 10}, "unterminated comment"}},
		{"SELECT a @ b", Error{Pos{1, 10}, `unexpected character '@'`}},
		{"SELECT 12abc", Error{Pos{1, 8}, `invalid number "12a"`}},
		{"SELECT 1e", Error{Pos{1, 8}, `invalid number "1e"`}},
	}
	for _, tt := range tests {
		_, err := tokenize(tt.src)
		if err == nil || *err != tt.want {
			t.Errorf("tokenize(%q) error = %v, want %v", tt.src, err, &tt.want)
		}
	}
}
