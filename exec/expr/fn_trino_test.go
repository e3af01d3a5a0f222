package expr

import (
	"testing"

	"github.com/lakesql/lakesql/planner"
)

func TestTrinoStringFunctions(t *testing.T) {
	s := fref("s")
	runEvalCases(t, fnCols, []evalCase{
		{"strpos nth", call(planner.FnStrposNth, tBig, str("aaaa"), str("aa"), call(planner.FnNullIf, tBig, fref("n"), i64(0))), "2|3|3|NULL|NULL"},
		{"strpos nth 0", call(planner.FnStrposNth, tBig, str("aaaa"), str("aa"), fref("n")), "error: strpos: the instance must not be 0"},
		{"strpos nth column", call(planner.FnStrposNth, tBig, s, str(","), i64(-2)), "0|0|NULL|4|0"},
		{"from_utf8", call(planner.FnFromUTF8, tStr, s), "héllo||NULL|a,b,,c|ÀB"},
		{"url host", call(planner.FnURLExtract, tStr, s, str("host")), "||NULL||"}, // relative references: no host, an empty string
		{"url path", call(planner.FnURLExtract, tStr, s, str("path")), "héllo||NULL|a,b,,c|ÀB"},
		{"url parameter", call(planner.FnURLExtract, tStr, str("http://h/?a=1&b"), str("parameter"), s), "NULL|NULL|NULL|NULL|NULL"},
	})
}

func TestInvalidSequenceLength(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"\x80A", 1}, {"\xff", 1}, {"\xe6\x97", 2}, {"\xe6\x97A", 2}, {"\xc0\x80", 2},
		{"\xed\xa0\x80", 3}, {"\xf8\x88\x80\x80\x80\x80", 5}, {"\xe6A", 1},
	} {
		if got := invalidSequenceLength([]byte(c.in)); got != c.want {
			t.Errorf("invalidSequenceLength(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestParseURI(t *testing.T) {
	show := func(b []byte) string {
		if b == nil {
			return "NULL"
		}
		return string(b)
	}
	for _, c := range []struct{ in, want string }{
		{"http://u:p@h.com:81/p%20q?a=1#f", "http h.com 81 /p%20q a=1 f"},
		{"http://[::1]/", "http [::1] NULL / NULL NULL"},
		{"http://h:x/", "http NULL NULL / NULL NULL"},
		{"http://a_b.c:1/", "http NULL NULL / NULL NULL"},
		{"http://10.0.0.1:1", "http 10.0.0.1 1  NULL NULL"},
		{"http://10.0.0:1", "http NULL NULL  NULL NULL"},
		{"news:a.b", "news NULL NULL NULL NULL NULL"},
		{"news:", "invalid"},
		{"a b", "invalid"},
		{"%4", "invalid"},
		{"x#a#b", "invalid"},
		{"-a:b", "invalid"},
		{"?q#", "NULL NULL NULL  q "},
	} {
		u, ok := parseURI([]byte(c.in))
		got := "invalid"
		if ok {
			got = show(u.scheme) + " " + show(u.host) + " " + show(u.port) + " " + show(u.path) + " " + show(u.query) + " " + show(u.fragment)
		}
		if got != c.want {
			t.Errorf("parseURI(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
