package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

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
