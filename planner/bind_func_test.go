package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
)

// bindText parses and binds a scalar expression over columns i INT, s
// STRING, d DATE, ts TIMESTAMP, m DECIMAL(5,2).
func bindFuncText(t *testing.T, text string) (Expr, error) {
	t.Helper()
	stmt, err := sql.ParseOne("SELECT " + text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	e := stmt.(*sql.QueryStmt).Query.Body.(*sql.Select).Items[0].Expr
	cols := []Column{{Name: "i", T: TypeInt}, {Name: "s", T: TypeVarchar}, {Name: "d", T: TypeDate},
		{Name: "ts", T: TypeTimestamp}, {Name: "m", T: &arrow.Decimal128Type{Precision: 5, Scale: 2}}}
	return BindExpr(context.Background(), nil, e, cols)
}

func TestBindFunctionTypes(t *testing.T) {
	for text, want := range map[string]string{
		"length(s)":                         "BIGINT",
		"substring(s FROM 2 FOR 3)":         "STRING",
		"round(m, 1)":                       "DECIMAL(5,1)",
		"round(m)":                          "DECIMAL(4,0)",
		"round(m, 5)":                       "DECIMAL(5,2)",
		"floor(m)":                          "DECIMAL(5,0)",
		"abs(i)":                            "INT",
		"sqrt(i)":                           "DOUBLE",
		"greatest(i, 2.5)":                  "DECIMAL(11,1)",
		"date_trunc('month', d)":            "TIMESTAMP",
		"date_trunc('month', ts)":           "TIMESTAMP",
		"extract(epoch FROM ts)":            "DOUBLE",
		"d + INTERVAL 1 DAY":                "TIMESTAMP",
		"d - 1":                             "DATE",
		"d - d":                             "BIGINT",
		"current_timestamp":                 "TIMESTAMPTZ",
		"now()":                             "TIMESTAMPTZ",
		"INTERVAL '1 day 2 hours'":          "INTERVAL",
		"to_date(s)":                        "DATE",
		"datediff(d, ts)":                   "BIGINT",
		"unix_timestamp()":                  "BIGINT",
		"position('a' , s)":                 "BIGINT",
		"concat(s, i, NULL)":                "STRING",
		"coalesce(i, 2)":                    "INT",
		"datediff('hour', ts, d)":           "BIGINT",
		"from_unixtime(i)":                  "TIMESTAMP",
		"year('2024-01-01')":                "BIGINT",
		"trim(LEADING 'x' FROM s)":          "STRING",
		"mod(i, 3)":                         "INT",
		"lpad(s, 3)":                        "STRING",
		"date_sub(ts, i)":                   "DATE",
		"make_date(2024, 1, i)":             "DATE",
		"regexp_like(s, '^a')":              "BOOLEAN",
		"INTERVAL 1 DAY + ts":               "TIMESTAMP",
		"ts - INTERVAL '3' MONTH":           "TIMESTAMP",
		"INTERVAL 1 DAY + INTERVAL 2 HOURS": "INTERVAL",
		"ts - ts":                           "INTERVAL",
		"ts - ts > INTERVAL 1 DAY":          "BOOLEAN",
		"if(i > 0, i, 2.5)":                 "DECIMAL(11,1)",
		"concat_ws('-', s, i, NULL)":        "STRING",
		"regexp_extract(s, '(a)')":          "STRING",
		"date_format(ts, 'yyyy')":           "STRING",
		"strftime(d, '%Y')":                 "STRING",
		"to_char(ts, 'YYYY')":               "STRING",
		"last_day(ts)":                      "DATE",
		"rand()":                            "DOUBLE",
		"random()":                          "DOUBLE",
		"uuid()":                            "STRING",
	} {
		e, err := bindFuncText(t, text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if got := TypeString(e.Type()); got != want {
			t.Errorf("%s: type %s, want %s (bound as %s)", text, got, want, e)
		}
	}
}

func TestBindFunctionErrors(t *testing.T) {
	for text, want := range map[string]string{
		"lenght(s)":                   "unknown function lenght (did you mean length?) (at line 1, column 8)",
		"qqqqqqqqqqqq(s)":             "unknown function qqqqqqqqqqqq (at line 1, column 8)",
		"round(s)":                    "function round(STRING) does not exist; expected round(number[, digits]) (at line 1, column 8)",
		"substring(s)":                "function substring(STRING) does not exist; expected substring(string, start[, length])",
		"upper(i)":                    "function upper(INT) does not exist; expected upper(string)",
		"round(m, i)":                 "round of a DECIMAL needs constant digits",
		"date_trunc(s, ts)":           "date_trunc: the unit must be a constant string",
		"date_trunc('fortnight', ts)": "date_trunc: unknown unit FORTNIGHT",
		"extract(fortnight FROM ts)":  "extract: unknown date part FORTNIGHT",
		"rank()":                      "window function rank needs an OVER clause",
		"d + d":                       "operator + cannot combine DATE and DATE",
		"INTERVAL 1 DAY * 1.5":        "operator * cannot combine INTERVAL and DECIMAL(2,1)",
		"ts - INTERVAL 1 DAY - d":     "operator - cannot combine TIMESTAMP and DATE",
		"INTERVAL '1,5' DAY":          `INTERVAL needs a number of days, got "1,5"`,
		"INTERVAL 'soon'":             "invalid INTERVAL \"soon\"",
		"INTERVAL '3000000000' MONTH": "INTERVAL 3000000000 month is out of range",
		"greatest(i, s)":              "cannot combine INT and STRING in one result",
	} {
		_, err := bindFuncText(t, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got error %v, want %q", text, err, want)
		}
	}
}

func TestCurrentTimestampIsFixedPerStatement(t *testing.T) {
	e, err := bindFuncText(t, "current_timestamp = now()")
	if err != nil {
		t.Fatal(err)
	}
	args := e.(*Call).Args
	if args[0].String() != args[1].String() {
		t.Errorf("current_timestamp %s and now() %s differ within one statement", args[0], args[1])
	}
}
