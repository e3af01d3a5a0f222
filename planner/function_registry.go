package planner

import (
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// funcSpec describes a scalar function to the binder: how many arguments it
// takes and how it turns bound arguments into a typed expression.
type funcSpec struct {
	// usage is the argument list users should write, for errors:
	// "(number[, digits])".
	usage            string
	minArgs, maxArgs int // maxArgs < 0: any number
	bind             bindFn
}

// bindFn types a call whose argument count the binder has checked.
type bindFn func(b *binder, c *funcCall) (Expr, error)

// funcCall is a call being bound: its name as written, position and bound
// arguments.
type funcCall struct {
	name string
	pos  sql.Pos
	args []Expr
	spec *funcSpec
}

// mismatch is the error for arguments no form of the function takes.
func (c *funcCall) mismatch() error {
	types := make([]string, len(c.args))
	for i, a := range c.args {
		types[i] = TypeString(a.Type())
	}
	return kindErrorf(ErrType, c.pos, "function %s(%s) does not exist; expected %s%s",
		c.name, strings.Join(types, ", "), c.name, c.spec.usage)
}

// convert applies params[i] to argument i, failing with mismatch when an
// argument has a type its parameter does not take.
func (c *funcCall) convert(params ...param) ([]Expr, error) {
	if len(c.args) > len(params) {
		return nil, c.mismatch()
	}
	out := make([]Expr, len(c.args))
	for i, a := range c.args {
		x, ok := params[i](a)
		if !ok {
			return nil, c.mismatch()
		}
		out[i] = x
	}
	return out, nil
}

// param converts an argument to the type a function takes, reporting false
// when the argument's type is not one the parameter accepts. Untyped NULLs are
// accepted everywhere.
type param func(Expr) (Expr, bool)

// accepting is the param that takes arguments whose type satisfies ok,
// converted to type to.
func accepting(ok func(arrow.DataType) bool, to arrow.DataType) param {
	return func(e Expr) (Expr, bool) {
		if e.Type().ID() != arrow.NULL && !ok(e.Type()) {
			return nil, false
		}
		x, err := castTo(e, to)
		return x, err == nil
	}
}

var (
	stringArg = accepting(isString, TypeVarchar)
	intArg    = accepting(IsInteger, TypeBigint)
	doubleArg = accepting(IsNumeric, TypeDouble)
)

// numberArg takes any number as it is, widening the small integer types to
// INT so kernels need not handle them; NULL becomes DOUBLE.
func numberArg(e Expr) (Expr, bool) {
	switch t := e.Type(); {
	case t.ID() == arrow.NULL:
		return castFolded(e, TypeDouble), true
	case numericRank(t) == 1 || numericRank(t) == 2:
		return castFolded(e, TypeInt), true
	case IsNumeric(t):
		return e, true
	}
	return nil, false
}

// temporalArg takes DATE, TIMESTAMP and TIMESTAMPTZ as they are, and reads a
// string literal (or NULL) as a TIMESTAMP: year('2026-01-31').
func temporalArg(e Expr) (Expr, bool) {
	_, isLit := e.(*Literal)
	switch t := e.Type(); {
	case isTemporal(t):
		return e, true
	case t.ID() == arrow.NULL || isLit && isString(t):
		x, err := castTo(e, TypeTimestamp)
		return x, err == nil
	}
	return nil, false
}

// castFolded casts e to a type every value of e converts to.
func castFolded(e Expr, t arrow.DataType) Expr {
	x, err := castTo(e, t)
	if err != nil {
		return &Cast{X: e, T: t}
	}
	return x
}

// typed binds functions with fixed parameter and result types.
func typed(fn string, result arrow.DataType, params ...param) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args, err := c.convert(params...)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: fn, Args: args, T: result}, nil
	}
}

// withDefaults fills in omitted trailing arguments, the last len(tail) of the
// function's maxArgs, before bind runs: trim(s) is trim(s, ' ').
func withDefaults(bind bindFn, tail ...Expr) bindFn {
	return func(b *binder, c *funcCall) (Expr, error) {
		if missing := c.spec.maxArgs - len(c.args); missing > 0 {
			c.args = append(c.args, tail[len(tail)-missing:]...)
		}
		return bind(b, c)
	}
}

func stringLit(s string) *Literal { return &Literal{Value: s, T: TypeVarchar} }

// scalarFunctions lists the scalar functions by name. Aliases are in
// functionAliases. It is filled in init because some binders refer back to
// the binder, which consults this table.
var scalarFunctions map[string]*funcSpec

// functionAliases maps alternative names to their scalarFunctions entry.
var functionAliases = map[string]string{
	"substring": "substr", "ceiling": "ceil", "pow": "power",
	"dayofmonth": "day", "weekofyear": "week",
	"now": "current_timestamp", "date_diff": "datediff", "datepart": "date_part",
	"random": "rand", "gen_random_uuid": "uuid",
	// Names other engines give the functions above.
	"nvl": "ifnull", "char_length": "length", "character_length": "length",
	"ucase": "upper", "lcase": "lower", "char": "chr", "ord": "ascii",
	"rlike": "regexp_like", "regexp": "regexp_like", "today": "current_date",
	"array_to_string": "array_join", "error": "raise_error", "instr": "strpos", "sha": "sha1",
	// DuckDB's and PostgreSQL's names for split by a pattern, and by a
	// plain separator.
	"regexp_split_to_array": "split", "string_to_array": "string_split", "str_split": "string_split",
	"list_cat": "list_concat", "array_concat": "list_concat", "array_cat": "list_concat",
	// DuckDB's names from SQLite's spellfix and from its own mismatches.
	"editdist3": "levenshtein", "mismatches": "hamming",
	"base64": "to_base64", "to_binary": "bin", "unbase64": "from_base64",
	// DuckDB's and Spark's list (array) functions.
	"list_aggr": "list_aggregate", "array_aggregate": "list_aggregate", "array_aggr": "list_aggregate",
	"array_reverse": "list_reverse", "array_slice": "list_slice", "list_indexof": "list_position",
	"array_indexof": "list_position", "array_append": "list_append", "array_push_back": "list_append",
	"array_prepend": "list_prepend", "list_value": "array", "list_pack": "array",
	"list_element": "list_extract", "array_extract": "list_extract",
	"array_has_any": "list_has_any", "array_has_all": "list_has_all",
}

func init() {
	space := stringLit(" ")
	str, num := stringArg, doubleArg
	scalarFunctions = map[string]*funcSpec{
		// Conditional and string functions that predate the registry.
		"coalesce": {"(value, …)", 1, -1, bindCoalesce},
		"nullif":   {"(value, value)", 2, 2, bindNullIf},
		"concat":   {"(string, …) or concat(array, …)", 0, -1, bindConcatFunc},
		"if":       {"(condition, then, else)", 3, 3, bindIf},
		"ifnull":   {"(value, value)", 2, 2, bindCoalesce},
		// Untyped, as NULL is: CASE WHEN bad THEN raise_error('…') ELSE x END.
		"raise_error": {"(message)", 1, 1, typed(FnRaiseError, TypeNull, str)},

		"md5":    {"(string or binary)", 1, 1, typed(FnMD5, TypeVarchar, bytesArg)},
		"sha1":   {"(string or binary)", 1, 1, typed(FnSHA1, TypeVarchar, bytesArg)},
		"sha256": {"(string or binary)", 1, 1, typed(FnSHA256, TypeVarchar, bytesArg)},
		"sha512": {"(string or binary)", 1, 1, typed(FnSHA512, TypeVarchar, bytesArg)},
		"sha2":   {"(string or binary, bits)", 2, 2, bindSHA2},
		"typeof": {"(value)", 1, 1, bindTypeOf},

		"hex":         {"(integer, string or binary)", 1, 1, typed(FnHex, TypeVarchar, digitsArg)},
		"bin":         {"(integer, string or binary)", 1, 1, typed(FnBin, TypeVarchar, digitsArg)},
		"unhex":       {"(string)", 1, 1, typed(FnUnhex, TypeBinary, str)},
		"to_base64":   {"(binary or string)", 1, 1, typed(FnToBase64, TypeVarchar, bytesArg)},
		"from_base64": {"(string)", 1, 1, typed(FnFromBase64, TypeBinary, str)},
		"bit_count":   {"(integer)", 1, 1, typed(FnBitCount, arrow.PrimitiveTypes.Int8, ownIntegerArg)},

		"lower":              {"(string)", 1, 1, typed(FnLower, TypeVarchar, str)},
		"upper":              {"(string)", 1, 1, typed(FnUpper, TypeVarchar, str)},
		"reverse":            {"(string or array)", 1, 1, bindReverse},
		"ascii":              {"(string)", 1, 1, typed(FnASCII, TypeBigint, str)},
		"chr":                {"(code point)", 1, 1, typed(FnChr, TypeVarchar, intArg)},
		"length":             {"(string)", 1, 1, typed(FnLength, TypeBigint, str)},
		"len":                {"(string or array)", 1, 1, bindLen},
		"strlen":             {"(string)", 1, 1, typed(FnStrlen, TypeBigint, str)},
		"array_length":       {"(array)", 1, 1, bindLen},
		"trim":               {"(string[, characters])", 1, 2, withDefaults(typed(FnTrim, TypeVarchar, str, str), space)},
		"ltrim":              {"(string[, characters])", 1, 2, withDefaults(typed(FnLTrim, TypeVarchar, str, str), space)},
		"rtrim":              {"(string[, characters])", 1, 2, withDefaults(typed(FnRTrim, TypeVarchar, str, str), space)},
		"substr":             {"(string, start[, length])", 2, 3, typed(FnSubstr, TypeVarchar, str, intArg, intArg)},
		"left":               {"(string, count)", 2, 2, typed(FnLeft, TypeVarchar, str, intArg)},
		"right":              {"(string, count)", 2, 2, typed(FnRight, TypeVarchar, str, intArg)},
		"lpad":               {"(string, length[, padding])", 2, 3, withDefaults(typed(FnLPad, TypeVarchar, str, intArg, str), space)},
		"rpad":               {"(string, length[, padding])", 2, 3, withDefaults(typed(FnRPad, TypeVarchar, str, intArg, str), space)},
		"replace":            {"(string, from, to)", 3, 3, typed(FnReplace, TypeVarchar, str, str, str)},
		"repeat":             {"(string, count)", 2, 2, typed(FnRepeat, TypeVarchar, str, intArg)},
		"regexp_replace":     {"(string, pattern, replacement)", 3, 3, typed(FnRegexpReplace, TypeVarchar, str, str, str)},
		"regexp_like":        {"(string, pattern)", 2, 2, typed(FnRegexpLike, TypeBoolean, str, str)},
		"regexp_matches":     {"(string, pattern[, options])", 2, 3, bindRegexpMatches},
		"regexp_extract":     {"(string, pattern[, group])", 2, 3, bindRegexpExtract},
		"regexp_extract_all": {"(string, pattern[, group])", 2, 3, bindRegexpExtractAll},
		"concat_ws":          {"(separator, string or array, …)", 1, -1, bindConcatWS},
		"split_part":         {"(string, delimiter, index)", 3, 3, typed(FnSplitPart, TypeVarchar, str, str, intArg)},
		"starts_with":        {"(string, prefix)", 2, 2, typed(FnStartsWith, TypeBoolean, str, str)},
		"ends_with":          {"(string, suffix)", 2, 2, typed(FnEndsWith, TypeBoolean, str, str)},
		"contains":           {"(string, search) or contains(array, value)", 2, 2, bindContains},
		"strpos":             {"(string, search[, instance])", 2, 3, bindStrposForms},
		"position":           {"(search, string)", 2, 2, bindPosition},

		"translate":               {"(string, from, to)", 3, 3, typed(FnTranslate, TypeVarchar, str, str, str)},
		"levenshtein":             {"(string, string)", 2, 2, typed(FnLevenshtein, TypeBigint, str, str)},
		"damerau_levenshtein":     {"(string, string)", 2, 2, typed(FnDamerauLevenshtein, TypeBigint, str, str)},
		"hamming":                 {"(string, string)", 2, 2, typed(FnHamming, TypeBigint, str, str)},
		"jaro_similarity":         {"(string, string)", 2, 2, typed(FnJaro, TypeDouble, str, str)},
		"jaro_winkler_similarity": {"(string, string)", 2, 2, typed(FnJaroWinkler, TypeDouble, str, str)},

		"abs":      {"(number)", 1, 1, bindSameNumber(FnAbs)},
		"sign":     {"(number)", 1, 1, bindSign},
		"floor":    {"(number)", 1, 1, bindFloorCeil(FnFloor)},
		"ceil":     {"(number)", 1, 1, bindFloorCeil(FnCeil)},
		"round":    {"(number[, digits])", 1, 2, bindRound(FnRound)},
		"trunc":    {"(number[, digits]) or trunc(date, 'format')", 1, 2, bindTruncForms},
		"sqrt":     {"(number)", 1, 1, typed(FnSqrt, TypeDouble, num)},
		"ln":       {"(number)", 1, 1, typed(FnLn, TypeDouble, num)},
		"log":      {"(base, number)", 1, 2, bindLog},
		"log10":    {"(number)", 1, 1, typed(FnLog10, TypeDouble, num)},
		"log2":     {"(number)", 1, 1, typed(FnLog2, TypeDouble, num)},
		"exp":      {"(number)", 1, 1, typed(FnExp, TypeDouble, num)},
		"power":    {"(base, exponent)", 2, 2, typed(FnPower, TypeDouble, num, num)},
		"mod":      {"(number, number)", 2, 2, bindMod},
		"greatest": {"(value, …)", 1, -1, bindExtreme(FnGreatest)},
		"least":    {"(value, …)", 1, -1, bindExtreme(FnLeast)},
		"pi":       {"()", 0, 0, bindPi},
		"rand":     {"()", 0, 0, typed(FnRand, TypeDouble)},
		"uuid":     {"()", 0, 0, typed(FnUUID, TypeVarchar)},

		"date":              {"(timestamp or string)", 1, 1, bindToDate},
		"year":              {"(date or timestamp)", 1, 1, bindDatePart("YEAR")},
		"quarter":           {"(date or timestamp)", 1, 1, bindDatePart("QUARTER")},
		"month":             {"(date or timestamp)", 1, 1, bindDatePart("MONTH")},
		"week":              {"(date or timestamp)", 1, 1, bindDatePart("WEEK")},
		"day":               {"(date or timestamp)", 1, 1, bindDatePart("DAY")},
		"dayofweek":         {"(date or timestamp)", 1, 1, bindDatePart("DAYOFWEEK")},
		"isodow":            {"(date or timestamp)", 1, 1, bindDatePart("ISODOW")},
		"weekday":           {"(date or timestamp)", 1, 1, bindDatePart("WEEKDAY")},
		"isoyear":           {"(date or timestamp)", 1, 1, bindDatePart("ISOYEAR")},
		"yearweek":          {"(date or timestamp)", 1, 1, bindDatePart("YEARWEEK")},
		"millisecond":       {"(date or timestamp)", 1, 1, bindDatePart("MILLISECOND")},
		"microsecond":       {"(date or timestamp)", 1, 1, bindDatePart("MICROSECOND")},
		"dayname":           {"(date or timestamp)", 1, 1, bindDateName("%A")},
		"monthname":         {"(date or timestamp)", 1, 1, bindDateName("%B")},
		"dayofyear":         {"(date or timestamp)", 1, 1, bindDatePart("DOY")},
		"hour":              {"(date or timestamp)", 1, 1, bindDatePart("HOUR")},
		"minute":            {"(date or timestamp)", 1, 1, bindDatePart("MINUTE")},
		"second":            {"(date or timestamp)", 1, 1, bindDatePart("SECOND")},
		"epoch":             {"(date or timestamp)", 1, 1, bindDatePart("EPOCH")},
		"epoch_ms":          {"(timestamp) or epoch_ms(milliseconds)", 1, 1, bindEpochMillis},
		"epoch_us":          {"(date or timestamp)", 1, 1, typed(FnEpochMicros, TypeBigint, temporalArg)},
		"unix_millis":       {"(timestamp)", 1, 1, typed(FnUnixMillis, TypeBigint, temporalArg)},
		"unix_micros":       {"(timestamp)", 1, 1, typed(FnEpochMicros, TypeBigint, temporalArg)},
		"unix_seconds":      {"(timestamp)", 1, 1, typed(FnUnixTimestamp, TypeBigint, temporalArg)},
		"extract":           {"(field FROM date or timestamp)", 2, 2, bindExtract},
		"date_part":         {"('field', date or timestamp)", 2, 2, bindExtract},
		"date_trunc":        {"('unit', date or timestamp)", 2, 2, bindDateTrunc},
		"datediff":          {"(end, start) or datediff('unit', start, end)", 2, 3, bindDateDiff},
		"date_add":          {"(date, days) or date_add('unit', n, timestamp)", 2, 3, bindDateAddForms},
		"date_sub":          {"(date, days)", 2, 2, bindDateAdd(true)},
		"make_date":         {"(year, month, day)", 3, 3, typed(FnMakeDate, TypeDate, intArg, intArg, intArg)},
		"last_day":          {"(date)", 1, 1, typed(FnLastDay, TypeDate, dateArg)},
		"timezone":          {"('zone', timestamp)", 2, 2, bindTimezone},
		"date_format":       {"(timestamp, 'pattern')", 2, 2, bindDateFormat},
		"strftime":          {"(timestamp, 'pattern')", 2, 2, bindTimeFormat(value.FormatStrftime)},
		"to_char":           {"(timestamp, 'pattern')", 2, 2, bindTimeFormat(value.FormatPostgres)},
		"strptime":          {"(string, 'format')", 2, 2, bindStrptime(false)},
		"try_strptime":      {"(string, 'format')", 2, 2, bindStrptime(true)},
		"to_timestamp":      {"(string[, 'pattern']) or to_timestamp(seconds)", 1, 2, bindToTimestamp},
		"to_date":           {"(string[, 'pattern'])", 1, 2, bindSparkToDate},
		"from_unixtime":     {"(seconds[, 'pattern'])", 1, 2, bindFromUnixtime},
		"unix_timestamp":    {"([timestamp or string[, 'pattern']])", 0, 2, bindUnixTimestamp},
		"current_date":      {"()", 0, 0, bindNow(TypeDate)},
		"current_time":      {"()", 0, 0, bindNow(TypeTime)},
		"current_timestamp": {"()", 0, 0, bindNow(TypeTimestampTZ)},
		"convert_tz":        {"(datetime, 'from zone', 'to zone')", 3, 3, bindConvertTZ},
		"timediff":          {"(end, start)", 2, 2, bindTimeDiff},
		"time_format":       {"(time, 'format')", 2, 2, bindDurationFormat},

		"list_contains":  {"(array, value)", 2, 2, bindListContains},
		"array_sort":     {"(array)", 1, 1, bindArraySort},
		"list_sort":      {"(array[, 'ASC' or 'DESC'])", 1, 2, bindArraySort},
		"array_distinct": {"(array)", 1, 1, bindArrayDistinct},
		"array_join":     {"(array, separator[, null_replacement])", 2, 3, bindArrayJoin},
		"list_concat":    {"(array, …)", 1, -1, bindListConcat},

		// DuckDB's and Spark's list and map functions (bind_func_list.go,
		// bind_func_map.go, bind_func_zip.go, bind_func_sequence.go); the
		// list aggregates come from listAggregateFunctions.
		"list_reverse":     {"(array)", 1, 1, bindListSameType(FnListReverse)},
		"list_slice":       {"(array or string, begin, end[, step])", 3, 4, bindListSlice},
		"slice":            {"(array, start, length)", 3, 3, bindListSameType(FnSlice)},
		"flatten":          {"(array of arrays)", 1, 1, bindFlatten},
		"array_compact":    {"(array)", 1, 1, bindListSameType(FnArrayCompact)},
		"array_remove":     {"(array, value)", 2, 2, bindListValue(FnArrayRemove, nil)},
		"list_position":    {"(array, value)", 2, 2, bindListPosition},
		"array_position":   {"(array, value)", 2, 2, bindListValue(FnArrayPosition, TypeBigint)},
		"list_append":      {"(array, value)", 2, 2, bindListAppend(false)},
		"list_prepend":     {"(value, array)", 2, 2, bindListAppend(true)},
		"array_push_front": {"(array, value)", 2, 2, bindArrayPushFront},
		"list_extract":     {"(array, index)", 2, 2, bindListExtract},
		"array_size":       {"(array)", 1, 1, bindArraySize},
		"array_repeat":     {"(value, count)", 2, 2, bindArrayRepeat},
		"list_distinct":    {"(array)", 1, 1, bindListDistinct},
		"array_union":      {"(array, array)", 2, 2, bindArrayUnion},
		"array_intersect":  {"(array, array)", 2, 2, bindListPair(FnArrayIntersect, nil)},
		"array_except":     {"(array, array)", 2, 2, bindListPair(FnArrayExcept, nil)},
		"list_has_any":     {"(array, array)", 2, 2, bindListPair(FnListHasAny, TypeBoolean)},
		"list_has_all":     {"(array, array)", 2, 2, bindListPair(FnListHasAll, TypeBoolean)},
		"arrays_overlap":   {"(array, array)", 2, 2, bindListPair(FnArraysOverlap, TypeBoolean)},
		"map_entries":      {"(map)", 1, 1, bindMapEntries},
		"map_from_entries": {"(array of (key, value) structs)", 1, 1, bindMapFromEntries},
		"map_concat":       {"(map, …)", 1, -1, bindMapConcat},
		"sequence":         {"(start, stop[, step])", 2, 3, bindSequence},
		"list_zip":         {"(array, …)", 1, -1, bindZip(FnListZip)},
		"arrays_zip":       {"(array, …)", 1, -1, bindZip(FnArraysZip)},
		"str_to_map":       {"(text[, pair delimiter[, key-value delimiter]])", 1, 3, withDefaults(typed(FnStrToMap, arrow.MapOf(TypeVarchar, TypeVarchar), str, str, str), stringLit(","), stringLit(":"))},
	}
	maps.Copy(scalarFunctions, nestedFunctions())
	maps.Copy(scalarFunctions, bitwiseFunctions())
	maps.Copy(scalarFunctions, jsonFunctions())
	maps.Copy(scalarFunctions, listAggregateFunctions())
	maps.Copy(scalarFunctions, trinoDateTimeFunctions())
	maps.Copy(functionAliases, trinoDateTimeAliases)
	maps.Copy(scalarFunctions, trinoFunctions())
	maps.Copy(functionAliases, trinoAliases)
	maps.Copy(scalarFunctions, sparkFunctions())
}

// lookupFunction finds a scalar function by name or alias.
func lookupFunction(name string) (*funcSpec, bool) {
	if canonical, ok := functionAliases[name]; ok {
		name = canonical
	}
	spec, ok := scalarFunctions[name]
	return spec, ok
}

// windowNames are the functions that exist only with OVER.
var windowNames = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// IsAggregateFunction reports whether name (lower case) is an aggregate
// function; the aggregation binder (bind_aggregate.go) owns the list.
func IsAggregateFunction(name string) bool {
	_, ok := aggregateFns[name]
	return ok
}

// unknownFunction reports a name no function has, suggesting the nearest.
// A generator reaches it only from inside an expression: a whole item of
// the select list is bound as a generator (bind_select_generator.go).
func unknownFunction(name string, pos sql.Pos) error {
	if generators[name] {
		return kindErrorf(ErrUnsupported, pos, "%s must be a whole item of the select list (SELECT id, %s(a) AS x FROM t) or a table in FROM (LATERAL VIEW %s(a) g AS x); it cannot be part of an expression", name, name, name)
	}
	known := slices.Concat(slices.Collect(maps.Keys(scalarFunctions)), slices.Collect(maps.Keys(functionAliases)),
		slices.Collect(maps.Keys(aggregateFns)), slices.Collect(maps.Keys(windowNames)))
	slices.Sort(known) // ties go to the alphabetically first name, deterministically
	if best := sql.Closest(name, known); best != "" {
		return kindErrorf(ErrUnknownFunction, pos, "unknown function %s (did you mean %s?)", name, best)
	}
	return kindErrorf(ErrUnknownFunction, pos, "unknown function %s", name)
}

// requireStringConstant returns the upper-cased text of a string literal
// argument (a unit or field name).
func requireStringConstant(c *funcCall, i int, what string) (string, error) {
	lit, ok := c.args[i].(*Literal)
	if !ok || !isString(lit.T) || lit.Value == nil {
		return "", errorf(c.pos, "%s: the %s must be a constant string", c.name, what)
	}
	return strings.ToUpper(lit.Value.(string)), nil
}

// oneOf checks that name is one of the allowed names.
func oneOf(c *funcCall, what, name string, allowed []string) error {
	if slices.Contains(allowed, name) {
		return nil
	}
	return errorf(c.pos, "%s: unknown %s %s (expected one of %s)", c.name, what, name, strings.Join(allowed, ", "))
}
