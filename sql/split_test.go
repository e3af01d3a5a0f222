package sql

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in    string
		stmts []string
		rest  string
	}{
		{"", nil, ""},
		{"SELECT 1", nil, "SELECT 1"},
		{"SELECT 1;", []string{"SELECT 1"}, ""},
		{" SELECT 1 ; SELECT 2;\n", []string{"SELECT 1", "SELECT 2"}, ""},
		{"SELECT 1;\nSELECT 2\n", []string{"SELECT 1"}, "\nSELECT 2\n"},
		{";;  ; SELECT 1;", []string{"SELECT 1"}, ""},
		{"SELECT 'a;b', \"c;d\", `e;f`;", []string{"SELECT 'a;b', \"c;d\", `e;f`"}, ""},
		{"SELECT 'it''s; fine';", []string{"SELECT 'it''s; fine'"}, ""},
		{`SELECT "x"";";`, []string{`SELECT "x"";"`}, ""},
		{"SELECT 1 -- a; b\n;", []string{"SELECT 1 -- a; b"}, ""},
		{"SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1"}, ""},
		{"-- only a comment;\n; /* and; another */ ;", nil, ""},
		{"SELECT 1; -- trailing comment\n", []string{"SELECT 1"}, ""},
		{"SELECT 1; -- trailing comment", []string{"SELECT 1"}, ""},
		{"SELECT 'open;", nil, "SELECT 'open;"},
		{"SELECT 1; SELECT 'it''s;", []string{"SELECT 1"}, " SELECT 'it''s;"},
		{"SELECT 1; /* open ;", []string{"SELECT 1"}, " /* open ;"},
		{"SELECT 1; SELECT -- more\n", []string{"SELECT 1"}, " SELECT -- more\n"},
	}
	for _, tt := range tests {
		stmts, rest := Split(tt.in)
		if !reflect.DeepEqual(stmts, tt.stmts) || rest != tt.rest {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", tt.in, stmts, rest, tt.stmts, tt.rest)
		}
	}
}

// TestSplitAgreesWithParse checks that Split's statements parse one by one to
// as many statements as the whole text does.
func TestSplitAgreesWithParse(t *testing.T) {
	text := "SELECT ';' AS \"a;b\"; -- x;\nSHOW TABLES; /* ; */ USE ns;"
	stmts, rest := Split(text)
	if rest != "" || len(stmts) != 3 {
		t.Fatalf("Split = %q, %q", stmts, rest)
	}
	all, err := Parse(text)
	if err != nil || len(all) != 3 {
		t.Fatalf("Parse = %v, %v", all, err)
	}
	for _, s := range stmts {
		if _, err := ParseOne(s); err != nil {
			t.Errorf("ParseOne(%q): %v", s, err)
		}
	}
}
