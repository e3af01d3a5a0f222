package sql

import (
	"strings"
	"testing"
)

func TestParseNestedTypes(t *testing.T) {
	for text, want := range map[string]string{
		"CAST(x AS ARRAY<INT>)":                                 "ARRAY<INT>",
		"CAST(x AS list<array<bigint not null>>)":               "ARRAY<ARRAY<BIGINT NOT NULL>>",
		"CAST(x AS MAP<STRING, ARRAY<DOUBLE>>)":                 "MAP<STRING, ARRAY<DOUBLE>>",
		"CAST(x AS STRUCT<a: INT NOT NULL, \"B c\" STRING>)":    `STRUCT<a: INT NOT NULL, "B c": STRING>`,
		"CAST(x AS ROW(a INTEGER, m MAP(VARCHAR, ARRAY(INT))))": "STRUCT<a: INT, m: MAP<STRING, ARRAY<INT>>>",
		"CAST(x AS VARCHAR(10)[][])":                            "ARRAY<ARRAY<VARCHAR(10)>>",
		"CAST(x AS MAP(INT[], DECIMAL(9,2)[]))":                 "MAP<ARRAY<INT>, ARRAY<DECIMAL(9, 2)>>",
	} {
		sel := mustParseOne(t, "SELECT "+text).(*QueryStmt).Query.Body.(*Select)
		cast := sel.Items[0].Expr.(*CastExpr)
		if got := FormatType(cast.To); got != want {
			t.Errorf("%s: type %s, want %s", text, got, want)
		}
		// The printed type parses back to itself.
		again := mustParseOne(t, "SELECT CAST(x AS "+want+")").(*QueryStmt).Query.Body.(*Select)
		if got := FormatType(again.Items[0].Expr.(*CastExpr).To); got != want {
			t.Errorf("%s reparsed as %s", want, got)
		}
	}
}

func TestParseNestedAccess(t *testing.T) {
	sel := mustParseOne(t, "SELECT a[0][i + 1].f, (s).g, ARRAY[1, 2], [1, [x], []][0] FROM t").(*QueryStmt).Query.Body.(*Select)
	want := []string{"(a[0][(i + 1)]).f", "(s).g", "array(1, 2)", "array(1, array(x), array())[0]"}
	for i := range want {
		if got := Format(sel.Items[i].Expr); got != want[i] {
			t.Errorf("item %d: %s, want %s", i, got, want[i])
		}
	}
	// LATERAL VIEW is a cross join (LEFT JOIN … ON TRUE with OUTER) with
	// the generator; the column names run on while commas follow.
	q := mustParseOne(t, "SELECT * FROM t LATERAL VIEW OUTER posexplode(t.a) e AS p, x LATERAL VIEW explode(m) f k, v").(*QueryStmt).Query.Body.(*Select)
	outer := q.From.(*Join)
	inner := outer.L.(*Join)
	if f := outer.R.(*TableFunc); outer.Type != JoinCross || f.Name != "explode" || f.Alias != "f" || len(f.ColAliases) != 2 {
		t.Errorf("second view: %+v %+v", outer, f)
	}
	if f := inner.R.(*TableFunc); inner.Type != JoinLeft || f.Name != "posexplode" || f.Alias != "e" || len(f.ColAliases) != 2 {
		t.Errorf("first view: %+v %+v", inner, f)
	}
	u := mustParseOne(t, "SELECT * FROM UNNEST(x) WITH ORDINALITY AS u(v, n)").(*QueryStmt).Query.Body.(*Select).From.(*TableFunc)
	if !u.Ordinality || u.Alias != "u" || len(u.ColAliases) != 2 {
		t.Errorf("UNNEST WITH ORDINALITY: %+v", u)
	}
}

// TestParseSlice: DuckDB's x[begin:end:step], any part left out, prints
// back as text that parses to the same slice.
func TestParseSlice(t *testing.T) {
	for text, want := range map[string]string{
		"a[2:3]":        "a[2:3]",
		"a[:2]":         "a[:2]",
		"a[2:]":         "a[2:]",
		"a[:]":          "a[:]",
		"a[:-1]":        "a[:(-1)]",
		"a[1:5:2]":      "a[1:5:2]",
		"a[: :-1]":      "a[: :(-1)]",
		"a[:-:2]":       "a[: :2]",
		"a[2:-:-1]":     "a[2: :(-1)]",
		"a[:-1:2]":      "a[:(-1):2]",
		"a[:- 1:2]":     "a[:(-1):2]",
		"a[2: :2]":      "a[2: :2]",
		"a[:3:]":        "a[:3]",
		"a[i+1:][0]":    "a[(i + 1):][0]",
		"'abc'[-2:]":    "'abc'[(-2):]",
		"[1, 2][x:y:z]": "array(1, 2)[x:y:z]",
	} {
		sel := mustParseOne(t, "SELECT "+text).(*QueryStmt).Query.Body.(*Select)
		if got := Format(sel.Items[0].Expr); got != want {
			t.Errorf("%s: %s, want %s", text, got, want)
		}
		again := mustParseOne(t, "SELECT "+want).(*QueryStmt).Query.Body.(*Select)
		if got := Format(again.Items[0].Expr); got != want {
			t.Errorf("%s reparsed as %s", want, got)
		}
	}
	for text, want := range map[string]string{
		"SELECT a[1 2]":   `unexpected "2", expected ":" or "]"`,
		"SELECT a[1:2 3]": `unexpected "3", expected ":" or "]"`,
		"SELECT a[::2]":   `unexpected "::"`,
		"SELECT a[:-]":    `unexpected "]"`,
	} {
		if _, err := Parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %s", text, err, want)
		}
	}
}

// TestParseSelectItemAliases: AS (a, b) names a generator's columns in the
// select list, and prints back the same.
func TestParseSelectItemAliases(t *testing.T) {
	sel := mustParseOne(t, `SELECT id, posexplode(a) AS (p, "x y") FROM t`).(*QueryStmt).Query.Body.(*Select)
	if got := sel.Items[1].Aliases; len(got) != 2 || got[0] != "p" || got[1] != "x y" || sel.Items[1].Alias != "" {
		t.Fatalf("aliases %q, alias %q", got, sel.Items[1].Alias)
	}
	text := FormatQuery(&Query{Body: sel})
	again := mustParseOne(t, text).(*QueryStmt).Query.Body.(*Select)
	if FormatQuery(&Query{Body: again}) != text || len(again.Items[1].Aliases) != 2 {
		t.Fatalf("%s reparsed differently", text)
	}
}
