package value

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// JSONStyle says how JSON is written of what is not nested: Scalar gives
// the writer of a column of any other type, String writes a string (a key
// too). COPY … (FORMAT json) and to_json write their scalars differently
// and their nesting alike.
type JSONStyle struct {
	Scalar func(arr arrow.Array) Formatter
	String func(dst []byte, s string) []byte
}

// FormatterOf writes arr's values as JSON: NULL as null, structs and maps
// as objects (a map's keys in their text form, as JSON keys are strings),
// lists as arrays, anything else as s.Scalar writes it. It is built once
// per batch, recursing into nested values' children.
func (s JSONStyle) FormatterOf(arr arrow.Array) Formatter {
	var write Formatter
	switch a := arr.(type) {
	case *array.Struct:
		t := a.DataType().(*arrow.StructType)
		fields := make([]Formatter, a.NumField())
		for f := range fields {
			fields[f] = s.FormatterOf(a.Field(f))
		}
		write = func(dst []byte, i int) []byte {
			dst = append(dst, '{')
			for f, field := range fields {
				if f > 0 {
					dst = append(dst, ',')
				}
				dst = append(s.String(dst, t.Field(f).Name), ':')
				dst = field(dst, i)
			}
			return append(dst, '}')
		}
	case *array.Map:
		keys, items := FormatterOf(a.Keys()), s.FormatterOf(a.Items())
		var key []byte
		write = func(dst []byte, i int) []byte {
			from, to := a.ValueOffsets(i)
			dst = append(dst, '{')
			for j := from; j < to; j++ {
				if j > from {
					dst = append(dst, ',')
				}
				key = keys(key[:0], int(j))
				dst = append(s.String(dst, string(key)), ':')
				dst = items(dst, int(j))
			}
			return append(dst, '}')
		}
	case array.ListLike:
		elems := s.FormatterOf(a.ListValues())
		write = func(dst []byte, i int) []byte {
			from, to := a.ValueOffsets(i)
			dst = append(dst, '[')
			for j := from; j < to; j++ {
				if j > from {
					dst = append(dst, ',')
				}
				dst = elems(dst, int(j))
			}
			return append(dst, ']')
		}
	default:
		write = s.Scalar(arr)
	}
	return func(dst []byte, i int) []byte {
		if IsNull(arr, i) {
			return append(dst, "null"...)
		}
		return write(dst, i)
	}
}
