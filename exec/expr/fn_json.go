package expr

import (
	"errors"
	"maps"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/tidwall/gjson"

	"github.com/lakesql/lakesql/planner"
)

// Kernels of the JSON functions (planner/bind_func_json.go). Each row's
// text is validated with gjson, then the path is followed over it in place.

func init() {
	maps.Copy(scalarFns, map[string]scalarFn{
		planner.FnJSONExtractString: {2, 2, false, jsonTextKernel},
		planner.FnJSONExtract:       {2, 2, false, jsonTextKernel},
		planner.FnGetJSONObject:     {2, 2, false, jsonTextKernel},
		planner.FnJSONExtractScalar: {2, 2, false, jsonTextKernel},
		planner.FnJSONType:          {2, 2, false, jsonTypeKernel},
		planner.FnJSONArrayLength:   {2, 2, false, jsonArrayLengthKernel},
		planner.FnJSONKeys:          {2, 2, false, jsonKeysKernel},
		planner.FnJSONValid:         {1, 1, false, jsonValidKernel},
	})
}

// jsonRows follows each row's path over its JSON text (ops[0], ops[1]) in
// row order: found gets the value the path selects; missing is called for
// a NULL row and a path that selects nothing, and for malformed JSON in
// Spark's and Trino's functions and a path Spark cannot read (but for a
// wildcard), which are NULL there and errors elsewhere.
func jsonRows(ev *evaluator, c *planner.Call, ops []operand, found func(v gjson.Result), missing func()) error {
	docs, paths := newBytesVec(ops[0]), newBytesVec(ops[1])
	validity := ev.validity(ops...)
	if validity != nil {
		defer validity.Release()
	}
	nullIfMalformed := c.Fn == planner.FnGetJSONObject || c.Fn == planner.FnJSONExtractScalar
	cache := jsonPathCache{syntax: planner.JSONPathSyntaxOf(c.Fn)}
	for i := range ev.n {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			missing()
			continue
		}
		doc := docs.At(i)
		steps, err := cache.get(paths.At(i))
		if err == nil && !gjson.ValidBytes(doc) {
			if nullIfMalformed {
				missing()
				continue
			}
			err = malformedJSON(doc)
		}
		if err != nil && c.Fn == planner.FnGetJSONObject && !errors.Is(err, planner.ErrJSONWildcard) {
			missing()
			continue
		}
		if err != nil {
			return wrapError(c, err)
		}
		if v, ok := jsonLookup(gjson.Parse(unsafeString(doc)), steps); ok {
			found(v)
		} else {
			missing()
		}
	}
	return nil
}

// jsonTextKernel gives the selected value as text: a string unquoted (in
// json_extract, JSON text, quoted), anything else as compact JSON. JSON
// null is NULL (in json_extract, the text null); json_extract_scalar gives
// NULL for objects and arrays, as Trino's does.
func jsonTextKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	b.Reserve(ev.n)
	asJSON := c.Fn == planner.FnJSONExtract
	var buf []byte
	err := jsonRows(ev, c, ops, func(v gjson.Result) {
		switch {
		case v.Type == gjson.Null && !asJSON, v.IsObject() && c.Fn == planner.FnJSONExtractScalar, v.IsArray() && c.Fn == planner.FnJSONExtractScalar:
			b.AppendNull()
		case v.Type == gjson.String && !asJSON:
			b.Append(v.Str)
		default:
			buf = appendJSON(buf[:0], v)
			b.BinaryBuilder.Append(buf)
		}
	}, b.AppendNull)
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// jsonTypeKernel names the selected value's type as DuckDB does, a number
// by the type DuckDB reads it as: UBIGINT when it is a whole number that
// fits, BIGINT when a negative one does, else DOUBLE.
func jsonTypeKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	err := jsonRows(ev, c, ops, func(v gjson.Result) { b.Append(jsonTypeName(v)) }, b.AppendNull)
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

func jsonTypeName(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "OBJECT"
	case v.IsArray():
		return "ARRAY"
	case v.Type == gjson.String:
		return "VARCHAR"
	case v.Type == gjson.True, v.Type == gjson.False:
		return "BOOLEAN"
	case v.Type == gjson.Null:
		return "NULL"
	case strings.ContainsAny(v.Raw, ".eE"):
		return "DOUBLE"
	}
	if _, err := strconv.ParseUint(v.Raw, 10, 64); err == nil {
		return "UBIGINT"
	}
	if _, err := strconv.ParseInt(v.Raw, 10, 64); err == nil {
		return "BIGINT"
	}
	return "DOUBLE"
}

// jsonArrayLengthKernel counts the selected array's elements; any other
// value has 0.
func jsonArrayLengthKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	b := array.NewInt64Builder(ev.mem)
	defer b.Release()
	err := jsonRows(ev, c, ops, func(v gjson.Result) { b.Append(int64(jsonLength(v))) }, b.AppendNull)
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// jsonKeysKernel lists the selected object's keys in order; any other
// value has none.
func jsonKeysKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	b := array.NewListBuilderWithField(ev.mem, c.T.(*arrow.ListType).ElemField())
	defer b.Release()
	keys := b.ValueBuilder().(*array.StringBuilder)
	err := jsonRows(ev, c, ops, func(v gjson.Result) {
		b.Append(true)
		if v.IsObject() {
			v.ForEach(func(k, _ gjson.Result) bool {
				keys.Append(k.Str)
				return true
			})
		}
	}, b.AppendNull)
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// jsonValidKernel tells whether each row is one JSON value.
func jsonValidKernel(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
	docs := newBytesVec(ops[0])
	return ev.boolRows(ops, func(i int) bool { return gjson.ValidBytes(docs.At(i)) }), nil
}
