package planner

// Built-in function names used in Call.Fn. The binder guarantees the argument
// types noted here; the executor implements each for the listed types.
const (
	// Arithmetic on numeric arguments of one type (INT, BIGINT, FLOAT, DOUBLE,
	// DECIMAL); integer overflow is an error. Division of integers is bound as
	// DOUBLE division; division or modulo by zero yields NULL.
	FnAdd = "add"
	FnSub = "sub"
	FnMul = "mul"
	FnDiv = "div"
	FnMod = "mod"
	FnNeg = "neg"

	// Comparisons of two arguments of one type, result BOOLEAN, NULL if either is NULL.
	FnEq = "eq"
	FnNe = "ne"
	FnLt = "lt"
	FnLe = "le"
	FnGt = "gt"
	FnGe = "ge"

	// NULL-safe comparisons, never NULL.
	FnIsDistinct    = "is_distinct"
	FnIsNotDistinct = "is_not_distinct"

	// Boolean logic with SQL three-valued semantics.
	FnAnd = "and"
	FnOr  = "or"
	FnNot = "not"

	FnIsNull    = "is_null"
	FnIsNotNull = "is_not_null"
	// is_true(x)/is_false(x): x IS TRUE / x IS FALSE, never NULL.
	FnIsTrue  = "is_true"
	FnIsFalse = "is_false"

	// in(x, v1, v2, …): all arguments of one type; SQL semantics (NULL when no
	// match and some operand is NULL).
	FnIn = "in"

	// String functions: concat of STRING arguments (|| is NULL if any input is NULL);
	// like(x, pattern) and ilike(x, pattern) with an optional third argument, the escape character.
	FnConcat = "concat"
	FnLike   = "like"
	FnILike  = "ilike"

	// coalesce(a, b, …) and nullif(a, b) over arguments of one type.
	FnCoalesce = "coalesce"
	FnNullIf   = "nullif"
)

// infixOps gives the SQL operator for binary functions when printing plans.
var infixOps = map[string]string{
	FnAdd: "+", FnSub: "-", FnMul: "*", FnDiv: "/", FnMod: "%",
	FnEq: "=", FnNe: "<>", FnLt: "<", FnLe: "<=", FnGt: ">", FnGe: ">=",
	FnAnd: "AND", FnOr: "OR", FnConcat: "||",
	FnIsDistinct: "IS DISTINCT FROM", FnIsNotDistinct: "IS NOT DISTINCT FROM",
}
