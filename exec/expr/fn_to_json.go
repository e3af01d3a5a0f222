package expr

import (
	"bytes"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

func init() {
	scalarFns[planner.FnToJSON] = scalarFn{1, 1, false, toJSONKernel}
}

// toJSONKernel writes each row as compact JSON text, as DuckDB's to_json
// does: numbers and booleans bare, everything else that is not a list,
// struct or map as its SQL text in a JSON string, NULL inside a value as
// null; a NULL row is NULL.
func toJSONKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	arr, err := ev.materialize(ops[0])
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	return ev.stringRows(ops, jsonWriterOf(arr)), nil
}

// toJSON writes values as DuckDB's to_json does; its scalars are
// toJSONScalar's.
var toJSON value.JSONStyle

func init() { toJSON = value.JSONStyle{Scalar: toJSONScalar, String: appendJSONString} }

// jsonWriterOf returns the JSON writer of arr's type.
func jsonWriterOf(arr arrow.Array) value.Formatter { return toJSON.FormatterOf(arr) }

// toJSONScalar writes numbers and booleans bare (floats and decimals as
// DuckDB prints them), a dictionary as its values, anything else as its
// SQL text in a JSON string.
func toJSONScalar(arr arrow.Array) value.Formatter {
	switch a := arr.(type) {
	case *array.Boolean, *array.Int8, *array.Int16, *array.Int32, *array.Int64,
		*array.Uint8, *array.Uint16, *array.Uint32, *array.Uint64:
		return value.FormatterOf(a)
	case *array.Float32:
		return func(dst []byte, i int) []byte { return appendJSONFloat(dst, float64(a.Value(i))) }
	case *array.Float64:
		return func(dst []byte, i int) []byte { return appendJSONFloat(dst, a.Value(i)) }
	case *array.Decimal32, *array.Decimal64, *array.Decimal128, *array.Decimal256:
		return jsonDecimalWriter(value.FormatterOf(a))
	case *array.Dictionary:
		values := jsonWriterOf(a.Dictionary())
		return func(dst []byte, i int) []byte { return values(dst, a.GetValueIndex(i)) }
	}
	text := value.FormatterOf(arr)
	var buf []byte
	return func(dst []byte, i int) []byte {
		buf = text(buf[:0], i)
		return appendJSONString(dst, unsafeString(buf))
	}
}

// jsonDecimalWriter writes a decimal's text without trailing fractional
// zeros, keeping one digit after the point: 12.50 is 12.5, 12.00 is 12.0.
func jsonDecimalWriter(text value.Formatter) value.Formatter {
	return func(dst []byte, i int) []byte {
		start := len(dst)
		dst = text(dst, i)
		point := bytes.IndexByte(dst[start:], '.')
		if point < 0 {
			return dst
		}
		end := len(dst)
		for end > start+point+2 && dst[end-1] == '0' {
			end--
		}
		return dst[:end]
	}
}

// appendJSONFloat writes a double as DuckDB's JSON writer does: the
// shortest text that reads back, plain with a .0 for whole numbers between
// 1e-6 and 1e21, otherwise with an exponent (1e-7, 1.5e21); infinities and
// NaN as JavaScript spells them.
func appendJSONFloat(dst []byte, f float64) []byte {
	switch abs := math.Abs(f); {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case abs == 0 || abs >= 1e-6 && abs < 1e21:
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
		if bytes.IndexByte(dst[start:], '.') < 0 {
			dst = append(dst, ".0"...)
		}
		return dst
	}
	// Go writes 1e+21 and 1e-07; JSON writers 1e21 and 1e-7.
	sci := strconv.AppendFloat(nil, f, 'e', -1, 64)
	e := bytes.IndexByte(sci, 'e')
	dst = append(dst, sci[:e+1]...)
	exp := sci[e+1:]
	if exp[0] == '-' {
		dst = append(dst, '-')
	}
	return append(dst, bytes.TrimLeft(exp[1:], "0")...)
}
