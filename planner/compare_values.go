package planner

import (
	"cmp"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// CompareValues orders two literal values (Literal.Value) of the same Go
// type; ok is false for other pairs and for floats with a NaN, which the
// executor orders above all numbers.
func CompareValues(l, r any) (int, bool) {
	switch a := l.(type) {
	case bool:
		b, ok := r.(bool)
		return cmp.Compare(boolRank(a), boolRank(b)), ok
	case int32:
		b, ok := r.(int32)
		return cmp.Compare(a, b), ok
	case int64:
		b, ok := r.(int64)
		return cmp.Compare(a, b), ok
	case float32:
		b, ok := r.(float32)
		return cmp.Compare(a, b), ok && !math.IsNaN(float64(a)) && !math.IsNaN(float64(b))
	case float64:
		b, ok := r.(float64)
		return cmp.Compare(a, b), ok && !math.IsNaN(a) && !math.IsNaN(b)
	case string:
		b, ok := r.(string)
		return cmp.Compare(a, b), ok
	case decimal128.Num:
		b, ok := r.(decimal128.Num)
		return a.Cmp(b), ok
	}
	return 0, false
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}
