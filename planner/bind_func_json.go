package planner

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// JSON functions over strings holding JSON text (lakesql has no JSON type).
// DuckDB's names raise an error on malformed JSON, as DuckDB does; Spark's
// get_json_object and Trino's json_extract_scalar give NULL, as those
// engines do.
const (
	FnJSONExtractString = "json_extract_string" // (json, path): the value as text; also ->>
	FnJSONExtract       = "json_extract"        // (json, path): the value as JSON text
	FnGetJSONObject     = "get_json_object"     // (json, '$path'), Spark
	FnJSONExtractScalar = "json_extract_scalar" // (json, '$path'), Trino: NULL for objects and arrays
	FnJSONValid         = "json_valid"          // (json)
	FnJSONArrayLength   = "json_array_length"   // (json, path)
	FnJSONKeys          = "json_keys"           // (json, path)
	FnJSONType          = "json_type"           // (json, path)
	FnToJSON            = "to_json"             // (value)
)

// JSONPathSyntaxOf is the path syntax function fn takes.
func JSONPathSyntaxOf(fn string) JSONPathSyntax {
	if fn == FnGetJSONObject || fn == FnJSONExtractScalar {
		return JSONPathDollar
	}
	return JSONPathDuckDB
}

// jsonFunctions are the registry entries of the functions above.
func jsonFunctions() map[string]*funcSpec {
	root := stringLit("$")
	keys := arrow.ListOfField(elementField(TypeVarchar))
	return map[string]*funcSpec{
		"json_extract_string": {"(json, path)", 2, 2, bindJSONPath(FnJSONExtractString, TypeVarchar)},
		"json_extract":        {"(json, path)", 2, 2, bindJSONPath(FnJSONExtract, TypeVarchar)},
		"get_json_object":     {"(json, '$path')", 2, 2, bindJSONPath(FnGetJSONObject, TypeVarchar)},
		"json_extract_scalar": {"(json, '$path')", 2, 2, bindJSONPath(FnJSONExtractScalar, TypeVarchar)},
		"json_valid":          {"(json)", 1, 1, typed(FnJSONValid, TypeBoolean, stringArg)},
		"json_array_length":   {"(json[, path])", 1, 2, withDefaults(bindJSONPath(FnJSONArrayLength, TypeBigint), root)},
		"json_keys":           {"(json[, path])", 1, 2, withDefaults(bindJSONPath(FnJSONKeys, keys), root)},
		"json_type":           {"(json[, path])", 1, 2, withDefaults(bindJSONPath(FnJSONType, TypeVarchar), root)},
		"to_json":             {"(value)", 1, 1, bindToJSON},
	}
}

// bindJSONArrow binds json ->> path, DuckDB's operator for
// json_extract_string.
func (b *binder) bindJSONArrow(json, path Expr, pos sql.Pos) (Expr, error) {
	spec := scalarFunctions[FnJSONExtractString]
	return spec.bind(b, &funcCall{name: "->>", pos: pos, args: []Expr{json, path}, spec: spec})
}

// bindJSONPath binds a function of JSON text and a path. A constant path is
// checked here, so its mistakes carry the call's position; a constant
// integer n is the path $[n], as in DuckDB. A path Spark cannot read makes
// get_json_object NULL, as in Spark; a wildcard is an error everywhere.
func bindJSONPath(fn string, result arrow.DataType) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		if lit, ok := c.args[1].(*Literal); ok {
			if n, isInt := literalInt(lit.Value); isInt {
				c.args[1] = stringLit(fmt.Sprintf("$[%d]", n))
			}
		}
		args, err := c.convert(stringArg, stringArg)
		if err != nil {
			return nil, err
		}
		if lit, ok := args[1].(*Literal); ok && lit.Value != nil {
			if _, err := ParseJSONPath(lit.Value.(string), JSONPathSyntaxOf(fn)); err != nil {
				if fn == FnGetJSONObject && !errors.Is(err, ErrJSONWildcard) {
					return &Literal{Value: nil, T: result}, nil
				}
				return nil, errorf(c.pos, "%s: %v", c.name, err)
			}
		}
		return &Call{Fn: fn, Args: args, T: result}, nil
	}
}

// bindToJSON binds to_json(x) for a value of any type; Spark's to_json of a
// struct, map or array writes the same text.
func bindToJSON(_ *binder, c *funcCall) (Expr, error) {
	return &Call{Fn: FnToJSON, Args: c.args, T: TypeVarchar}, nil
}
