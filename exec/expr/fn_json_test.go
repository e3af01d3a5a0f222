package expr

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/lakesql/lakesql/planner"
)

func TestJSONLookup(t *testing.T) {
	cases := []struct{ doc, path, want string }{
		{`{"a":{"b":[1,{"c":"d"}]}}`, "$.a.b[1].c", `"d"`},
		{`{"a\u002eb":1,"a.b":2}`, `$."a.b"`, "1"},  // keys compare unescaped; the first wins
		{`{"a":1,"a":2}`, "$.a", "1"},               // duplicates: the first, as DuckDB
		{`{"*":1,"#":2,"@x":3,"a|b":4}`, "@x", "3"}, // gjson's path characters are plain keys
		{`[1,2,3]`, "$[#-3]", "1"},                  // from the end
		{`[1,2,3]`, "$[-4]", ""},                    // before the start
		{`[1,2,3]`, "/01", ""},                      // a pointer index has no leading zero
		{`{"01":5}`, "/01", "5"},                    // but an object's key may look like one
		{` {"a" : [ 1 , "x\n" ] } `, "$.a", `[1,"x\n"]`},
	}
	for _, c := range cases {
		steps, err := planner.ParseJSONPath(c.path, planner.JSONPathDuckDB)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if v, ok := jsonLookup(gjson.Parse(c.doc), steps); ok {
			got = string(appendJSON(nil, v))
		}
		if got != c.want {
			t.Errorf("%s at %s = %q, want %q", c.doc, c.path, got, c.want)
		}
	}
}

// The expected texts are DuckDB's to_json of the same doubles.
func TestAppendJSONFloat(t *testing.T) {
	cases := map[float64]string{
		1.5: "1.5", 1e20: "100000000000000000000.0", 1e21: "1e21", -1e21: "-1e21", 1e-7: "1e-7",
		-0.000001: "-0.000001", 123e30: "1.23e32", 5e-324: "5e-324", 123456789: "123456789.0",
	}
	for f, want := range cases {
		if got := string(appendJSONFloat(nil, f)); got != want {
			t.Errorf("appendJSONFloat(%v) = %s, want %s", f, got, want)
		}
	}
}
