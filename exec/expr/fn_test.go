package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/lakesql/lakesql/planner"
)

// fnCols are the columns the function kernel tests run over.
var fnCols = []column{
	{"s", tStr, `["héllo", "", null, "a,b,,c", "ÀB"]`},
	{"n", tBig, `[2, -1, 3, null, 0]`},
	{"d", tDouble, `[2.5, -2.5, null, 16, -0.0]`},
	{"dt", tDate, `["2024-02-29", "1969-12-31", null, "2026-01-31", "2000-12-31"]`},
	{"ts", tTs, `[0, -1, null, 1700000000123456, 951782400000000]`},
	{"m", dec(5, 2), `["1.25", "-3.55", null, "999.99", "0.00"]`},
}

func fref(name string) *planner.ColumnRef {
	for i, c := range fnCols {
		if c.Name == name {
			return &planner.ColumnRef{Index: i, Name: name, T: c.T}
		}
	}
	panic("no test column " + name)
}

func str(s string) *planner.Literal { return lit(s, tStr) }
func i64(v int64) *planner.Literal  { return lit(v, tBig) }

func TestStringFunctions(t *testing.T) {
	s := fref("s")
	runEvalCases(t, fnCols, []evalCase{
		{"length", call(planner.FnLength, tBig, s), "5|0|NULL|6|2"},
		{"upper", call(planner.FnUpper, tStr, s), "HÉLLO||NULL|A,B,,C|ÀB"},
		{"lower", call(planner.FnLower, tStr, s), "héllo||NULL|a,b,,c|àb"},
		{"reverse", call(planner.FnReverse, tStr, s), "olléh||NULL|c,,b,a|BÀ"},
		{"substr", call(planner.FnSubstr, tStr, s, i64(2), i64(2)), "él||NULL|,b|B"},
		{"substr negative start", call(planner.FnSubstr, tStr, s, i64(-2)), "lo||NULL|,c|ÀB"},
		{"substr column start", call(planner.FnSubstr, tStr, s, fref("n")), "éllo||NULL|NULL|ÀB"},
		{"left", call(planner.FnLeft, tStr, s, fref("n")), "hé||NULL|NULL|"},
		{"right", call(planner.FnRight, tStr, s, i64(2)), "lo||NULL|,c|ÀB"},
		{"repeat column count", call(planner.FnRepeat, tStr, s, fref("n")), "héllohéllo||NULL|NULL|"},
		{"repeat", call(planner.FnRepeat, tStr, str("ab"), i64(3)), "ababab|ababab|ababab|ababab|ababab"},
		{"lpad", call(planner.FnLPad, tStr, s, i64(4), str("é")), "héll|éééé|NULL|a,b,|ééÀB"},
		{"rpad", call(planner.FnRPad, tStr, s, i64(3), str("-")), "hél|---|NULL|a,b|ÀB-"},
		{"trim chars", call(planner.FnTrim, tStr, s, str("hoÀ")), "éll||NULL|a,b,,c|B"},
		{"ltrim", call(planner.FnLTrim, tStr, str("  x  "), str(" ")), "x  |x  |x  |x  |x  "},
		{"replace", call(planner.FnReplace, tStr, s, str(","), str(";")), "héllo||NULL|a;b;;c|ÀB"},
		{"split_part", call(planner.FnSplitPart, tStr, s, str(","), i64(3)), "||NULL||"},
		{"split_part last", call(planner.FnSplitPart, tStr, s, str(","), i64(-1)), "héllo||NULL|c|ÀB"},
		{"strpos", call(planner.FnStrpos, tBig, s, str("l")), "3|0|NULL|0|0"},
		{"contains", call(planner.FnContains, tBool, s, str("é")), "true|false|NULL|false|false"},
		{"starts_with empty", call(planner.FnStartsWith, tBool, s, str("")), "true|true|NULL|true|true"},
		{"ends_with", call(planner.FnEndsWith, tBool, s, str("c")), "false|false|NULL|true|false"},
		{"regexp_like", call(planner.FnRegexpLike, tBool, s, str("^[a-zé]+$")), "true|false|NULL|false|false"},
		{"regexp_replace all", call(planner.FnRegexpReplace, tStr, s, str("[lb]"), str("<$0>")), "hé<l><l>o||NULL|a,<b>,,c|ÀB"},
		{"regexp pattern column", call(planner.FnRegexpLike, tBool, str("abc"), s), "false|true|NULL|false|false"},
		{"bad regexp", call(planner.FnRegexpLike, tBool, s, str("(")), `error: regexp_like(s, '('): invalid regular expression "(": error parsing regexp: missing closing ): ` + "`(`"},
		{"null literal", call(planner.FnUpper, tStr, lit(nil, tStr)), "NULL|NULL|NULL|NULL|NULL"},
	})
}

func TestMathFunctions(t *testing.T) {
	d, m, n := fref("d"), fref("m"), fref("n")
	runEvalCases(t, fnCols, []evalCase{
		{"abs double", call(planner.FnAbs, tDouble, d), "2.5|2.5|NULL|16.0|0.0"},
		{"abs bigint", call(planner.FnAbs, tBig, n), "2|1|3|NULL|0"},
		{"abs overflow", call(planner.FnAbs, tBig, i64(-9223372036854775808)), "error: integer overflow in abs(-9223372036854775808)"},
		{"abs decimal", call(planner.FnAbs, dec(5, 2), m), "1.25|3.55|NULL|999.99|0.00"},
		{"sign", call(planner.FnSign, tInt, d), "1|-1|NULL|1|0"},
		{"sign decimal", call(planner.FnSign, tInt, m), "1|-1|NULL|1|0"},
		{"round double", call(planner.FnRound, tDouble, d, i64(0)), "3.0|-3.0|NULL|16.0|-0.0"},
		{"round double column digits", call(planner.FnRound, tDouble, lit(1234.5678, tDouble), n), "1234.57|1230.0|1234.568|NULL|1235.0"},
		{"round bigint", call(planner.FnRound, tBig, lit(int64(-155), tBig), i64(-1)), "-160|-160|-160|-160|-160"},
		{"round bigint far", call(planner.FnRound, tBig, lit(int64(9e18), tBig), i64(-19)), "error: integer overflow in round(9000000000000000000, -19)"},
		{"round decimal", call(planner.FnRound, dec(5, 1), m, i64(1)), "1.3|-3.6|NULL|1000.0|0.0"},
		{"round decimal negative digits", call(planner.FnRound, dec(4, 0), m, i64(-1)), "0|0|NULL|1000|0"},
		{"floor decimal", call(planner.FnFloor, dec(5, 0), m), "1|-4|NULL|999|0"},
		{"ceil decimal", call(planner.FnCeil, dec(5, 0), m), "2|-3|NULL|1000|0"},
		{"floor double", call(planner.FnFloor, tDouble, d), "2.0|-3.0|NULL|16.0|-0.0"},
		{"sqrt", call(planner.FnSqrt, tDouble, d), "1.5811388300841898|NULL|NULL|4.0|-0.0"},
		{"ln", call(planner.FnLn, tDouble, d), "0.9162907318741551|NULL|NULL|2.772588722239781|NULL"},
		{"log2", call(planner.FnLog2, tDouble, d), "1.3219280948873622|NULL|NULL|4.0|NULL"},
		{"power", call(planner.FnPower, tDouble, d, lit(0.5, tDouble)), "1.5811388300841898|NULL|NULL|4.0|0.0"},
		{"greatest", call(planner.FnGreatest, tDouble, d, lit(nil, tDouble), lit(0.0, tDouble)), "2.5|0.0|0.0|16.0|-0.0"},
		{"least strings", call(planner.FnLeast, tStr, fref("s"), str("b")), "b||b|a,b,,c|b"},
		{"greatest all null", call(planner.FnGreatest, tBig, n, lit(nil, tBig)), "2|-1|3|NULL|0"},
		{"least decimal", call(planner.FnLeast, dec(5, 2), m, lit(decimal128.FromI64(0), dec(5, 2))), "0.00|-3.55|0.00|0.00|0.00"},
	})
}

func TestDateTimeFunctions(t *testing.T) {
	dt, ts := fref("dt"), fref("ts")
	part := func(field string, x planner.Expr) planner.Expr {
		return call(planner.FnDatePart, tBig, str(field), x)
	}
	iv := func(months, days int32, nanos int64) *planner.Literal {
		return lit(arrow.MonthDayNanoInterval{Months: months, Days: days, Nanoseconds: nanos}, planner.TypeInterval)
	}
	runEvalCases(t, fnCols, []evalCase{
		{"year", part("YEAR", dt), "2024|1969|NULL|2026|2000"},
		{"quarter", part("QUARTER", ts), "1|4|NULL|4|1"},
		{"doy leap", part("DOY", dt), "60|365|NULL|31|366"},
		{"dayofweek", part("DAYOFWEEK", dt), "5|4|NULL|7|1"},
		{"dow", part("DOW", dt), "4|3|NULL|6|0"},
		{"iso week", part("WEEK", dt), "9|1|NULL|5|52"},
		{"second before 1970", part("SECOND", ts), "0|59|NULL|20|0"},
		{"hour of date", part("HOUR", dt), "0|0|NULL|0|0"},
		{"epoch", call(planner.FnEpoch, tDouble, ts), "0.0|-1e-06|NULL|1700000000.123456|951782400.0"},
		{"trunc month", call(planner.FnDateTrunc, tTs, str("MONTH"), ts), "1970-01-01 00:00:00|1969-12-01 00:00:00|NULL|2023-11-01 00:00:00|2000-02-01 00:00:00"},
		{"trunc week of date", call(planner.FnDateTrunc, tTs, str("WEEK"), dt), "2024-02-26 00:00:00|1969-12-29 00:00:00|NULL|2026-01-26 00:00:00|2000-12-25 00:00:00"},
		{"trunc second", call(planner.FnDateTrunc, tTs, str("SECOND"), ts), "1970-01-01 00:00:00|1969-12-31 23:59:59|NULL|2023-11-14 22:13:20|2000-02-29 00:00:00"},
		{"datediff days", call(planner.FnDateDiff, tBig, str("DAY"), dt, ts), "-19782|0|NULL|-809|-306"},
		{"datediff months", call(planner.FnDateDiff, tBig, str("MONTH"), ts, dt), "649|0|NULL|26|10"},
		{"date_add", call(planner.FnDateAdd, tDate, dt, fref("n")), "2024-03-02|1969-12-30|NULL|NULL|2000-12-31"},
		{"date_add range", call(planner.FnDateAdd, tDate, dt, i64(3e9)), "error: date_add: result out of range"},
		{"add month clamps", call(planner.FnAddInterval, tTs, dt, iv(1, 0, 0)), "2024-03-29 00:00:00|1970-01-31 00:00:00|NULL|2026-02-28 00:00:00|2001-01-31 00:00:00"},
		{"leap year minus year", call(planner.FnAddInterval, tTs, dt, iv(-12, 0, 0)), "2023-02-28 00:00:00|1968-12-31 00:00:00|NULL|2025-01-31 00:00:00|1999-12-31 00:00:00"},
		{"add days and time", call(planner.FnAddInterval, tTs, ts, iv(0, 1, 1500e6)), "1970-01-02 00:00:01.5|1970-01-02 00:00:01.499999|NULL|2023-11-15 22:13:21.623456|2000-03-01 00:00:01.5"},
		{"interval overflow", call(planner.FnAddInterval, tTs, ts, iv(0, 2e9, 0)), "error: add_interval: result out of range"},
		{"make_date leap day", call(planner.FnMakeDate, tDate, i64(2024), i64(2), i64(29)), "2024-02-29|2024-02-29|2024-02-29|2024-02-29|2024-02-29"},
		{"make_date invalid", call(planner.FnMakeDate, tDate, i64(2024), fref("n"), i64(29)), "error: make_date: invalid date: year 2024, month -1, day 29"},
		{"unix_timestamp", call(planner.FnUnixTimestamp, tBig, ts), "0|-1|NULL|1700000000|951782400"},
		{"from_unixtime", call(planner.FnFromUnixtime, tTs, fref("n")), "1970-01-01 00:00:02|1969-12-31 23:59:59|1970-01-01 00:00:03|NULL|1970-01-01 00:00:00"},
		{"from_unixtime double", call(planner.FnFromUnixtime, tTs, fref("d")), "1970-01-01 00:00:02.5|1969-12-31 23:59:57.5|NULL|1970-01-01 00:00:16|1970-01-01 00:00:00"},
	})
}
