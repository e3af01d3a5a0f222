package bench

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/duckdb/duckdb-go/v2"

	sqlvalue "github.com/lakesql/lakesql/value"
)

// The main module's TPC-H golden test: Parquet fixtures under
// testdata/fixtures/tpch and the script testdata/queries/tpch/_tpch.test,
// whose expected rows are DuckDB's answers on those files.
const (
	goldenFixtures = "../testdata/fixtures/tpch"
	goldenScript   = "../testdata/queries/tpch/_tpch.test"
)

// fixtureSubset is the SQL of the golden fixture, a few MB cut from SF=1 by
// key ranges so that it stays consistent: every region, nation and
// supplier; the parts with p_partkey ≤ 2000 and their partsupp rows; the
// orders of the customers with c_custkey ≤ 1500 and the orders of more
// than 300 items (Q18's large orders, 57 at SF=1), with their customers;
// the lineitems of those orders together with every lineitem of the 2000
// parts (so that the per-part subqueries of Q17 and Q20 see a part's whole
// history).
func fixtureSubset(table string) string {
	const (
		parts     = 2000
		customers = 1500
	)
	orders := fmt.Sprintf(`SELECT o_orderkey FROM orders WHERE o_custkey <= %d
		UNION SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 300`, customers)
	switch table {
	case "part":
		return fmt.Sprintf("SELECT * FROM part WHERE p_partkey <= %d ORDER BY p_partkey", parts)
	case "partsupp":
		return fmt.Sprintf("SELECT * FROM partsupp WHERE ps_partkey <= %d ORDER BY ps_partkey, ps_suppkey", parts)
	case "customer":
		return fmt.Sprintf(`SELECT * FROM customer
			WHERE c_custkey <= %d OR c_custkey IN (SELECT o_custkey FROM orders WHERE o_orderkey IN (%s))
			ORDER BY c_custkey`, customers, orders)
	case "orders":
		return "SELECT * FROM orders WHERE o_orderkey IN (" + orders + ") ORDER BY o_orderkey"
	case "lineitem":
		return fmt.Sprintf(`SELECT * FROM lineitem WHERE l_orderkey IN (%s) OR l_partkey <= %d
			ORDER BY l_orderkey, l_linenumber`, orders, parts)
	}
	return "SELECT * FROM " + table
}

// goldenEdits make a query's result independent of how an engine types
// it, keeping the standard text otherwise: averages and quotients, which
// DuckDB computes as DOUBLE and another engine may as DECIMAL, are cast to
// DOUBLE and rounded, far from where summation order could change the
// rounded digit. Decimal sums and products keep their exact value and the
// scale SQL gives them.
var goldenEdits = map[int][][2]string{
	1: {
		{"avg(l_quantity) as avg_qty", "round(cast(avg(l_quantity) as double), 6) as avg_qty"},
		{"avg(l_extendedprice) as avg_price", "round(cast(avg(l_extendedprice) as double), 6) as avg_price"},
		{"avg(l_discount) as avg_disc", "round(cast(avg(l_discount) as double), 6) as avg_disc"},
	},
	8: {
		{"o_year,\n\tsum(case", "o_year,\n\tround(cast(sum(case"},
		{"end) / sum(volume) as mkt_share", "end) / sum(volume) as double), 6) as mkt_share"},
	},
	14: {
		{"100.00 * sum(case", "round(cast(100.00 * sum(case"},
		{"end) / sum(l_extendedprice * (1 - l_discount)) as promo_revenue", "end) / sum(l_extendedprice * (1 - l_discount)) as double), 6) as promo_revenue"},
	},
	17: {
		{"sum(l_extendedprice) / 7.0 as avg_yearly", "round(cast(sum(l_extendedprice) / 7.0 as double), 2) as avg_yearly"},
	},
}

// goldenText is a query's text for the golden script: without its leading
// comment lines, with its edits applied.
func goldenText(q tpchQuery) (string, error) {
	var lines []string
	for _, line := range strings.Split(q.text, "\n") {
		if len(lines) == 0 && strings.HasPrefix(line, "--") {
			continue
		}
		lines = append(lines, line)
	}
	text := strings.Join(lines, "\n")
	for _, e := range goldenEdits[q.id] {
		if strings.Count(text, e[0]) != 1 {
			return "", fmt.Errorf("Q%d: the golden edit %q does not match the text exactly once", q.id, e[0])
		}
		text = strings.Replace(text, e[0], e[1], 1)
	}
	return text, nil
}

// TestTPCHGolden regenerates the golden fixtures and script. It writes into
// the main module, so it runs only when asked: TPCH_GOLDEN=1.
func TestTPCHGolden(t *testing.T) {
	if os.Getenv("TPCH_GOLDEN") == "" {
		t.Skip("tpch golden: set TPCH_GOLDEN=1 to regenerate testdata/fixtures/tpch and testdata/queries/tpch/_tpch.test")
	}
	ctx := t.Context()
	full, err := tpchDataset(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(goldenFixtures, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeSubset(ctx, full, goldenFixtures, fixtureSubset); err != nil {
		t.Fatal(err)
	}
	queries, err := tpchQueries()
	if err != nil {
		t.Fatal(err)
	}
	script, empty, err := goldenScriptText(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(goldenScript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenScript, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s; queries with an empty answer on the fixture: %v", goldenScript, empty)
}

// goldenScriptText renders the script and lists the queries whose answer
// is empty on the fixture.
func goldenScriptText(ctx context.Context, queries []tpchQuery) (string, []int, error) {
	db, err := openDuck()
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	var sb strings.Builder
	sb.WriteString(`# TPC-H's 22 queries on a small deterministic subset of SF=1
# (testdata/fixtures/tpch; README.md there says how it is cut). Generated by
# bench/tpch_golden_test.go with TPCH_GOLDEN=1; do not edit by hand. The
# expected rows are DuckDB's answers on the same Parquet files. The query
# texts are bench/tpch/queries with averages and quotients cast to DOUBLE
# and rounded, so that the expected text does not depend on an engine's
# choice of DECIMAL or DOUBLE for them.

statement ok
CREATE NAMESPACE tpch
`)
	for _, tb := range tpchTables {
		path := filepath.Join(goldenFixtures, tb.name+".parquet")
		if _, err := db.ExecContext(ctx, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s')", tb.name, path)); err != nil {
			return "", nil, err
		}
		fmt.Fprintf(&sb, "\nstatement ok\nCREATE TABLE tpch.%s AS SELECT * FROM read_parquet('<FIXTURES>/tpch/%s.parquet')\n", tb.name, tb.name)
	}
	sb.WriteString("\nstatement ok\nUSE tpch\n")
	var empty []int
	for _, q := range queries {
		text, err := goldenText(q)
		if err != nil {
			return "", nil, err
		}
		rows, err := goldenRows(ctx, db, text)
		if err != nil {
			return "", nil, fmt.Errorf("Q%d: %w", q.id, err)
		}
		if len(rows) == 0 {
			empty = append(empty, q.id)
		}
		fmt.Fprintf(&sb, "\n# Q%d\nquery\n%s\n----\n", q.id, text)
		for _, r := range rows {
			sb.WriteString(r + "\n")
		}
	}
	return sb.String(), empty, nil
}

// goldenRows runs a query in DuckDB and renders its rows as the golden
// runner renders lakesql's: cells joined by tabs, NULL as NULL, the empty
// string as (empty), decimals with their scale, doubles and dates in
// lakesql's text forms.
func goldenRows(ctx context.Context, db *sql.DB, query string) ([]string, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	cells := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	text := make([]string, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, c := range cells {
			if text[i], err = goldenCell(c); err != nil {
				return nil, fmt.Errorf("column %s: %w", cols[i], err)
			}
		}
		out = append(out, strings.Join(text, "\t"))
	}
	return out, rows.Err()
}

func goldenCell(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "NULL", nil
	case string:
		if v == "" {
			return "(empty)", nil
		}
		return v, nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case *big.Int:
		return v.String(), nil
	case float64:
		return string(sqlvalue.AppendFloat(nil, v, 64)), nil
	case duckdb.Decimal:
		return decimal128.FromBigInt(v.Value).ToString(int32(v.Scale)), nil
	case time.Time:
		return string(sqlvalue.AppendDate(nil, int32(v.Unix()/86400))), nil
	}
	return "", fmt.Errorf("no golden form for %T", v)
}
