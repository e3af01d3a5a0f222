package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
)

func num(v int64) decimal128.Num { return decimal128.FromI64(v) }

func TestArithmetic(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"int add literal", call(planner.FnAdd, tInt, ref("i"), lit(int32(1), tInt)), "error: integer overflow in (i + 1)"},
		{"int add", call(planner.FnAdd, tInt, ref("j"), ref("j")), "6|0|10|NULL|-2"},
		{"int sub", call(planner.FnSub, tInt, lit(int32(0), tInt), ref("j")), "-3|0|-5|NULL|1"},
		{"int sub overflow", call(planner.FnSub, tInt, lit(int32(-2), tInt), ref("i")), "error: integer overflow in (-2 - i)"},
		{"int mul", call(planner.FnMul, tInt, ref("i"), ref("j")), "3|0|NULL|NULL|0"},
		{"int mul overflow", call(planner.FnMul, tInt, ref("i"), lit(int32(2), tInt)), "error: integer overflow in (i * 2)"},
		{"int div by zero is NULL", call(planner.FnDiv, tInt, ref("i"), ref("j")), "0|NULL|NULL|NULL|0"},
		{"int mod", call(planner.FnMod, tInt, ref("j"), lit(int32(2), tInt)), "1|0|1|NULL|-1"},
		{"int mod zero", call(planner.FnMod, tInt, ref("i"), ref("j")), "1|NULL|NULL|NULL|0"},
		{"int neg", call(planner.FnNeg, tInt, ref("j")), "-3|0|-5|NULL|1"},
		{"bigint add overflow", call(planner.FnAdd, tBig, ref("b"), lit(int64(1), tBig)), "error: integer overflow in (b + 1)"},
		{"bigint mul", call(planner.FnMul, tBig, ref("b"), lit(int64(-1), tBig)), "-10|-20|NULL|-9223372036854775807|5"},
		{"bigint neg min", call(planner.FnNeg, tBig, lit(int64(-9223372036854775808), tBig)), "error: integer overflow in neg(-9223372036854775808)"},
		{"bigint null literal", call(planner.FnAdd, tBig, ref("b"), lit(nil, tBig)), "NULL|NULL|NULL|NULL|NULL"},
		{"double add", call(planner.FnAdd, tDouble, ref("d"), lit(1.0, tDouble)), "2.5|-1.5|NULL|1e+20|1.0"},
		{"double div zero", call(planner.FnDiv, tDouble, lit(1.0, tDouble), ref("d")), "0.6666666666666666|-0.4|NULL|1e-20|NULL"},
		{"double mod", call(planner.FnMod, tDouble, ref("d"), lit(1.0, tDouble)), "0.5|-0.5|NULL|0.0|0.0"},
		{"float mul", call(planner.FnMul, tFloat, ref("f"), lit(float32(2), tFloat)), "3.0|-4.5|NULL|inf|0.0"},
		{"double neg", call(planner.FnNeg, tDouble, ref("d")), "-1.5|2.5|NULL|-1e+20|-0.0"},
	})
}

func TestDecimalArithmetic(t *testing.T) {
	m := ref("m")
	runEvalCases(t, testCols, []evalCase{
		{"add same scale", call(planner.FnAdd, dec(11, 2), m, m), "2.50|-7.00|NULL|199999999.98|0.00"},
		{"add overflow", call(planner.FnAdd, dec(10, 2), m, m), "error: decimal overflow in (m + m)"},
		{"add rescaled", call(planner.FnAdd, dec(12, 3), m, lit(num(1), dec(10, 2))), "1.260|-3.490|NULL|100000000.000|0.010"},
		{"sub", call(planner.FnSub, dec(11, 2), m, lit(num(125), dec(10, 2))), "0.00|-4.75|NULL|99999998.74|-1.25"},
		{"mul", call(planner.FnMul, dec(21, 4), m, m), "1.5625|12.2500|NULL|9999999998000000.0001|0.0000"},
		{"mul rounds", call(planner.FnMul, dec(20, 2), m, lit(num(5), dec(10, 2))), "0.06|-0.18|NULL|5000000.00|0.00"},
		{"div", call(planner.FnDiv, dec(20, 6), m, lit(num(300), dec(10, 2))), "0.416667|-1.166667|NULL|33333333.330000|0.000000"},
		{"div by zero", call(planner.FnDiv, dec(20, 6), lit(num(100), dec(10, 2)), m), "0.800000|-0.285714|NULL|0.000000|NULL"},
		{"mod", call(planner.FnMod, dec(10, 2), m, lit(num(100), dec(10, 2))), "0.25|-0.50|NULL|0.99|0.00"},
		{"neg", call(planner.FnNeg, dec(10, 2), m), "-1.25|3.50|NULL|-99999999.99|0.00"},
	})
}

func TestComparisons(t *testing.T) {
	cmp := func(fn string, a, b planner.Expr) planner.Expr { return call(fn, tBool, a, b) }
	runEvalCases(t, testCols, []evalCase{
		{"int eq", cmp(planner.FnEq, ref("i"), lit(int32(1), tInt)), "true|false|NULL|false|false"},
		{"int ne", cmp(planner.FnNe, ref("i"), lit(int32(1), tInt)), "false|true|NULL|true|true"},
		{"int lt", cmp(planner.FnLt, ref("i"), ref("j")), "true|true|NULL|NULL|false"},
		{"int le", cmp(planner.FnLe, ref("i"), lit(int32(0), tInt)), "false|true|NULL|false|true"},
		{"int gt literal left", cmp(planner.FnGt, lit(int32(0), tInt), ref("i")), "false|true|NULL|false|false"},
		{"int ge", cmp(planner.FnGe, ref("i"), lit(int32(0), tInt)), "true|false|NULL|true|true"},
		{"bigint gt", cmp(planner.FnGt, ref("b"), lit(int64(10), tBig)), "false|true|NULL|true|false"},
		{"double lt", cmp(planner.FnLt, ref("d"), lit(0.0, tDouble)), "false|true|NULL|false|false"},
		{"float ge", cmp(planner.FnGe, ref("f"), lit(float32(1.5), tFloat)), "true|false|NULL|true|false"},
		{"string eq", cmp(planner.FnEq, ref("s"), lit("abc", tStr)), "true|false|NULL|false|false"},
		{"string lt bytewise", cmp(planner.FnLt, ref("s"), lit("abc", tStr)), "false|true|NULL|true|true"},
		{"string ge", cmp(planner.FnGe, ref("s"), lit("ABC", tStr)), "true|true|NULL|false|true"},
		{"binary gt", cmp(planner.FnGt, ref("bin"), lit([]byte("a"), tBin)), "false|true|NULL|false|true"},
		{"bool lt", cmp(planner.FnLt, ref("t"), lit(true, tBool)), "false|true|NULL|false|true"},
		{"bool eq", cmp(planner.FnEq, ref("t"), lit(false, tBool)), "false|true|NULL|false|true"},
		{"decimal le", cmp(planner.FnLe, ref("m"), lit(num(125), dec(10, 2))), "true|true|NULL|false|true"},
		{"decimal gt", cmp(planner.FnGt, ref("m"), ref("m")), "false|false|NULL|false|false"},
		{"date lt", cmp(planner.FnLt, ref("dt"), lit(int32(0), tDate)), "false|true|NULL|false|false"},
		{"timestamp ge", cmp(planner.FnGe, ref("ts"), lit(int64(0), tTs)), "true|false|NULL|true|true"},
		{"null literal", cmp(planner.FnEq, ref("i"), lit(nil, tInt)), "NULL|NULL|NULL|NULL|NULL"},
		{"is distinct", cmp(planner.FnIsDistinct, ref("i"), ref("j")), "true|true|true|true|true"},
		{"is distinct null", cmp(planner.FnIsDistinct, ref("s"), lit(nil, tStr)), "true|true|false|true|true"},
		{"is not distinct", cmp(planner.FnIsNotDistinct, ref("s"), lit("abc", tStr)), "true|false|false|false|false"},
		{"is not distinct self", cmp(planner.FnIsNotDistinct, ref("m"), ref("m")), "true|true|true|true|true"},
	})
}

func TestNaNOrdering(t *testing.T) {
	cols := []column{{"d", tDouble, `[1, 2]`}}
	nan := call(planner.FnDiv, tDouble, lit(0.0, tDouble), lit(0.0, tDouble)) // NULL, not NaN
	runEvalCases(t, cols, []evalCase{
		{"zero over zero is NULL", nan, "NULL|NULL"},
	})
	for _, c := range []struct {
		fn   func(x, y float64) bool
		x, y float64
		want bool
	}{
		{ordLess[float64], 1, nanValue(), true},
		{ordLess[float64], nanValue(), 1, false},
		{ordEq[float64], nanValue(), nanValue(), true},
		{ordLess[float64], nanValue(), nanValue(), false},
	} {
		if got := c.fn(c.x, c.y); got != c.want {
			t.Errorf("(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestThreeValuedLogic(t *testing.T) {
	cols := []column{
		{"a", tBool, `[true, true, true, false, false, false, null, null, null]`},
		{"b", tBool, `[true, false, null, true, false, null, true, false, null]`},
	}
	a := &planner.ColumnRef{Index: 0, Name: "a", T: tBool}
	b := &planner.ColumnRef{Index: 1, Name: "b", T: tBool}
	runEvalCases(t, cols, []evalCase{
		{"and", call(planner.FnAnd, tBool, a, b), "true|false|NULL|false|false|false|NULL|false|NULL"},
		{"or", call(planner.FnOr, tBool, a, b), "true|true|true|true|false|NULL|true|NULL|NULL"},
		{"and false literal", call(planner.FnAnd, tBool, a, lit(false, tBool)), "false|false|false|false|false|false|false|false|false"},
		{"or true literal", call(planner.FnOr, tBool, lit(true, tBool), b), "true|true|true|true|true|true|true|true|true"},
		{"and null literal", call(planner.FnAnd, tBool, a, lit(nil, tBool)), "NULL|NULL|NULL|false|false|false|NULL|NULL|NULL"},
		{"or three", call(planner.FnOr, tBool, a, b, lit(false, tBool)), "true|true|true|true|false|NULL|true|NULL|NULL"},
		{"not", call(planner.FnNot, tBool, a), "false|false|false|true|true|true|NULL|NULL|NULL"},
		{"is null", call(planner.FnIsNull, tBool, b), "false|false|true|false|false|true|false|false|true"},
		{"is not null", call(planner.FnIsNotNull, tBool, b), "true|true|false|true|true|false|true|true|false"},
		{"is true", call(planner.FnIsTrue, tBool, b), "true|false|false|true|false|false|true|false|false"},
		{"is false", call(planner.FnIsFalse, tBool, b), "false|true|false|false|true|false|false|true|false"},
		{"is false null literal", call(planner.FnIsFalse, tBool, lit(nil, tBool)), "false|false|false|false|false|false|false|false|false"},
	})
}

func TestNullFunctions(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"is null int", call(planner.FnIsNull, tBool, ref("i")), "false|false|true|false|false"},
		{"is not null string", call(planner.FnIsNotNull, tBool, ref("s")), "true|true|false|true|true"},
		{"coalesce", call(planner.FnCoalesce, tInt, ref("i"), ref("j"), lit(int32(7), tInt)), "1|-2|5|2147483647|0"},
		{"coalesce all null", call(planner.FnCoalesce, tStr, ref("s"), lit(nil, tStr)), "abc|a%c|NULL||ABC"},
		{"coalesce is lazy", call(planner.FnCoalesce, tInt, lit(int32(1), tInt), call(planner.FnAdd, tInt, ref("i"), ref("i"))), "1|1|1|1|1"},
		{"coalesce decimal", call(planner.FnCoalesce, dec(10, 2), ref("m"), lit(num(-1), dec(10, 2))), "1.25|-3.50|-0.01|99999999.99|0.00"},
		{"nullif", call(planner.FnNullIf, tInt, ref("j"), lit(int32(0), tInt)), "3|NULL|5|NULL|-1"},
		{"nullif strings", call(planner.FnNullIf, tStr, ref("s"), lit("", tStr)), "abc|a%c|NULL|NULL|ABC"},
		{"nullif null", call(planner.FnNullIf, tInt, ref("j"), lit(nil, tInt)), "3|0|5|NULL|-1"},
	})
}

func TestIn(t *testing.T) {
	in := func(args ...planner.Expr) planner.Expr { return call(planner.FnIn, tBool, args...) }
	runEvalCases(t, testCols, []evalCase{
		{"ints", in(ref("i"), lit(int32(1), tInt), lit(int32(0), tInt)), "true|false|NULL|false|true"},
		{"ints with null", in(ref("i"), lit(int32(1), tInt), lit(nil, tInt)), "true|NULL|NULL|NULL|NULL"},
		{"strings", in(ref("s"), lit("abc", tStr), lit("", tStr)), "true|false|NULL|true|false"},
		{"decimals", in(ref("m"), lit(num(125), dec(10, 2))), "true|false|NULL|false|false"},
		{"bools", in(ref("t"), lit(false, tBool)), "false|true|NULL|false|true"},
		{"dates", in(ref("dt"), lit(int32(0), tDate)), "false|false|NULL|true|false"},
		{"binary", in(ref("bin"), lit([]byte("abc"), tBin)), "false|true|NULL|false|false"},
		{"columns", in(ref("i"), ref("j"), lit(int32(-2), tInt)), "false|true|NULL|NULL|false"},
		{"null needle", in(lit(nil, tInt), ref("i")), "NULL|NULL|NULL|NULL|NULL"},
	})
}

func TestStrings(t *testing.T) {
	like := func(x planner.Expr, p string, esc ...planner.Expr) planner.Expr {
		return call(planner.FnLike, tBool, append([]planner.Expr{x, lit(p, tStr)}, esc...)...)
	}
	ilike := func(x planner.Expr, p string) planner.Expr { return call(planner.FnILike, tBool, x, lit(p, tStr)) }
	runEvalCases(t, testCols, []evalCase{
		{"concat", call(planner.FnConcat, tStr, ref("s"), lit("-", tStr), ref("s")), "abc-abc|a%c-a%c|NULL|-|ABC-ABC"},
		{"concat null", call(planner.FnConcat, tStr, ref("s"), lit(nil, tStr)), "NULL|NULL|NULL|NULL|NULL"},
		{"like exact", like(ref("s"), "abc"), "true|false|NULL|false|false"},
		{"like prefix", like(ref("s"), "a%"), "true|true|NULL|false|false"},
		{"like suffix", like(ref("s"), "%c"), "true|true|NULL|false|false"},
		{"like contains", like(ref("s"), "%b%"), "true|false|NULL|false|false"},
		{"like all", like(ref("s"), "%"), "true|true|NULL|true|true"},
		{"like underscore", like(ref("s"), "a_c"), "true|true|NULL|false|false"},
		{"like escaped percent", like(ref("s"), `a\%c`), "false|true|NULL|false|false"},
		{"like custom escape", like(ref("s"), "a#%%", lit("#", tStr)), "false|true|NULL|false|false"},
		{"like no escape", like(ref("s"), `%\%`, lit("", tStr)), "false|false|NULL|false|false"},
		{"like regexp chars", like(lit("a.b(c)*", tStr), "a.b(_)*"), "true|true|true|true|true"},
		{"like dot is literal", like(lit("axb", tStr), "a.b"), "false|false|false|false|false"},
		{"like newline", like(lit("a\nb", tStr), "a_b"), "true|true|true|true|true"},
		{"like multibyte underscore", like(lit("aéb", tStr), "a_b"), "true|true|true|true|true"},
		{"like pattern column", call(planner.FnLike, tBool, lit("a%c", tStr), ref("s")), "false|true|NULL|false|false"},
		{"like trailing escape", like(ref("s"), `a\`), `error: like(s, 'a\'): LIKE pattern "a\\" ends with the escape character`},
		{"ilike", ilike(ref("s"), "abc"), "true|false|NULL|false|true"},
		{"ilike prefix", ilike(ref("s"), "A%"), "true|true|NULL|false|true"},
		{"like null pattern", call(planner.FnLike, tBool, ref("s"), lit(nil, tStr)), "NULL|NULL|NULL|NULL|NULL"},
	})
}

func TestCase(t *testing.T) {
	i, j := ref("i"), ref("j")
	gt0 := call(planner.FnGt, tBool, i, lit(int32(0), tInt))
	runEvalCases(t, testCols, []evalCase{
		{"searched", &planner.Case{
			Whens: []planner.CaseWhen{
				{Cond: gt0, Result: lit("pos", tStr)},
				{Cond: call(planner.FnLt, tBool, i, lit(int32(0), tInt)), Result: lit("neg", tStr)},
			},
			Else: lit("zero or null", tStr), T: tStr,
		}, "pos|neg|zero or null|pos|zero or null"},
		{"null condition does not match", &planner.Case{
			Whens: []planner.CaseWhen{{Cond: call(planner.FnEq, tBool, j, lit(nil, tInt)), Result: lit(int32(1), tInt)}},
			Else:  lit(int32(2), tInt), T: tInt,
		}, "2|2|2|2|2"},
		{"no else", &planner.Case{
			Whens: []planner.CaseWhen{{Cond: call(planner.FnIsNull, tBool, i), Result: j}},
			Else:  lit(nil, tInt), T: tInt,
		}, "NULL|NULL|5|NULL|NULL"},
		{"results only on their rows", &planner.Case{
			// i * 2 overflows on row 3, which the first arm takes.
			Whens: []planner.CaseWhen{
				{Cond: call(planner.FnGt, tBool, i, lit(int32(1000), tInt)), Result: lit(int32(-1), tInt)},
				{Cond: lit(true, tBool), Result: call(planner.FnMul, tInt, i, lit(int32(2), tInt))},
			},
			Else: lit(nil, tInt), T: tInt,
		}, "2|-4|NULL|-1|0"},
		{"column result", &planner.Case{
			Whens: []planner.CaseWhen{{Cond: ref("t"), Result: ref("s")}},
			Else:  lit("-", tStr), T: tStr,
		}, "abc|-|-||-"},
	})
}

func TestLiteralAndColumn(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"int literal", lit(int32(7), tInt), "7|7|7|7|7"},
		{"null literal", lit(nil, planner.TypeNull), "NULL|NULL|NULL|NULL|NULL"},
		{"string literal", lit("x", tStr), "x|x|x|x|x"},
		{"decimal literal", lit(num(-5), dec(5, 1)), "-0.5|-0.5|-0.5|-0.5|-0.5"},
		{"date literal", lit(int32(-1), tDate), "1969-12-31|1969-12-31|1969-12-31|1969-12-31|1969-12-31"},
		{"timestamptz literal", lit(int64(-1), tTsTZ), "1969-12-31 23:59:59.999999+00|1969-12-31 23:59:59.999999+00|1969-12-31 23:59:59.999999+00|1969-12-31 23:59:59.999999+00|1969-12-31 23:59:59.999999+00"},
		{"column", ref("s"), "abc|a%c|NULL||ABC"},
		{"bad column", &planner.ColumnRef{Index: 99, Name: "zz", T: tInt}, "error: column zz: index 99 out of range for a batch of 12 columns"},
		{"unknown function", call("frobnicate", tInt, ref("i")), "error: unknown function \"frobnicate\" in frobnicate(i)"},
	})
}
