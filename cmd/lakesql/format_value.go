package main

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The CLI's text contract for values is package value: csv, table and
// markdown print value.Format's strings, and json reuses them for everything
// that is not a JSON number, boolean, array or object. The golden tests
// check the same strings, so scripts can rely on what the tests pin.

// isNumericType reports whether values of dt are numbers, which the table
// and markdown formats right-align.
func isNumericType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	case arrow.DICTIONARY:
		return isNumericType(dt.(*arrow.DictionaryType).ValueType)
	}
	return false
}

// quoteNested quotes a string as a SQL literal (INSERT mode).
func quoteNested(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
