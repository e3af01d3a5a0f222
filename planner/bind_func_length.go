package planner

import "github.com/apache/arrow-go/v18/arrow"

// strlen(s STRING) → BIGINT: DuckDB's length in bytes (octet_length), where
// length counts characters.
const FnStrlen = "strlen"

// bindLen binds len and array_length: of a string its length in characters
// (Spark's and DuckDB's len), of an array its number of elements (DuckDB's
// len and array_length), as a BIGINT; NULL for NULL.
func bindLen(b *binder, c *funcCall) (Expr, error) {
	if _, ok := c.args[0].Type().(*arrow.ListType); ok {
		return castFolded(&Call{Fn: FnSize, Args: c.args, T: TypeInt}, TypeBigint), nil
	}
	if c.name == "array_length" && c.args[0].Type().ID() != arrow.NULL {
		return nil, c.mismatch()
	}
	return typed(FnLength, TypeBigint, stringArg)(b, c)
}
