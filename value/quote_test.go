package value

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", `'abc'`},
		{"it's \"x\"", `'it''s "x"'`},
		{"a\x00b\n", `'a\x00b\n'`},
		{strings.Repeat("x", 80), `'` + strings.Repeat("x", 80) + `'`},
		{strings.Repeat("é", 81), `'` + strings.Repeat("é", 80) + `'… (81 characters)`},
		{strings.Repeat("y", 1<<20), `'` + strings.Repeat("y", 80) + `'… (1048576 characters)`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.20q…) = %.100s, want %.100s", c.in, got, c.want)
		}
	}
}
