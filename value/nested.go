package value

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nested values print as DuckDB prints them: lists [a, b, NULL], maps
// {key=value, …} and structs {'field': value, …}. Strings inside are quoted,
// otherwise ['a, b'] and ['a', 'b'] would print the same.

func listFormatter(a array.ListLike) Formatter {
	values := nestedFormatter(a.ListValues())
	return func(dst []byte, i int) []byte {
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ", "...)
			}
			dst = values(dst, int(j))
		}
		return append(dst, ']')
	}
}

func mapFormatter(a *array.Map) Formatter {
	keys, items := nestedFormatter(a.Keys()), nestedFormatter(a.Items())
	return func(dst []byte, i int) []byte {
		start, end := a.ValueOffsets(i)
		dst = append(dst, '{')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ", "...)
			}
			dst = append(keys(dst, int(j)), '=')
			dst = items(dst, int(j))
		}
		return append(dst, '}')
	}
}

func structFormatter(a *array.Struct) Formatter {
	typ := a.DataType().(*arrow.StructType)
	fields := make([]Formatter, a.NumField())
	for f := range fields {
		fields[f] = nestedFormatter(a.Field(f))
	}
	return func(dst []byte, i int) []byte {
		dst = append(dst, '{')
		for f, field := range fields {
			if f > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendQuoted(dst, typ.Field(f).Name)
			dst = field(append(dst, ": "...), i)
		}
		return append(dst, '}')
	}
}

// nestedFormatter formats the values of a list, map or struct: NULL as
// NULL, strings quoted.
func nestedFormatter(arr arrow.Array) Formatter {
	format := FormatterOf(arr)
	quoted := isStringType(arr.DataType())
	return func(dst []byte, i int) []byte {
		switch {
		case IsNull(arr, i):
			return append(dst, NullText...)
		case quoted:
			return appendQuoted(dst, string(format(nil, i)))
		}
		return format(dst, i)
	}
}

// appendQuoted appends s as a SQL string literal.
func appendQuoted(dst []byte, s string) []byte {
	return append(append(append(dst, '\''), strings.ReplaceAll(s, "'", "''")...), '\'')
}

func isStringType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return true
	case arrow.DICTIONARY:
		return isStringType(dt.(*arrow.DictionaryType).ValueType)
	}
	return false
}
