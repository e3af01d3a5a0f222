package engine

import (
	"fmt"
	"strings"
)

// explainListValues is how many values of an IN list EXPLAIN prints: a
// subquery or a join can supply hundreds, and a plan line should stay a
// line.
const explainListValues = 10

// clipInLists shortens every IN (…) list of s past explainListValues
// values to its first ones and a count of the rest. Quoted strings are
// skipped whole, so a comma or parenthesis inside one counts for nothing.
func clipInLists(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "IN (")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		start := i + len("IN (")
		b.WriteString(s[:start])
		s = s[start:]
		end, commas := listEnd(s)
		if values := len(commas) + 1; end >= 0 && values > explainListValues {
			fmt.Fprintf(&b, "%s, … %d more", s[:commas[explainListValues-1]], values-explainListValues)
			s = s[end:]
		}
	}
}

// listEnd finds the ")" closing a list that s starts inside of, and the
// positions of the commas between its top-level values; end is -1 when the
// list is not closed.
func listEnd(s string) (end int, commas []int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			// '' inside a quoted string is a quote; both halves are skipped.
			for i++; i < len(s) && s[i] != '\''; i++ {
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i, commas
			}
			depth--
		case ',':
			if depth == 0 {
				commas = append(commas, i)
			}
		}
	}
	return -1, nil
}
