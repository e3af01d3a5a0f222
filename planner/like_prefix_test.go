package planner

import "testing"

func TestLikePrefixOf(t *testing.T) {
	cases := []struct {
		pattern, escape, prefix string
		shape                   likeShape
		ok                      bool
	}{
		{"ap%", `\`, "ap", likePrefix, true},
		{"ap%%", `\`, "ap", likePrefix, true},
		{"apple", `\`, "apple", likeEqual, true},
		{"a_p%", `\`, "a", likeOther, true},
		{`a\%%`, `\`, "a%", likePrefix, true},
		{`a\_b`, `\`, "a_b", likeEqual, true},
		{"a!%b%", "!", "a%b", likePrefix, true},
		{`a\%`, "", `a\`, likePrefix, true},
		{"%ap", `\`, "", likeOther, true},
		{`ap\`, `\`, "", likeOther, false},
		{"ap%", "ab", "", likeOther, false},
	}
	for _, c := range cases {
		prefix, shape, ok := likePrefixOf(c.pattern, c.escape)
		if ok != c.ok || ok && (prefix != c.prefix || shape != c.shape) {
			t.Errorf("likePrefixOf(%q, %q) = %q, %v, %v; want %q, %v, %v", c.pattern, c.escape, prefix, shape, ok, c.prefix, c.shape, c.ok)
		}
	}
}
