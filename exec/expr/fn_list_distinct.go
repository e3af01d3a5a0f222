package expr

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

func init() {
	scalarFns[planner.FnListDistinct] = scalarFn{1, 1, false, listDistinctKernel}
}

// listDistinctKernel keeps the first of equal elements of each array and
// drops NULLs (DuckDB's list_distinct, whose order is unspecified; this
// one keeps the order of first appearance).
func listDistinctKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	seen := map[string]bool{}
	return ev.pickElements(c, ops[0], func(keys [][]byte, row []int32) []int32 {
		clear(seen)
		return slices.DeleteFunc(row, func(j int32) bool {
			k := keys[j]
			drop := k[0] == 0 || seen[string(k)] // NULL keys are {0x00}
			seen[string(k)] = true
			return drop
		})
	})
}
