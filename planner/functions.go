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
	// FnIntDiv is DuckDB's // operator: integers divide truncating toward
	// zero into their own type; FLOAT and DOUBLE divide as with FnDiv
	// (DuckDB's 7.5 // 2 is 3.75); a DECIMAL is divided as a DOUBLE.
	FnIntDiv = "int_div"
	FnMod    = "mod"
	FnNeg    = "neg"

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

// Scalar functions bound through the function registry (function_registry.go).
// All are NULL when any argument is NULL, except greatest and least. String
// positions and lengths count characters (UTF-8 code points), not bytes.
const (
	// STRING → STRING.
	FnLower   = "lower"
	FnUpper   = "upper"
	FnReverse = "reverse"
	// ascii(s STRING) → BIGINT: the code point of the first character, 0
	// for ''; chr(n BIGINT) → STRING: the character of code point n.
	FnASCII = "ascii"
	FnChr   = "chr"
	// trim/ltrim/rtrim(s STRING, chars STRING): strip any of chars.
	FnTrim  = "trim"
	FnLTrim = "ltrim"
	FnRTrim = "rtrim"
	// length(s STRING) → BIGINT characters.
	FnLength = "length"
	// substr(s STRING, start BIGINT[, len BIGINT]) → STRING, DuckDB positions.
	FnSubstr = "substr"
	// left/right(s STRING, n BIGINT) → STRING; negative n drops -n characters.
	FnLeft  = "left"
	FnRight = "right"
	// repeat(s STRING, n BIGINT) → STRING: s n times ('' for n ≤ 0).
	FnRepeat = "repeat"
	// lpad/rpad(s STRING, len BIGINT, pad STRING) → STRING.
	FnLPad = "lpad"
	FnRPad = "rpad"
	// replace(s, from, to STRING) → STRING; regexp_replace(s, pattern, repl
	// STRING) replaces every match, repl may use $1.
	FnReplace       = "replace"
	FnRegexpReplace = "regexp_replace"
	// split_part(s STRING, delim STRING, n BIGINT) → STRING.
	FnSplitPart = "split_part"
	// strpos(s STRING, sub STRING) → BIGINT: 1-based character position, 0 if absent.
	FnStrpos = "strpos"
	// (s STRING, x STRING) → BOOLEAN.
	FnStartsWith = "starts_with"
	FnEndsWith   = "ends_with"
	FnContains   = "contains"
	FnRegexpLike = "regexp_like"

	// concat_ws(sep STRING, s STRING, …) → STRING: the non-NULL s joined by
	// sep; NULL only when sep is.
	FnConcatWS = "concat_ws"
	// regexp_extract(s, pattern STRING, group BIGINT) → STRING: the group of
	// the first match ('' when none; 0 is the whole match).
	FnRegexpExtract = "regexp_extract"
	// regexp_extract_all(s, pattern STRING, group BIGINT) → LIST<STRING>.
	FnRegexpExtractAll = "regexp_extract_all"
	// format_time(x DATE|TIMESTAMP, dialect STRING, pattern STRING) →
	// STRING: x formatted by a constant pattern of a dialect of
	// value.CompileTimeFormat (date_format, strftime, to_char).
	FnFormatTime = "format_time"

	// abs(x), sign(x) → INT, floor(x), ceil(x) over INT, BIGINT, FLOAT,
	// DOUBLE or DECIMAL; floor and ceil of DECIMAL(p,s) give DECIMAL(p,0).
	FnAbs   = "abs"
	FnSign  = "sign"
	FnFloor = "floor"
	FnCeil  = "ceil"
	// round(x, digits BIGINT) rounds half away from zero; x is INT, BIGINT,
	// FLOAT or DOUBLE (result of the same type) or DECIMAL with a constant
	// digits (result DECIMAL of scale max(digits, 0)).
	FnRound = "round"
	FnTrunc = "trunc"
	// DOUBLE → DOUBLE; NULL outside the function's domain (sqrt(-1), ln(0)).
	FnSqrt  = "sqrt"
	FnLn    = "ln"
	FnLog10 = "log10"
	FnLog2  = "log2"
	FnExp   = "exp"
	FnPower = "power"
	// greatest/least(a, b, …) over one orderable type; NULLs are skipped.
	FnGreatest = "greatest"
	FnLeast    = "least"

	// date_part(field STRING literal, x DATE|TIMESTAMP|TIMESTAMPTZ) → BIGINT.
	// Fields: YEAR QUARTER MONTH WEEK (ISO) DAY DAYOFWEEK (1 = Sunday) DOW
	// (0 = Sunday) DOY HOUR MINUTE SECOND.
	FnDatePart = "date_part"
	// epoch(x DATE|TIMESTAMP|TIMESTAMPTZ) → DOUBLE seconds since 1970-01-01.
	FnEpoch = "epoch"
	// date_trunc(unit STRING literal, x DATE|TIMESTAMP|TIMESTAMPTZ): the
	// result type is TIMESTAMP for a DATE, the type of x otherwise.
	FnDateTrunc = "date_trunc"
	// datediff(unit STRING literal, start, end DATE|TIMESTAMP|TIMESTAMPTZ) →
	// BIGINT: the number of unit boundaries between start and end.
	FnDateDiff = "datediff"
	// date_add(d DATE, days BIGINT) → DATE.
	FnDateAdd = "date_add"
	// add_interval(x DATE|TIMESTAMP|TIMESTAMPTZ, iv INTERVAL literal): months
	// first (clamped to the month's end), then days, then time. The result is
	// TIMESTAMP for a DATE, the type of x otherwise.
	FnAddInterval = "add_interval"
	FnMulInterval = "mul_interval"
	// rand() → DOUBLE in [0, 1); uuid() → STRING, a random UUID. Volatile:
	// a new value per row (IsVolatile).
	FnRand = "rand"
	FnUUID = "uuid"
	// FnRaiseError fails the statement with its message (Spark's
	// raise_error, DuckDB's error), on the first row it is evaluated on.
	FnRaiseError = "raise_error"
	// last_day(d DATE) → DATE: the last day of d's month.
	FnLastDay = "last_day"
	// ts_sub(a, b TIMESTAMP or both TIMESTAMPTZ) → INTERVAL a − b, in days
	// and nanoseconds of one sign (no months).
	FnTimestampSub = "ts_sub"
	// interval_key(iv INTERVAL) → DECIMAL(38,0): iv's length in nanoseconds,
	// a month counted as 30 days, for comparing intervals.
	FnIntervalKey = "interval_key"
	// make_date(y, m, d BIGINT) → DATE.
	FnMakeDate = "make_date"
	// from_unixtime(seconds BIGINT|DOUBLE) → TIMESTAMP.
	FnFromUnixtime = "from_unixtime"
	// unix_timestamp(x DATE|TIMESTAMP|TIMESTAMPTZ) → BIGINT seconds, floored.
	FnUnixTimestamp = "unix_timestamp"
	// convert_tz(x TIMESTAMP, from, to STRING) → TIMESTAMP: MySQL's
	// CONVERT_TZ (value.MySQLConvertTZ); NULL for a zone MySQL does not know.
	FnConvertTZ = "convert_tz"
	// timediff(a, b both TIMESTAMP or both TIME) → INTERVAL a − b in
	// nanoseconds alone, within MySQL's TIME range of ±838:59:59.
	FnTimeDiff = "timediff"
	// format_duration(x TIME|INTERVAL, pattern STRING literal) → STRING:
	// MySQL's TIME_FORMAT (value.CompileDurationFormat).
	FnFormatDuration = "format_duration"
)

// infixOps gives the SQL operator for binary functions when printing plans.
var infixOps = map[string]string{
	FnAdd: "+", FnSub: "-", FnMul: "*", FnDiv: "/", FnIntDiv: "//", FnMod: "%",
	FnEq: "=", FnNe: "<>", FnLt: "<", FnLe: "<=", FnGt: ">", FnGe: ">=",
	FnAnd: "AND", FnOr: "OR", FnConcat: "||",
	FnBitwiseAnd: "&", FnBitwiseOr: "|", FnShiftLeft: "<<", FnShiftRight: ">>",
	FnIsDistinct: "IS DISTINCT FROM", FnIsNotDistinct: "IS NOT DISTINCT FROM",
}

// volatileFns are the functions whose value changes from one row (and one
// evaluation) to the next although they read no column.
// raise_error is one too: folded, it would fail a statement whose CASE
// never reaches it.
var volatileFns = map[string]bool{FnRand: true, FnUUID: true, FnRaiseError: true}

// IsVolatile reports whether e calls a volatile function: such an
// expression must be evaluated once per row where it was written, so it is
// neither folded to a constant nor copied into another operator.
func IsVolatile(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if c, ok := x.(*Call); ok && volatileFns[c.Fn] {
			found = true
		}
	})
	return found
}
