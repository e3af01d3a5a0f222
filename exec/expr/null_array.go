package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NullArray returns an array of n NULLs of type t. Arrow's
// MakeArrayOfNull cannot make a nested type with a part of type NULL, such
// as the struct {'a': NULL} or a list of those ([{'a': NULL}, NULL]
// needs a NULL of that struct); a builder can.
func NullArray(mem memory.Allocator, t arrow.DataType, n int) arrow.Array {
	if !hasNullPart(t) {
		return array.MakeArrayOfNull(mem, t, n)
	}
	b := array.NewBuilder(mem, t)
	defer b.Release()
	b.AppendNulls(n)
	return b.NewArray()
}

// hasNullPart reports whether a nested type t has an element, key, value or
// field of type NULL, at any depth.
func hasNullPart(t arrow.DataType) bool {
	nested, ok := t.(arrow.NestedType)
	if !ok {
		return false
	}
	for _, f := range nested.Fields() {
		if f.Type.ID() == arrow.NULL || hasNullPart(f.Type) {
			return true
		}
	}
	return false
}
