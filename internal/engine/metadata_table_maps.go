package engine

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// keptMap says whether a metadata table's column is one of its maps from
// string to string that stay maps.
func keptMap(meta *metadataTable, f arrow.Field) bool {
	mt, ok := f.Type.(*arrow.MapType)
	return ok && slices.Contains(meta.maps, f.Name) &&
		mt.KeyType().ID() == arrow.STRING && mt.ItemType().ID() == arrow.STRING
}

// sortedStringMap copies a map<string, string> array with each row's entries
// sorted by key: iceberg-go fills summaries from Go maps, in random order,
// and a map printed in a different order on each run is no answer to check.
func sortedStringMap(m *array.Map) arrow.Array {
	b := array.NewMapBuilderWithType(memory.DefaultAllocator, m.DataType().(*arrow.MapType))
	defer b.Release()
	keys, items := m.Keys().(*array.String), m.Items().(*array.String)
	kb, ib := b.KeyBuilder().(*array.StringBuilder), b.ItemBuilder().(*array.StringBuilder)
	for i := range m.Len() {
		if m.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(true)
		start, end := m.ValueOffsets(i)
		order := make([]int, 0, end-start)
		for j := int(start); j < int(end); j++ {
			order = append(order, j)
		}
		slices.SortFunc(order, func(x, y int) int { return strings.Compare(keys.Value(x), keys.Value(y)) })
		for _, j := range order {
			kb.Append(keys.Value(j))
			if items.IsNull(j) {
				ib.AppendNull()
			} else {
				ib.Append(items.Value(j))
			}
		}
	}
	return b.NewArray()
}
