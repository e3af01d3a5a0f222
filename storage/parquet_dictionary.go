package storage

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// dictSampleRows bounds the rows dictionaryPays looks at.
const dictSampleRows = 20_000

// dictPageHeader is about what a dictionary page's header costs, so that a
// handful of rows is not given a dictionary.
const dictPageHeader = 32

// dictionaryPays decides from the first rows of a column whether to write it
// dictionary encoded. It applies parquet-mr's test (dictionary plus indexes
// smaller than the plain values) to a sample: a column of mostly distinct
// values (ids, timestamps, prices) stays PLAIN and decodes without a
// gather, a column of repeated values (categories, countries, user ids in
// a bucket) gets a dictionary. A column whose dictionary later outgrows
// dictBytes falls back to PLAIN in the writer.
func dictionaryPays(arr arrow.Array, dictBytes int64) bool {
	value, prefix := valueBytes(arr)
	if value == nil {
		return false
	}
	n := min(arr.Len(), dictSampleRows)
	distinct := make(map[string]struct{})
	var plain, dict int64
	for i := range n {
		if arr.IsNull(i) {
			continue
		}
		v := value(i)
		plain += int64(len(v) + prefix)
		if _, seen := distinct[string(v)]; !seen {
			distinct[string(v)] = struct{}{}
			dict += int64(len(v) + prefix)
		}
	}
	if len(distinct) == 0 || dict > dictBytes {
		return false
	}
	indexBits := int64(bits.Len(uint(len(distinct) - 1)))
	return dict+int64(n)*indexBits/8+dictPageHeader < plain
}

// valueBytes returns the bytes of element i of arr and the length prefix
// PLAIN adds to each (4 for byte arrays), or nil for types not given a
// dictionary: booleans (not worth it) and floating point (parquet-go
// v0.32's statistics of dictionary-encoded floats holding NaN miss values,
// which would make pruning drop rows).
func valueBytes(arr arrow.Array) (value func(i int) []byte, prefix int) {
	switch a := arr.(type) {
	case *array.Boolean, *array.Float32, *array.Float64:
		return nil, 0
	case *array.String:
		return func(i int) []byte { return stringBytes(a, i) }, 4
	case *array.Binary:
		return a.Value, 4
	case array.ExtensionArray:
		return valueBytes(a.Storage())
	}
	fw, ok := arr.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || len(arr.Data().Buffers()) < 2 {
		return nil, 0
	}
	width := fw.Bytes()
	data := arr.Data().Buffers()[1].Bytes()
	off := arr.Data().Offset()
	return func(i int) []byte { return data[(off+i)*width : (off+i+1)*width] }, 0
}
