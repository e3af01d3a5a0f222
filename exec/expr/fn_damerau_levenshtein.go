package expr

import (
	"fmt"
	"slices"
)

// maxDamerauCells bounds the table damerau_levenshtein fills for one row,
// a cell per pair of characters: long texts should be an error, not the
// process running out of memory.
const maxDamerauCells = 1 << 25

// damerauLevenshteinKernel is damerau_levenshtein(a, b): levenshtein that
// also counts swapping two adjacent characters as one edit, with no limit
// on editing between them (the unrestricted distance, as DuckDB's: 'ca'
// to 'abc' is 2, where the optimal string alignment distance is 3).
var damerauLevenshteinKernel = runePairKernel(func() func(a, b []rune) (int64, error) {
	var d []int64
	lastRow := map[rune]int{}
	return func(a, b []rune) (int64, error) {
		if cells := (len(a) + 2) * (len(b) + 2); cells > maxDamerauCells {
			return 0, fmt.Errorf("strings of %d and %d characters are too long to compare (at most %d pairs of characters)", len(a), len(b), maxDamerauCells)
		}
		clear(lastRow)
		d = damerauLevenshtein(a, b, d, lastRow)
		return d[len(d)-1], nil
	}
})

// damerauLevenshtein fills d, reused from the last call, with the
// Lowrance–Wagner table: row i+1, column j+1 is the distance between a[:i]
// and b[:j]; row and column 0 hold a bound no distance reaches. lastRow
// is empty on entry and maps each character to the last row of a it was
// seen in.
func damerauLevenshtein(a, b []rune, d []int64, lastRow map[rune]int) []int64 {
	w := len(b) + 2
	d = slices.Grow(d[:0], (len(a)+2)*w)[:(len(a)+2)*w] // every cell is written below
	inf := int64(len(a) + len(b))
	at := func(i, j int) *int64 { return &d[i*w+j] }
	*at(0, 0) = inf
	for i := range len(a) + 1 {
		*at(i+1, 0), *at(i+1, 1) = inf, int64(i)
	}
	for j := range len(b) + 1 {
		*at(0, j+1), *at(1, j+1) = inf, int64(j)
	}
	for i := 1; i <= len(a); i++ {
		lastCol := 0 // the last column of this row whose character matched
		for j := 1; j <= len(b); j++ {
			k, l := lastRow[b[j-1]], lastCol
			cost := int64(1)
			if a[i-1] == b[j-1] {
				cost, lastCol = 0, j
			}
			*at(i+1, j+1) = min(*at(i, j)+cost, *at(i+1, j)+1, *at(i, j+1)+1,
				*at(k, l)+int64(i-k-1)+1+int64(j-l-1))
		}
		lastRow[a[i-1]] = i
	}
	return d
}
