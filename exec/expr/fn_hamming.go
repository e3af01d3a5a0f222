package expr

import "fmt"

// hammingKernel is hamming(a, b): the number of places where the strings'
// characters differ; strings of different lengths are an error, as in
// DuckDB.
var hammingKernel = runePairKernel(func() func(a, b []rune) (int64, error) {
	return func(a, b []rune) (int64, error) {
		if len(a) != len(b) {
			return 0, fmt.Errorf("the strings must have the same length, got %d and %d characters", len(a), len(b))
		}
		var n int64
		for i := range a {
			if a[i] != b[i] {
				n++
			}
		}
		return n, nil
	}
})
