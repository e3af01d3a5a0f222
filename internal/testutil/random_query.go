package testutil

import (
	"fmt"
	"strings"
)

// The fuzz targets of the binder and the executor build SQL from fuzz
// input with this generator, over one fixed table schema, so that the
// fuzzer spends its time on statements that parse and bind rather than on
// syntax errors (the parser has its own target, sql.FuzzParse).

// FuzzColumns is the schema the generated SQL reads: one column of each
// kind the generator builds expressions of, all nullable.
const FuzzColumns = "i INT, b BIGINT, d DOUBLE, m DECIMAL(10, 2), s STRING, dt DATE, ts TIMESTAMP, ok BOOLEAN"

// FuzzPartitionings are the partition specs a fuzzed table may have, so
// that pruning is exercised on every kind of transform.
var FuzzPartitionings = []string{"", "PARTITIONED BY (i)", "PARTITIONED BY (bucket(4, b))", "PARTITIONED BY (day(ts))",
	"PARTITIONED BY (truncate(2, s))", "PARTITIONED BY (ok, month(dt))"}

// Choices turns fuzz input into choices: each reads one byte, and once the
// input is used up every choice is 0, the simplest alternative, so any
// input makes a finite statement.
type Choices struct {
	data  []byte
	pos   int
	depth int
}

// NewChoices reads choices from data.
func NewChoices(data []byte) *Choices { return &Choices{data: data} }

// Int returns a choice in [0, n).
func (c *Choices) Int(n int) int {
	if c.pos >= len(c.data) || n <= 1 {
		return 0
	}
	c.pos++
	return int(c.data[c.pos-1]) % n
}

// pick returns one of the options.
func (c *Choices) pick(options ...string) string { return options[c.Int(len(options))] }

// deeper runs f one level deeper; past maxDepth the generator chooses
// leaves only.
func (c *Choices) deeper(f func() string) string {
	c.depth++
	defer func() { c.depth-- }()
	return f()
}

const maxDepth = 4

func (c *Choices) leafOnly() bool { return c.depth >= maxDepth }

// Row is a random row of the fuzz schema as a VALUES tuple, with NULLs.
func (c *Choices) Row() string {
	null := func(v string) string {
		if c.Int(5) == 0 {
			return "NULL"
		}
		return v
	}
	return "(" + strings.Join([]string{
		null(fmt.Sprint(c.Int(7) - 3)),
		null(fmt.Sprint((c.Int(256) - 128) * 1000003)),
		null(c.pick("0.5", "-1.25", "3.0", "1e10", "-0.0", "2.5")),
		null(c.pick("1.00", "-2.50", "99999999.99", "0.01")),
		null(c.pick("''", "'a'", "'ab'", "'B'", "'abc'", "'%'", "'é'")),
		null(fmt.Sprintf("DATE '2024-0%d-%02d'", 1+c.Int(3), 1+c.Int(28))),
		null(fmt.Sprintf("TIMESTAMP '2024-01-%02d %02d:00:00'", 1+c.Int(3), c.Int(24))),
		null(c.pick("true", "false")),
	}, ", ") + ")"
}

// Num is a numeric expression.
func (c *Choices) Num() string {
	if c.leafOnly() {
		return c.pick("i", "b", "d", "m", "1", "0", "NULL", "-2.5")
	}
	return c.deeper(func() string {
		switch c.Int(10) {
		case 0, 1:
			return c.pick("i", "b", "d", "m")
		case 2:
			return c.pick("0", "1", "-7", "2.5", "NULL", "9223372036854775807", "CAST(NULL AS INT)")
		case 3:
			return "(" + c.Num() + " " + c.pick("+", "-", "*", "/", "%") + " " + c.Num() + ")"
		case 4:
			return c.pick("abs", "sign", "floor", "ceil", "round") + "(" + c.Num() + ")"
		case 5:
			return "coalesce(" + c.Num() + ", " + c.Num() + ")"
		case 6:
			return "CASE WHEN " + c.Bool() + " THEN " + c.Num() + " ELSE " + c.Num() + " END"
		case 7:
			return "CAST(" + c.Num() + " AS " + c.pick("INT", "BIGINT", "DOUBLE", "DECIMAL(12, 3)") + ")"
		case 8:
			return c.pick("length", "year", "month") + "(" + c.pick(c.Str(), "dt", "ts") + ")"
		default:
			return c.pick("greatest", "least", "nullif") + "(" + c.Num() + ", " + c.Num() + ")"
		}
	})
}

// Str is a string expression.
func (c *Choices) Str() string {
	if c.leafOnly() {
		return c.pick("s", "'a'", "NULL", "''")
	}
	return c.deeper(func() string {
		switch c.Int(6) {
		case 0, 1:
			return "s"
		case 2:
			return c.pick("'a'", "'abc'", "''", "NULL")
		case 3:
			return c.pick("upper", "lower", "trim", "reverse") + "(" + c.Str() + ")"
		case 4:
			return "(" + c.Str() + " || " + c.Str() + ")"
		default:
			return "substring(" + c.Str() + ", " + c.Num() + ", 2)"
		}
	})
}

// Bool is a predicate.
func (c *Choices) Bool() string {
	if c.leafOnly() {
		return c.pick("ok", "true", "NULL", "i > 0")
	}
	return c.deeper(func() string {
		switch c.Int(12) {
		case 0:
			return "ok"
		case 1, 2:
			return c.Num() + " " + c.pick("=", "<>", "<", "<=", ">", ">=") + " " + c.Num()
		case 3:
			return c.Str() + " " + c.pick("=", "<", ">=") + " " + c.Str()
		case 4:
			return c.Str() + c.pick(" LIKE ", " NOT LIKE ", " ILIKE ") + c.pick("'a%'", "'%b'", "'_'", "'%'")
		case 5:
			return c.pick("i", "b", "s", "dt", "ts", "ok", "m", "d") + c.pick(" IS NULL", " IS NOT NULL")
		case 6:
			return c.pick("i", "b") + c.pick(" IN ", " NOT IN ") + c.pick("(1, 2)", "(0, NULL)", "(-1)")
		case 7:
			return c.Num() + c.pick(" BETWEEN ", " NOT BETWEEN ") + c.Num() + " AND " + c.Num()
		case 8:
			return "NOT (" + c.Bool() + ")"
		case 9:
			return "(" + c.Bool() + c.pick(" AND ", " OR ") + c.Bool() + ")"
		case 10:
			return c.pick("dt", "CAST(ts AS DATE)") + " " + c.pick("<", ">=", "=") + " DATE '2024-02-" + fmt.Sprintf("%02d", 1+c.Int(28)) + "'"
		default:
			return "ts " + c.pick("<", ">=") + " TIMESTAMP '2024-01-02 " + fmt.Sprintf("%02d", c.Int(24)) + ":00:00'"
		}
	})
}

// Expr is an expression of any of the generator's kinds.
func (c *Choices) Expr() string {
	switch c.Int(4) {
	case 0:
		return c.Str()
	case 1:
		return c.Bool()
	case 2:
		return c.pick("dt", "ts", "date_trunc('month', ts)", "dt + INTERVAL '1' DAY")
	default:
		return c.Num()
	}
}

// Query is a SELECT over table t (and a second copy u for joins).
func (c *Choices) Query() string {
	switch c.Int(7) {
	case 0:
		return "SELECT " + c.Expr() + ", " + c.Expr() + " FROM t WHERE " + c.Bool() + " ORDER BY 1, 2 LIMIT " + fmt.Sprint(c.Int(5))
	case 1:
		g := c.Expr()
		return "SELECT " + g + ", count(*), " + c.pick("sum", "min", "max", "avg", "count") + "(" + c.Num() + ") FROM t WHERE " +
			c.Bool() + " GROUP BY 1 HAVING " + c.pick("count(*) > 0", "true", "min(i) IS NULL")
	case 2:
		return "SELECT DISTINCT " + c.Expr() + " FROM t"
	case 3:
		return "SELECT t.i, u.s FROM t " + c.pick("JOIN", "LEFT JOIN", "FULL JOIN") + " t AS u ON " +
			c.pick("t.i = u.i", "t.s = u.s", "t.b = u.b AND t.ok") + " WHERE " + c.Bool()
	case 4:
		return "SELECT i, " + c.pick("row_number()", "rank()", "sum(b)", "lag(s)") + " OVER (PARTITION BY " +
			c.pick("ok", "s", "i % 2") + " ORDER BY " + c.pick("b", "ts", "d") + ") FROM t"
	case 5:
		return "SELECT " + c.Num() + " FROM t WHERE i IN (SELECT i FROM t WHERE " + c.Bool() + ") " +
			c.pick("UNION ALL", "UNION", "EXCEPT", "INTERSECT") + " SELECT " + c.Num() + " FROM t"
	default:
		return "SELECT " + c.Expr() + " FROM t WHERE " + c.Bool()
	}
}
