package planner

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// Trino's scalar functions that DuckDB lacks or spells otherwise, as the
// Trino documentation defines them; DuckDB's names for the same functions
// (isnan, isinf, isfinite, to_hex, from_hex) are aliases. Date and time
// functions are in bind_func_trino_datetime.go.
const (
	// is_nan, is_infinite, is_finite(x DOUBLE) → BOOLEAN.
	FnIsNaN      = "is_nan"
	FnIsInfinite = "is_infinite"
	FnIsFinite   = "is_finite"
	// strpos_nth(s, sub STRING, n BIGINT) → BIGINT: the position of the
	// n-th occurrence of sub in s, counted from the end when n < 0; 0 when
	// there is none. Occurrences may overlap.
	FnStrposNth = "strpos_nth"
	// regexp_count(s, pattern STRING) → BIGINT: the number of matches.
	FnRegexpCount = "regexp_count"
	// from_utf8(b BINARY) → STRING: b with each invalid UTF-8 sequence
	// replaced by U+FFFD.
	FnFromUTF8 = "from_utf8"
	// codepoint(s STRING) → INT: the code point of the only character of
	// s; a string of another length is an error.
	FnCodepoint = "codepoint"
	// url_extract(url STRING, part STRING literal[, name STRING]) → STRING:
	// a part of url (protocol, host, port, path, query, fragment, or the
	// value of query parameter name), NULL when url has none or is no URI.
	FnURLExtract = "url_extract"
)

// trinoFunctions are the registry's entries for them; contains and
// strpos, whose other forms predate these, take the Trino forms in the
// registry itself (bindContains, bindStrposForms).
func trinoFunctions() map[string]*funcSpec {
	return map[string]*funcSpec{
		"is_nan":                {"(double)", 1, 1, typed(FnIsNaN, TypeBoolean, doubleArg)},
		"is_infinite":           {"(double)", 1, 1, typed(FnIsInfinite, TypeBoolean, doubleArg)},
		"is_finite":             {"(double)", 1, 1, typed(FnIsFinite, TypeBoolean, doubleArg)},
		"nan":                   {"()", 0, 0, doubleConstant(math.NaN())},
		"infinity":              {"()", 0, 0, doubleConstant(math.Inf(1))},
		"codepoint":             {"(string)", 1, 1, typed(FnCodepoint, TypeInt, stringArg)},
		"regexp_count":          {"(string, pattern)", 2, 2, bindRegexpCount},
		"to_utf8":               {"(string)", 1, 1, bindToUTF8},
		"from_utf8":             {"(binary)", 1, 1, typed(FnFromUTF8, TypeVarchar, accepting(isBinary, TypeBinary))},
		"url_extract_protocol":  {"(url)", 1, 1, bindURLExtract("protocol")},
		"url_extract_host":      {"(url)", 1, 1, bindURLExtract("host")},
		"url_extract_port":      {"(url)", 1, 1, bindURLExtract("port")},
		"url_extract_path":      {"(url)", 1, 1, bindURLExtract("path")},
		"url_extract_query":     {"(url)", 1, 1, bindURLExtract("query")},
		"url_extract_fragment":  {"(url)", 1, 1, bindURLExtract("fragment")},
		"url_extract_parameter": {"(url, name)", 2, 2, bindURLExtract("parameter")},
	}
}

// trinoAliases are DuckDB's names for Trino's functions, and Trino's
// names for functions lakesql has: to_hex and from_hex are DuckDB's hex
// and unhex (DuckDB has both names too), levenshtein_distance and
// hamming_distance count characters as levenshtein and hamming do, and
// truncate is DuckDB's trunc (a DECIMAL's scale becomes the digits kept,
// where Trino's keeps it: the same number).
var trinoAliases = map[string]string{
	"isnan": "is_nan", "isinf": "is_infinite", "isfinite": "is_finite",
	"to_hex": "hex", "from_hex": "unhex",
	"levenshtein_distance": "levenshtein", "hamming_distance": "hamming",
	"truncate": "trunc",
}

func doubleConstant(v float64) bindFn {
	return func(*binder, *funcCall) (Expr, error) { return &Literal{Value: v, T: TypeDouble}, nil }
}

func isBinary(t arrow.DataType) bool { return t.ID() == arrow.BINARY || t.ID() == arrow.LARGE_BINARY }

// bindContains binds contains(string, search) and contains(array, value),
// which is DuckDB's list_contains: FALSE, not Trino's NULL, when the array
// holds NULLs but not value.
func bindContains(b *binder, c *funcCall) (Expr, error) {
	if c.args[0].Type().ID() == arrow.LIST {
		return bindListContains(b, c)
	}
	return typed(FnContains, TypeBoolean, stringArg, stringArg)(b, c)
}

// bindStrposForms binds strpos(s, sub) and Trino's strpos(s, sub, n), the
// n-th occurrence (from the end when n < 0), which DuckDB does not have.
func bindStrposForms(b *binder, c *funcCall) (Expr, error) {
	if len(c.args) == 2 {
		return typed(FnStrpos, TypeBigint, stringArg, stringArg)(b, c)
	}
	x, err := typed(FnStrposNth, TypeBigint, stringArg, stringArg, intArg)(b, c)
	if err != nil {
		return nil, err
	}
	if call, ok := x.(*Call); ok {
		if lit, ok := call.Args[2].(*Literal); ok && lit.Value == int64(0) {
			return nil, errorf(c.pos, "%s: the instance must not be 0", c.name)
		}
	}
	return x, nil
}

// bindToUTF8 binds to_utf8(s): the bytes of s.
func bindToUTF8(_ *binder, c *funcCall) (Expr, error) {
	s, ok := stringArg(c.args[0])
	if !ok {
		return nil, c.mismatch()
	}
	return castTo(s, TypeBinary)
}

// bindURLExtract binds url_extract_part(url[, name]) onto url_extract(url,
// 'part'[, name]); the port is a BIGINT.
func bindURLExtract(part string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		args := []Expr{nil, stringLit(part)}
		for i, a := range c.args {
			s, ok := stringArg(a)
			if !ok {
				return nil, c.mismatch()
			}
			if i == 0 {
				args[0] = s
			} else {
				args = append(args, s)
			}
		}
		x := &Call{Fn: FnURLExtract, Args: args, T: TypeVarchar}
		if part == "port" {
			return &Cast{X: x, T: TypeBigint}, nil
		}
		return x, nil
	}
}

// bindRegexpCount binds regexp_count(s, pattern), checking a constant
// pattern here.
func bindRegexpCount(_ *binder, c *funcCall) (Expr, error) {
	args, _, err := regexpGroupArgs(c)
	if err != nil {
		return nil, err
	}
	return &Call{Fn: FnRegexpCount, Args: args, T: TypeBigint}, nil
}
