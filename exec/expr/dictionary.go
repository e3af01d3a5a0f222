package expr

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The table scan hands a GROUP BY's string keys over as Arrow Dictionary
// arrays (codes into the Parquet chunk's dictionary) when the plan lets it
// (exec's dictionary_keys.go). Operators between the scan and the
// aggregation only pass rows on; everything else sees plain arrays, and
// Decoded is the one place a dictionary becomes its values.

// Decoded is arr with a Dictionary array replaced by its values (NULLs
// kept); any other array is returned as is, retained.
func Decoded(ctx context.Context, mem memory.Allocator, arr arrow.Array) (arrow.Array, error) {
	d, ok := arr.(*array.Dictionary)
	if !ok {
		arr.Retain()
		return arr, nil
	}
	rows := make([]int32, d.Len())
	for i := range rows {
		rows[i] = -1
		if d.IsValid(i) {
			rows[i] = int32(d.GetValueIndex(i))
		}
	}
	return Take(ctx, mem, d.Dictionary(), rows)
}

// takeDictionary gathers a dictionary array's int32 codes; the result
// shares its dictionary.
func takeDictionary(mem memory.Allocator, d *array.Dictionary, rows []int32) arrow.Array {
	codes := gatherFixedWidth(mem, d.Indices(), rows, arrow.Int32SizeBytes)
	defer codes.Release()
	cd := codes.Data()
	data := array.NewDataWithDictionary(d.DataType(), len(rows), cd.Buffers(), cd.NullN(), 0, d.Data().Dictionary().(*array.Data))
	defer data.Release()
	return array.MakeFromData(data)
}
