package expr

import (
	"testing"

	"github.com/lakesql/lakesql/planner"
)

func TestCastNumbers(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"int to bigint", cast(ref("i"), tBig), "1|-2|NULL|2147483647|0"},
		{"bigint to int overflow", cast(ref("b"), tInt), "error: cannot cast 9223372036854775807 to INT"},
		{"bigint to int try", tryCast(ref("b"), tInt), "10|20|NULL|NULL|-5"},
		{"double to int rounds half away", cast(ref("d"), tBig), "error: cannot cast 1e+20 to BIGINT"},
		{"double to int try", tryCast(ref("d"), tInt), "2|-3|NULL|NULL|0"},
		{"int to double", cast(ref("i"), tDouble), "1.0|-2.0|NULL|2147483647.0|0.0"},
		{"double to float overflow", tryCast(ref("d"), tFloat), "1.5|-2.5|NULL|1e+20|0.0"},
		{"float to double", cast(ref("f"), tDouble), "1.5|-2.25|NULL|3.0000000054977558e+38|0.0"},
		{"int to decimal", cast(ref("j"), dec(5, 2)), "3.00|0.00|5.00|NULL|-1.00"},
		{"int to decimal overflow", tryCast(ref("i"), dec(5, 2)), "1.00|-2.00|NULL|NULL|0.00"},
		{"int to decimal scale 0", cast(ref("j"), dec(10, 0)), "3|0|5|NULL|-1"},
		{"int to decimal scale 0 overflow", tryCast(ref("i"), dec(2, 0)), "1|-2|NULL|NULL|0"},
		{"double to decimal rounds", cast(lit(2.675, tDouble), dec(5, 2)), "2.68|2.68|2.68|2.68|2.68"},
		{"double to decimal negative", cast(ref("d"), dec(4, 0)), "error: cannot cast 1e+20 to DECIMAL(4,0)"},
		{"decimal to int rounds", cast(ref("m"), tInt), "1|-4|NULL|100000000|0"},
		{"decimal to double", cast(ref("m"), tDouble), "1.25|-3.5|NULL|99999999.99|0.0"},
		{"decimal rescale down", cast(ref("m"), dec(10, 1)), "1.3|-3.5|NULL|100000000.0|0.0"},
		{"decimal rescale up overflow", tryCast(ref("m"), dec(10, 4)), "1.2500|-3.5000|NULL|NULL|0.0000"},
		{"bool to int", cast(ref("t"), tInt), "1|0|NULL|1|0"},
		{"int to bool", cast(ref("j"), tBool), "true|false|true|NULL|true"},
		{"null to int", cast(lit(nil, planner.TypeNull), tInt), "NULL|NULL|NULL|NULL|NULL"},
	})
}

func TestCastTemporal(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"date to timestamp", cast(ref("dt"), tTs), "2024-01-31 00:00:00|1969-12-31 00:00:00|NULL|1970-01-01 00:00:00|2000-02-29 00:00:00"},
		{"date to timestamptz", cast(ref("dt"), tTsTZ), "2024-01-31 00:00:00+00|1969-12-31 00:00:00+00|NULL|1970-01-01 00:00:00+00|2000-02-29 00:00:00+00"},
		{"timestamp to date floors", cast(ref("ts"), tDate), "1970-01-01|1969-12-31|NULL|2023-11-14|1970-01-02"},
		{"timestamp to timestamptz", cast(ref("ts"), tTsTZ), "1970-01-01 00:00:00+00|1969-12-31 23:59:59.999999+00|NULL|2023-11-14 22:13:20.123456+00|1970-01-02 00:00:00+00"},
		{"timestamptz to timestamp", cast(ref("tz"), tTs), "1970-01-01 00:00:00|1969-12-31 23:59:59.999999|NULL|2023-11-14 22:13:20.123456|1970-01-02 00:00:00"},
		{"timestamp to time", cast(ref("ts"), tTime), "00:00:00|23:59:59.999999|NULL|22:13:20.123456|00:00:00"},
	})
}

func TestCastToString(t *testing.T) {
	runEvalCases(t, testCols, []evalCase{
		{"int", cast(ref("i"), tStr), "1|-2|NULL|2147483647|0"},
		{"double", cast(ref("d"), tStr), "1.5|-2.5|NULL|1e+20|0.0"},
		{"float", cast(ref("f"), tStr), "1.5|-2.25|NULL|3e+38|0.0"},
		{"bool", cast(ref("t"), tStr), "true|false|NULL|true|false"},
		{"decimal", cast(ref("m"), tStr), "1.25|-3.50|NULL|99999999.99|0.00"},
		{"date", cast(ref("dt"), tStr), "2024-01-31|1969-12-31|NULL|1970-01-01|2000-02-29"},
		{"timestamp", cast(ref("ts"), tStr), "1970-01-01 00:00:00|1969-12-31 23:59:59.999999|NULL|2023-11-14 22:13:20.123456|1970-01-02 00:00:00"},
		{"timestamptz", cast(ref("tz"), tStr), "1970-01-01 00:00:00+00|1969-12-31 23:59:59.999999+00|NULL|2023-11-14 22:13:20.123456+00|1970-01-02 00:00:00+00"},
		{"binary", cast(ref("bin"), tStr), `\x00\x01|abc|NULL||\xFF`},
	})
}

func TestCastFromString(t *testing.T) {
	strs := []column{{"s", tStr, `["42", " -7 ", null, "abc", "1.5"]`}}
	s := &planner.ColumnRef{Index: 0, Name: "s", T: tStr}
	sv := func(v string) planner.Expr { return lit(v, tStr) }
	runEvalCases(t, strs, []evalCase{
		{"int error", cast(s, tInt), "error: cannot cast 'abc' to INT"},
		{"int try", tryCast(s, tInt), "42|-7|NULL|NULL|NULL"},
		{"bigint try", tryCast(s, tBig), "42|-7|NULL|NULL|NULL"},
		{"double try", tryCast(s, tDouble), "42.0|-7.0|NULL|NULL|1.5"},
		{"float try", tryCast(s, tFloat), "42.0|-7.0|NULL|NULL|1.5"},
		{"decimal try", tryCast(s, dec(4, 1)), "42.0|-7.0|NULL|NULL|1.5"},
		{"bool", cast(sv("TRUE"), tBool), "true|true|true|true|true"},
		{"bool try", tryCast(s, tBool), "NULL|NULL|NULL|NULL|NULL"},
		{"date", cast(sv("1969-12-31"), tDate), "1969-12-31|1969-12-31|1969-12-31|1969-12-31|1969-12-31"},
		{"date invalid", cast(sv("2023-02-29"), tDate), "error: cannot cast '2023-02-29' to DATE"},
		{"timestamp", cast(sv("1969-12-31 23:59:59.999999"), tTs), "1969-12-31 23:59:59.999999|1969-12-31 23:59:59.999999|1969-12-31 23:59:59.999999|1969-12-31 23:59:59.999999|1969-12-31 23:59:59.999999"},
		{"timestamp T", cast(sv("2024-03-01T12:30"), tTs), "2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00"},
		{"timestamp offset ignored, as in constants", cast(sv("2024-03-01 12:30:00+02"), tTs), "2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00|2024-03-01 12:30:00"},
		{"timestamptz offset", cast(sv("2024-03-01 12:30:00+02:00"), tTsTZ), "2024-03-01 10:30:00+00|2024-03-01 10:30:00+00|2024-03-01 10:30:00+00|2024-03-01 10:30:00+00|2024-03-01 10:30:00+00"},
		{"timestamptz Z", cast(sv("2024-03-01T12:30:00.5Z"), tTsTZ), "2024-03-01 12:30:00.5+00|2024-03-01 12:30:00.5+00|2024-03-01 12:30:00.5+00|2024-03-01 12:30:00.5+00|2024-03-01 12:30:00.5+00"},
		{"time", cast(sv("13:45:00.25"), tTime), "13:45:00.25|13:45:00.25|13:45:00.25|13:45:00.25|13:45:00.25"},
		{"binary", cast(sv("ab"), tBin), "ab|ab|ab|ab|ab"},
		{"round trip double", cast(cast(lit(0.1, tDouble), tStr), tDouble), "0.1|0.1|0.1|0.1|0.1"},
	})
}
