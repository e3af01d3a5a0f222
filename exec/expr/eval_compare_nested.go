package expr

import (
	"bytes"
	"fmt"

	"github.com/lakesql/lakesql/planner"
)

// keyView views the keys of a nested operand.
type keyView [][]byte

func (k keyView) At(i int) []byte { return k[i] }

// compareNested compares structs, arrays or maps through their keys
// (nested_keys.go), which order them as Spark does.
func (ev *evaluator) compareNested(less bool, a, b operand, bits []byte) error {
	if !IsNestedType(a.t) {
		return fmt.Errorf("cannot compare values of type %s", planner.TypeString(a.t))
	}
	if err := NestedComparable(a.t); err != nil {
		return err
	}
	var keys [2]keyView
	for i, o := range []operand{a, b} {
		arr, err := ev.materialize(o)
		if err != nil {
			return err
		}
		keys[i] = NestedKeys(nil, arr)
		arr.Release()
	}
	compareWith(less, keys[0], keys[1], bytes.Compare, bits, ev.n)
	return nil
}
