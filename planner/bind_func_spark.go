package planner

import (
	"maps"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// Spark SQL's scalar functions that DuckDB lacks or names differently.
// Each follows the Spark 3.5 SQL function reference in its non-ANSI mode:
// where Spark documents NULL for bad input (a base out of range, an
// unknown day name), the result is NULL.
const (
	// bround(x, digits BIGINT) → x's type: x rounded half to even.
	FnBRound = "bround"
	// cbrt(x DOUBLE) → DOUBLE: the cube root.
	FnCbrt = "cbrt"
	// factorial(n BIGINT) → BIGINT: n!, NULL outside 0…20.
	FnFactorial = "factorial"
	// conv(num STRING, from BIGINT, to BIGINT) → STRING: num's digits in
	// base from written in base to (negative: signed); NULL for a base
	// outside 2…36.
	FnConv = "conv"
	// format_number(x, digits BIGINT) → STRING: x rounded half to even to
	// digits decimals, with thousands separators; NULL for digits < 0.
	FnFormatNumber = "format_number"
	// find_in_set(s STRING, list STRING) → INT: the 1-based position of s
	// among list's comma-separated items, 0 when absent or s has a comma.
	FnFindInSet = "find_in_set"
	// decode_utf8(b BINARY, strict BOOLEAN literal) → STRING: the bytes
	// read as UTF-8; invalid bytes are an error when strict (DuckDB's
	// decode(b)), else each run of them becomes U+FFFD (Spark's decode(b,
	// 'UTF-8')).
	FnDecodeUTF8 = "decode_utf8"
	// signum(x DOUBLE) → DOUBLE: -1.0, 1.0, or x itself when it is zero or
	// NaN (Java's Math.signum).
	FnSignum = "signum"
	// degrees(x DOUBLE) and radians(x DOUBLE) → DOUBLE, as DuckDB computes
	// them: x * (180 / π) and x * (π / 180).
	FnDegrees = "degrees"
	FnRadians = "radians"
	// crc32(b BINARY or STRING) → BIGINT: the CRC-32 (IEEE) checksum of
	// the bytes, as Java's java.util.zip.CRC32 computes it.
	FnCRC32 = "crc32"
)

// sparkFunctions are the registry entries of this file and of
// bind_func_spark_datetime.go and bind_func_spark_string.go.
func sparkFunctions() map[string]*funcSpec {
	num := doubleArg
	fns := map[string]*funcSpec{
		"nvl2":          {"(value, if not null, if null)", 3, 3, bindNvl2},
		"decode":        {"(value, search, result, …[, default]) or decode(binary[, 'UTF-8'])", 1, -1, bindDecode},
		"isnull":        {"(value)", 1, 1, bindIsNullFunc(FnIsNull)},
		"isnotnull":     {"(value)", 1, 1, bindIsNullFunc(FnIsNotNull)},
		"pmod":          {"(number, number)", 2, 2, bindPmod},
		"bround":        {"(number[, digits])", 1, 2, bindRound(FnBRound)},
		"sort_array":    {"(array[, ascending])", 1, 2, bindSortArray},
		"find_in_set":   {"(string, comma-separated list)", 2, 2, typed(FnFindInSet, TypeInt, stringArg, stringArg)},
		"elt":           {"(index, string, …)", 2, -1, bindElt},
		"space":         {"(count)", 1, 1, bindSpace},
		"cbrt":          {"(number)", 1, 1, typed(FnCbrt, TypeDouble, num)},
		"factorial":     {"(integer)", 1, 1, typed(FnFactorial, TypeBigint, intArg)},
		"e":             {"()", 0, 0, bindE},
		"conv":          {"(number or string, from base, to base)", 3, 3, typed(FnConv, TypeVarchar, digitsTextArg, intArg, intArg)},
		"format_number": {"(number, digits)", 2, 2, bindFormatNumber},
		"signum":        {"(number)", 1, 1, typed(FnSignum, TypeDouble, num)},
		"degrees":       {"(number)", 1, 1, typed(FnDegrees, TypeDouble, num)},
		"radians":       {"(number)", 1, 1, typed(FnRadians, TypeDouble, num)},
		"crc32":         {"(string or binary)", 1, 1, typed(FnCRC32, TypeBigint, bytesArg)},
		"positive":      {"(number)", 1, 1, bindUnarySignFunc("+")},
		"negative":      {"(number or interval)", 1, 1, bindUnarySignFunc("-")},
		"nanvl":         {"(number, number)", 2, 2, bindNanvl},
		"btrim":         {"(string[, characters])", 1, 2, withDefaults(typed(FnTrim, TypeVarchar, stringArg, stringArg), stringLit(" "))},
		"octet_length":  {"(string or binary)", 1, 1, bindOctetLength(1)},
		"bit_length":    {"(string or binary)", 1, 1, bindOctetLength(8)},
	}
	maps.Copy(fns, sparkDatetimeFunctions())
	maps.Copy(fns, sparkStringFunctions())
	return fns
}

// digitsTextArg takes conv's number as text: a string, or an integer
// written in decimal, as Spark casts it.
var digitsTextArg = accepting(func(t arrow.DataType) bool { return isString(t) || IsInteger(t) }, TypeVarchar)

// bindNvl2 binds nvl2(a, b, c): b when a is not NULL, else c.
func bindNvl2(_ *binder, c *funcCall) (Expr, error) {
	results, err := unifyResults(c.pos, c.args[1], c.args[2])
	if err != nil {
		return nil, err
	}
	known := &Call{Fn: FnIsNotNull, Args: c.args[:1], T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: known, Result: results[0]}}, Else: results[1], T: results[0].Type()}, nil
}

// bindDecode binds Spark's decode: decode(x, search, result, …[,
// default]) is CASE with x compared to each search as IS NOT DISTINCT FROM
// does (decode(NULL, NULL, 'a') is 'a', as Spark documents), and
// decode(binary[, 'UTF-8']) reads bytes as text.
func bindDecode(_ *binder, c *funcCall) (Expr, error) {
	if len(c.args) <= 2 {
		return bindDecodeCharset(c)
	}
	x, rest := c.args[0], c.args[1:]
	var whens []CaseWhen
	var results []Expr
	for ; len(rest) >= 2; rest = rest[2:] {
		pair, err := unify(c.pos, x, rest[0])
		if err != nil {
			return nil, err
		}
		whens = append(whens, CaseWhen{Cond: &Call{Fn: FnIsNotDistinct, Args: pair, T: TypeBoolean}})
		results = append(results, rest[1])
	}
	var otherwise Expr = &Literal{T: TypeNull}
	if len(rest) == 1 {
		otherwise = rest[0]
	}
	unified, err := unifyResults(c.pos, append(results, otherwise)...)
	if err != nil {
		return nil, err
	}
	for i := range whens {
		whens[i].Result = unified[i]
	}
	return &Case{Whens: whens, Else: unified[len(whens)], T: unified[0].Type()}, nil
}

// bindDecodeCharset binds DuckDB's decode(binary), which rejects invalid
// UTF-8, and Spark's decode(binary, charset), which replaces it; UTF-8 is
// the one character set, since lakesql's strings are UTF-8.
func bindDecodeCharset(c *funcCall) (Expr, error) {
	bin := c.args[0]
	if t := bin.Type().ID(); t != arrow.BINARY && t != arrow.NULL {
		return nil, c.mismatch()
	}
	strict := len(c.args) == 1
	if !strict {
		charset, err := requireStringConstant(c, 1, "character set")
		if err != nil {
			return nil, err
		}
		if charset != "UTF-8" && charset != "UTF8" {
			return nil, errorf(c.pos, "%s: unsupported character set %s (only UTF-8 is)", c.name, charset)
		}
	}
	return &Call{Fn: FnDecodeUTF8, Args: []Expr{bin, &Literal{Value: strict, T: TypeBoolean}}, T: TypeVarchar}, nil
}

// bindIsNullFunc binds Spark's isnull(x) and isnotnull(x), the function
// forms of x IS [NOT] NULL.
func bindIsNullFunc(fn string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		return &Call{Fn: fn, Args: c.args, T: TypeBoolean}, nil
	}
}

// bindPmod binds Spark's pmod(a, n), the modulus that is never negative for
// a positive n: r = a % n; if r < 0 then (r + n) % n else r. A zero n gives
// NULL, as a % 0 does.
func bindPmod(_ *binder, c *funcCall) (Expr, error) {
	r, err := bindArithmetic(FnMod, c.args[0], c.args[1], c.pos)
	if err != nil {
		return nil, err
	}
	n := castFolded(c.args[1], r.Type())
	sum, err := bindArithmetic(FnAdd, r, n, c.pos)
	if err != nil {
		return nil, err
	}
	wrapped, err := bindArithmetic(FnMod, castFolded(sum, r.Type()), n, c.pos)
	if err != nil {
		return nil, err
	}
	zero := castFolded(&Literal{Value: int64(0), T: TypeBigint}, r.Type())
	negative := &Call{Fn: FnLt, Args: []Expr{r, zero}, T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: negative, Result: castFolded(wrapped, r.Type())}}, Else: r, T: r.Type()}, nil
}

// bindSortArray binds Spark's sort_array(a[, ascending]): NULL elements
// come first ascending and last descending, as Spark documents.
func bindSortArray(_ *binder, c *funcCall) (Expr, error) {
	a, err := orderableArray(c)
	if err != nil || a.Type().ID() == arrow.NULL {
		return a, err
	}
	asc := true
	if len(c.args) == 2 {
		lit, ok := c.args[1].(*Literal)
		if !ok || lit.T.ID() != arrow.BOOL || lit.Value == nil {
			return nil, errorf(c.pos, "%s: the sort order must be a constant TRUE or FALSE", c.name)
		}
		asc = lit.Value.(bool)
	}
	flag := func(v bool) Expr { return &Literal{Value: v, T: TypeBoolean} }
	return &Call{Fn: FnArraySort, Args: []Expr{a, flag(asc), flag(asc)}, T: a.Type()}, nil
}

// bindElt binds elt(n, s1, s2, …): the n-th string, NULL when n is out of
// range (Spark without ANSI mode).
func bindElt(_ *binder, c *funcCall) (Expr, error) {
	n, ok := intArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	whens := make([]CaseWhen, len(c.args)-1)
	for i, a := range c.args[1:] {
		s, err := castTo(a, TypeVarchar)
		if err != nil {
			return nil, c.mismatch()
		}
		pick := &Call{Fn: FnEq, Args: []Expr{n, &Literal{Value: int64(i + 1), T: TypeBigint}}, T: TypeBoolean}
		whens[i] = CaseWhen{Cond: pick, Result: s}
	}
	return &Case{Whens: whens, Else: &Literal{T: TypeVarchar}, T: TypeVarchar}, nil
}

// bindSpace binds space(n) as repeat(' ', n).
func bindSpace(_ *binder, c *funcCall) (Expr, error) {
	n, ok := intArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnRepeat, Args: []Expr{stringLit(" "), n}, T: TypeVarchar}, nil
}

func bindE(*binder, *funcCall) (Expr, error) {
	return &Literal{Value: math.E, T: TypeDouble}, nil
}

// bindFormatNumber binds format_number(x, digits). Integers format as
// BIGINT, decimals keep their digits, other numbers go through DOUBLE.
// Spark's second form, a DecimalFormat pattern, is not supported.
func bindFormatNumber(_ *binder, c *funcCall) (Expr, error) {
	x := c.args[0]
	switch t := x.Type(); {
	case t.ID() == arrow.DECIMAL128:
	case IsInteger(t):
		x = castFolded(x, TypeBigint)
	case IsNumeric(t) || t.ID() == arrow.NULL:
		x = castFolded(x, TypeDouble)
	default:
		return nil, c.mismatch()
	}
	if isString(c.args[1].Type()) {
		return nil, errorf(c.pos, "%s: a format pattern is not supported; give the number of decimals", c.name)
	}
	d, ok := intArg(c.args[1])
	if !ok {
		return nil, c.mismatch()
	}
	return &Call{Fn: FnFormatNumber, Args: []Expr{x, d}, T: TypeVarchar}, nil
}

// bindUnarySignFunc binds Spark's positive(x) and negative(x), +x and -x.
func bindUnarySignFunc(op string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		return bindUnarySign(op, c.args[0], c.pos)
	}
}

// bindNanvl binds Spark's nanvl(a, b): b when a is NaN, else a (NULL for
// a NULL a).
func bindNanvl(_ *binder, c *funcCall) (Expr, error) {
	args, err := c.convert(doubleArg, doubleArg)
	if err != nil {
		return nil, err
	}
	nan := &Call{Fn: FnIsNaN, Args: args[:1], T: TypeBoolean}
	return &Case{Whens: []CaseWhen{{Cond: nan, Result: args[1]}}, Else: args[0], T: TypeDouble}, nil
}

// bindOctetLength binds octet_length(x) and bit_length(x): the bytes (or
// bits) of a string or binary value, a BIGINT as in DuckDB.
func bindOctetLength(bitsPerByte int64) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		x := c.args[0]
		if t := x.Type().ID(); !isString(x.Type()) && t != arrow.BINARY && t != arrow.NULL {
			return nil, c.mismatch()
		}
		n := Expr(&Call{Fn: FnStrlen, Args: []Expr{x}, T: TypeBigint})
		if bitsPerByte == 1 {
			return n, nil
		}
		return bindArithmetic(FnMul, n, &Literal{Value: bitsPerByte, T: TypeBigint}, c.pos)
	}
}
