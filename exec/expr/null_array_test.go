package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestNullArray: NULLs of nested types with a part of type NULL, which
// Arrow's MakeArrayOfNull cannot make, and of plain types.
func TestNullArray(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	structOfNull := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.Null, Nullable: true})
	for _, typ := range []arrow.DataType{
		arrow.PrimitiveTypes.Int64,
		arrow.Null,
		structOfNull,
		arrow.ListOf(structOfNull),
		arrow.ListOf(arrow.Null),
		arrow.MapOf(arrow.BinaryTypes.String, arrow.Null),
		arrow.StructOf(arrow.Field{Name: "s", Type: structOfNull, Nullable: true}),
	} {
		a := NullArray(mem, typ, 3)
		if a.Len() != 3 || a.NullN() != 3 || !arrow.TypeEqual(a.DataType(), typ) {
			t.Errorf("%s: %d values, %d NULL, type %s", typ, a.Len(), a.NullN(), a.DataType())
		}
		a.Release()
	}
}
