package engine

import (
	"strings"
	"testing"
)

func TestClipInLists(t *testing.T) {
	nums := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = string(rune('a'+i%26)) + "1"
		}
		return strings.Join(parts, ", ")
	}
	cases := map[string]string{
		"id IN (1, 2, 3)":                              "id IN (1, 2, 3)",
		"id IN (" + nums(10) + ")":                     "id IN (" + nums(10) + ")",
		"id IN (" + nums(11) + ")":                     "id IN (" + nums(10) + ", … 1 more)",
		"(id IN (" + nums(30) + ")) AND (k IN (1, 2))": "(id IN (" + nums(10) + ", … 20 more)) AND (k IN (1, 2))",
		"s IN ('a,b', 'c)', 'd''e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm')": "s IN ('a,b', 'c)', 'd''e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', … 1 more)",
		"f IN (g(1, 2), 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)":                    "f IN (g(1, 2), 3, 4, 5, 6, 7, 8, 9, 10, 11, … 1 more)",
		"x IN (1, 2":   "x IN (1, 2",
		"no list here": "no list here",
		"s = 'IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)'":                             "s = 'IN (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)'",
		"s = 'it''s IN (a, b, c, d, e, f, g, h, i, j, k)' AND x IN (" + nums(12) + ")": "s = 'it''s IN (a, b, c, d, e, f, g, h, i, j, k)' AND x IN (" + nums(10) + ", … 2 more)",
		"s = 'unclosed IN (1, 2": "s = 'unclosed IN (1, 2",
		"JOIN (a, b)":            "JOIN (a, b)",
		"IN (IN (1))":            "IN (IN (1))",
	}
	for in, want := range cases {
		if got := clipInLists(in); got != want {
			t.Errorf("clipInLists(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
