package sql

import "testing"

// TestExprFormat parses expressions and checks their canonical form, which
// shows the tree (binary operations are parenthesized). Each canonical form
// must parse back to itself.
func TestExprFormat(t *testing.T) {
	tests := []struct{ in, want string }{
		// precedence and associativity
		{"a OR b AND NOT c = d", "(a OR (b AND (NOT (c = d))))"},
		{"a AND b OR c", "((a AND b) OR c)"},
		{"1 + 2 * 3 - 4 / 5 % 6", "((1 + (2 * 3)) - ((4 / 5) % 6))"},
		{"2 + 7 // 2 * 3 - x // -y", "((2 + ((7 // 2) * 3)) - (x // (-y)))"},
		{"a || b + c = d", "((a || (b + c)) = d)"},
		// DuckDB's ->> shares ||'s level: under comparison, over addition
		{"j ->> 'a' = 'x'", "((j ->> 'a') = 'x')"},
		{"j->>'a'->>'b' || c", "(((j ->> 'a') ->> 'b') || c)"},
		{"j ->> 1 + 1", "(j ->> (1 + 1))"},
		// bitwise operators share that level too, left to right (DuckDB's)
		{"1 | 2 & 4 << a >> b", "((((1 | 2) & 4) << a) >> b)"},
		{"1 + 2 << 1 = ~x * 2", "(((1 + 2) << 1) = (~(x * 2)))"},
		{"~1 + 2 & ~3 || 'x'", "(((~(1 + 2)) & (~3)) || 'x')"},
		{"1 + ~2 - 3", "(1 + (~(2 - 3)))"},
		{"a <=> b AND c <=> NULL", "((a IS NOT DISTINCT FROM b) AND (c IS NOT DISTINCT FROM NULL))"},
		{"s RLIKE 'a' OR s NOT REGEXP p || 'x'", "(regexp_like(s, 'a') OR (NOT regexp_like(s, (p || 'x'))))"},
		// AT TIME ZONE binds tighter than + and -, looser than ::
		{"ts AT TIME ZONE 'UTC' + i", "(timezone('UTC', ts) + i)"},
		{"ts::timestamp AT TIME ZONE 'UTC' AT TIME ZONE z", "timezone(z, timezone('UTC', CAST(ts AS TIMESTAMP)))"},
		{"a DIV b * c", "((a DIV b) * c)"},
		{"DOUBLE '1.5' + DECIMAL '-1.25' + INTEGER '3'", "((CAST('1.5' AS DOUBLE) + (-1.25)) + CAST('3' AS INT))"},
		{"a - b - c", "((a - b) - c)"},
		{"- 1", "(-1)"},
		{"1 - -1", "(1 - (-1))"},
		{"-x::int", "(-CAST(x AS INT))"},
		{"+a * -b", "((+a) * (-b))"},
		{"NOT NOT a", "(NOT (NOT a))"},
		{"a != b AND a == b", "((a <> b) AND (a = b))"},
		{"a < b AND a <= b AND a > b AND a >= b", "((((a < b) AND (a <= b)) AND (a > b)) AND (a >= b))"},
		// predicates
		{"a IS NULL", "(a IS NULL)"},
		{"a IS NOT NULL AND b IS TRUE", "((a IS NOT NULL) AND (b IS TRUE))"},
		{"a IS NOT FALSE", "(a IS NOT FALSE)"},
		{"a IS DISTINCT FROM b", "(a IS DISTINCT FROM b)"},
		{"a IS NOT DISTINCT FROM b + 1", "(a IS NOT DISTINCT FROM (b + 1))"},
		{"a BETWEEN 1 AND 2 AND b", "((a BETWEEN 1 AND 2) AND b)"},
		{"a NOT BETWEEN b - 1 AND b + 1", "(a NOT BETWEEN (b - 1) AND (b + 1))"},
		{"a IN (1, 2, 3)", "(a IN (1, 2, 3))"},
		{"a NOT IN ('x')", "(a NOT IN ('x'))"},
		{"a IN (SELECT b FROM t)", "(a IN (SELECT b FROM t))"},
		{"a NOT IN (SELECT b FROM t)", "(a NOT IN (SELECT b FROM t))"},
		{"s LIKE 'a%'", "(s LIKE 'a%')"},
		{"s NOT ILIKE 'a!%' ESCAPE '!'", "(s NOT ILIKE 'a!%' ESCAPE '!')"},
		{"EXISTS (SELECT 1)", "EXISTS (SELECT 1)"},
		{"NOT EXISTS (SELECT 1 FROM t)", "NOT EXISTS (SELECT 1 FROM t)"},
		{"(SELECT max(a) FROM t) + 1", "((SELECT max(a) FROM t) + 1)"},
		// literals
		{"NULL", "NULL"},
		{"true", "TRUE"},
		{"FALSE", "FALSE"},
		{"'it''s'", "'it''s'"},
		{"1.5e3", "1.5e3"},
		{".5", ".5"},
		{"DATE '2024-01-01'", "DATE '2024-01-01'"},
		{"TIMESTAMP '2024-01-01 10:00:00'", "TIMESTAMP '2024-01-01 10:00:00'"},
		{"timestamp with time zone '2024-01-01 10:00:00+02'", "TIMESTAMPTZ '2024-01-01 10:00:00+02'"},
		{"TIMESTAMP WITHOUT TIME ZONE '2024-01-01'", "TIMESTAMP '2024-01-01'"},
		{"TIMESTAMPTZ '2024-01-01'", "TIMESTAMPTZ '2024-01-01'"},
		{"TIME '10:00'", "TIME '10:00'"},
		{"INTERVAL '1' DAY", "INTERVAL '1' DAY"},
		{"INTERVAL 1 DAY", "INTERVAL 1 DAY"},
		{"INTERVAL '1 day'", "INTERVAL '1 day'"},
		{"INTERVAL '2' HOURS", "INTERVAL '2' HOUR"},
		{"INTERVAL -3 minutes", "INTERVAL -3 MINUTE"},
		{"ts + INTERVAL 1 WEEK", "(ts + INTERVAL 1 WEEK)"},
		// names
		{`"Mixed Case"`, `"Mixed Case"`},
		{`"a""b"`, `"a""b"`},
		{"`Back`", `"Back"`},
		{"T.Col", "t.col"},
		{"cat.ns.t.col", "cat.ns.t.col"},
		{`t."from"`, `t."from"`},
		{"t.order", `t."order"`},
		{"date", "date"},
		{"day + year", "(day + year)"},
		{"timestamp", "timestamp"},
		{"interval", "interval"},
		{"interval - 1", "(interval - 1)"},
		// casts
		{"x::BIGINT", "CAST(x AS BIGINT)"},
		{"x::decimal(10, 2)::string", "CAST(CAST(x AS DECIMAL(10, 2)) AS STRING)"},
		{"CAST(x AS long)", "CAST(x AS BIGINT)"},
		{"TRY_CAST(x AS double precision)", "TRY_CAST(x AS DOUBLE)"},
		{"CAST(x AS timestamp with time zone)", "CAST(x AS TIMESTAMPTZ)"},
		{"CAST(x AS varchar(10))", "CAST(x AS VARCHAR(10))"},
		// functions
		{"count(*)", "count(*)"},
		{"COUNT(DISTINCT a)", "count(DISTINCT a)"},
		{"sum(ALL a)", "sum(a)"},
		{"now()", "now()"},
		{"left(s, 3) || right(s, 2)", "(left(s, 3) || right(s, 2))"},
		{"date(ts)", "date(ts)"},
		{"year(ts) + month(ts) + day(ts) + hour(ts)", "(((year(ts) + month(ts)) + day(ts)) + hour(ts))"},
		{"timestamp(x)", "timestamp(x)"},
		{"replace(s, 'a', 'b')", "replace(s, 'a', 'b')"},
		{"truncate(4, s)", "truncate(4, s)"},
		{"bucket(16, id)", "bucket(16, id)"},
		{"if(a, 1, 2)", "if(a, 1, 2)"},
		{"map('k', 'v')", "map('k', 'v')"},
		{"array(1, 2)", "array(1, 2)"},
		{"current_date", "current_date()"},
		{"current_timestamp", "current_timestamp()"},
		{"current_date()", "current_date()"},
		{"system.my_func(a => 1, b => 'x')", "system.my_func(a => 1, b => 'x')"},
		{"EXTRACT(YEAR FROM ts)", "EXTRACT('YEAR' FROM ts)"},
		{"extract('dow' FROM ts)", "EXTRACT('DOW' FROM ts)"},
		{"SUBSTRING(s FROM 2 FOR 3)", "substring(s, 2, 3)"},
		{"SUBSTRING(s FROM 2)", "substring(s, 2)"},
		{"substring(s, 2, 3)", "substring(s, 2, 3)"},
		{"TRIM(s)", "trim(s)"},
		{"TRIM(BOTH FROM s)", "trim(s)"},
		{"TRIM(LEADING 'x' FROM s)", "ltrim(s, 'x')"},
		{"TRIM(TRAILING FROM s)", "rtrim(s)"},
		{"TRIM('x' FROM s)", "trim(s, 'x')"},
		{"trim(s, 'x')", "trim(s, 'x')"},
		{"trim(leading)", "trim(leading)"},
		// CASE
		{"CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END", "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END"},
		{"CASE x WHEN 1 THEN 'a' END", "CASE x WHEN 1 THEN 'a' END"},
		// windows
		{"row_number() OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST)", "row_number() OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST)"},
		{"sum(x) OVER ()", "sum(x) OVER ()"},
		// FILTER (WHERE …) after the arguments, before OVER; filter stays a name elsewhere
		{"count(*) filter (where a > 1)", "count(*) FILTER (WHERE (a > 1))"},
		{"count(DISTINCT x) FILTER (WHERE g = 'a' AND b)", "count(DISTINCT x) FILTER (WHERE ((g = 'a') AND b))"},
		{"sum(x) FILTER (WHERE b) OVER (PARTITION BY g)", "sum(x) FILTER (WHERE b) OVER (PARTITION BY g)"},
		{"filter + 1", "(filter + 1)"},
		{"array_agg(x ORDER BY y DESC NULLS FIRST, z) FILTER (WHERE b)", "array_agg(x ORDER BY y DESC NULLS FIRST, z) FILTER (WHERE b)"},
		{"string_agg(DISTINCT x, ',' ORDER BY x)", "string_agg(DISTINCT x, ',' ORDER BY x)"},
		{"sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
			"sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"avg(x) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING)",
			"avg(x) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING)"},
		{"sum(x) OVER (ROWS 5 PRECEDING)", "sum(x) OVER (ROWS BETWEEN 5 PRECEDING AND CURRENT ROW)"},
		{"sum(x) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)", "sum(x) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)"},
		// GROUPS frames and EXCLUDE; EXCLUDE NO OTHERS is the default and not printed
		{"sum(x) OVER (ORDER BY t GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING)",
			"sum(x) OVER (ORDER BY t GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING)"},
		{"sum(x) OVER (ORDER BY t groups 1 preceding exclude current row)",
			"sum(x) OVER (ORDER BY t GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW)"},
		{"min(x) OVER (ORDER BY t ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP)",
			"min(x) OVER (ORDER BY t ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP)"},
		{"first_value(x) OVER (ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES)",
			"first_value(x) OVER (ORDER BY t RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES)"},
		{"sum(x) OVER (ORDER BY t ROWS UNBOUNDED PRECEDING EXCLUDE NO OTHERS)",
			"sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"groups + ties + others + no", "(((groups + ties) + others) + no)"},
	}
	for _, tt := range tests {
		got := formatSelectExpr(t, tt.in)
		if got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.in, got, tt.want)
			continue
		}
		if again := formatSelectExpr(t, got); again != got {
			t.Errorf("%s does not round-trip: %s", got, again)
		}
	}
}

func TestTypeNames(t *testing.T) {
	tests := []struct {
		in   string
		want TypeName
	}{
		{"BOOLEAN", TypeName{Name: "BOOLEAN"}},
		{"bool", TypeName{Name: "BOOLEAN"}},
		{"TINYINT", TypeName{Name: "TINYINT"}},
		{"SMALLINT", TypeName{Name: "SMALLINT"}},
		{"INT", TypeName{Name: "INT"}},
		{"INTEGER", TypeName{Name: "INT"}},
		{"BIGINT", TypeName{Name: "BIGINT"}},
		{"LONG", TypeName{Name: "BIGINT"}},
		{"FLOAT", TypeName{Name: "FLOAT"}},
		{"REAL", TypeName{Name: "FLOAT"}},
		{"DOUBLE", TypeName{Name: "DOUBLE"}},
		{"DOUBLE PRECISION", TypeName{Name: "DOUBLE"}},
		{"DECIMAL", TypeName{Name: "DECIMAL"}},
		{"NUMERIC(10)", TypeName{Name: "DECIMAL", Params: []int{10}}},
		{"DECIMAL(38, 9)", TypeName{Name: "DECIMAL", Params: []int{38, 9}}},
		{"DATE", TypeName{Name: "DATE"}},
		{"TIME", TypeName{Name: "TIME"}},
		{"TIMESTAMP", TypeName{Name: "TIMESTAMP"}},
		{"TIMESTAMP WITHOUT TIME ZONE", TypeName{Name: "TIMESTAMP"}},
		{"TIMESTAMP WITH TIME ZONE", TypeName{Name: "TIMESTAMPTZ"}},
		{"TIMESTAMPTZ", TypeName{Name: "TIMESTAMPTZ"}},
		{"TIMESTAMP_LTZ", TypeName{Name: "TIMESTAMPTZ"}},
		{"TIMESTAMP_NTZ", TypeName{Name: "TIMESTAMP"}},
		{"DATETIME", TypeName{Name: "TIMESTAMP"}},
		{"STRING", TypeName{Name: "STRING"}},
		{"VARCHAR", TypeName{Name: "STRING"}},
		{"VARCHAR(255)", TypeName{Name: "STRING", Params: []int{255}}},
		{"CHAR(1)", TypeName{Name: "STRING", Params: []int{1}}},
		{"TEXT", TypeName{Name: "STRING"}},
		{"BINARY", TypeName{Name: "BINARY"}},
		{"VARBINARY", TypeName{Name: "BINARY"}},
		{"BYTEA", TypeName{Name: "BINARY"}},
		{"BLOB", TypeName{Name: "BINARY"}},
		{"UUID", TypeName{Name: "UUID"}},
	}
	for _, tt := range tests {
		q := mustParseOne(t, "SELECT CAST(x AS "+tt.in+")").(*QueryStmt).Query
		got := q.Body.(*Select).Items[0].Expr.(*CastExpr).To
		if got.Pos != (Pos{1, 18}) {
			t.Errorf("%s: Pos = %v, want 1:18", tt.in, got.Pos)
		}
		got.Pos = Pos{}
		if FormatType(got) != FormatType(tt.want) || got.Name != tt.want.Name {
			t.Errorf("%s: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestExprPositions checks that operators carry their operator's position and
// other nodes their first token's.
func TestExprPositions(t *testing.T) {
	q := mustParseOne(t, "SELECT\n  a +\n  f(b) IS NULL").(*QueryStmt).Query
	isNull := q.Body.(*Select).Items[0].Expr.(*IsNullExpr)
	plus := isNull.X.(*BinaryExpr)
	checks := []struct {
		name      string
		got, want Pos
	}{
		{"IS NULL", isNull.Pos, Pos{3, 8}},
		{"+", plus.Pos, Pos{2, 5}},
		{"a", plus.L.Position(), Pos{2, 3}},
		{"f(b)", plus.R.Position(), Pos{3, 3}},
		{"b", plus.R.(*FuncCall).Args[0].Position(), Pos{3, 5}},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s at %v, want %v", c.name, c.got, c.want)
		}
	}
}
