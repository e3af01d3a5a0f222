package expr

import "testing"

// TestStringDistances checks the distance functions on pairs whose answers
// DuckDB gave (ASCII) or that follow from counting characters (the rest).
func TestStringDistances(t *testing.T) {
	tests := []struct {
		a, b              string
		lev, damerau      int64
		jaro, jaroWinkler float64
	}{
		{"kitten", "sitting", 3, 3, 0.746031746031746, 0.746031746031746},
		{"ca", "abc", 3, 2, 0, 0},
		{"abc", "bca", 2, 2, 0, 0},
		{"martha", "marhta", 2, 1, 0.9444444444444445, 0.9611111111111111},
		{"DwAyNE", "DuANE", 2, 2, 0.8222222222222223, 0.8400000000000001},
		{"a", "a", 0, 0, 1, 1},
		{"", "", 0, 0, 0, 0},
		{"é", "e", 1, 1, 0, 0},
		{"日本語", "日本", 1, 1, 0.8888888888888888, 0.9111111111111111},
	}
	var row, d []int64
	var matched []bool
	for _, tt := range tests {
		a, b := []rune(tt.a), []rune(tt.b)
		row = levenshtein(a, b, row)
		d = damerauLevenshtein(a, b, d, map[rune]int{})
		var sim, winkler float64
		sim, matched = jaro(a, b, matched)
		winkler, matched = jaroWinkler(a, b, matched)
		if row[len(row)-1] != tt.lev || d[len(d)-1] != tt.damerau || sim != tt.jaro || winkler != tt.jaroWinkler {
			t.Errorf("%q, %q: levenshtein %d, damerau %d, jaro %v, jaro-winkler %v; want %d, %d, %v, %v",
				tt.a, tt.b, row[len(row)-1], d[len(d)-1], sim, winkler, tt.lev, tt.damerau, tt.jaro, tt.jaroWinkler)
		}
	}
}
