package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// harnessQuery is one read query of the comparison. sql runs in lakesql and
// in DuckDB over the Iceberg table's data files (DuckDB sees the tables
// under the same names); duckSQL replaces it for DuckDB where the dialects
// differ. hiveSQL is the query over the hive-style copy: it adds the
// event_date predicate a user of that layout writes to get pruning.
// prunes marks the queries whose filters let lakesql skip files; they also
// run with pruning off.
type harnessQuery struct {
	id      int
	name    string
	sql     string
	duckSQL string
	hiveSQL string
	ordered bool
	prunes  bool
}

// timeRange is a half-open event_time filter, the form the tutorial uses;
// lakesql prunes it through the day(event_time) partition transform.
func timeRange(from, to string) string {
	return fmt.Sprintf("event_time >= TIMESTAMP '%s 00:00:00' AND event_time < TIMESTAMP '%s 00:00:00'", from, to)
}

// dateRange is the same filter on the hive copy's partition column.
func dateRange(from, to string) string {
	return fmt.Sprintf("event_date >= DATE '%s' AND event_date < DATE '%s'", from, to)
}

func harnessQueries() []harnessQuery {
	const byDay, hive = "tutorial.events_by_day", "hive.events_by_day"
	const nextDay = "2026-06-16"
	oneDay := timeRange(harnessDay, nextDay)
	month := timeRange(harnessMonth, harnessNext)
	week := timeRange(harnessMonth, harnessWeek)
	return []harnessQuery{
		{id: 1, prunes: true, name: "one-day event_type count", ordered: true,
			sql:     `SELECT event_type, count(*) AS event_count FROM ` + byDay + ` WHERE ` + oneDay + ` GROUP BY event_type ORDER BY event_type`,
			hiveSQL: `SELECT event_type, count(*) AS event_count FROM ` + hive + ` WHERE ` + dateRange(harnessDay, nextDay) + ` AND ` + oneDay + ` GROUP BY event_type ORDER BY event_type`},
		{id: 2, prunes: true, name: "one day as DATE(event_time) = …", ordered: true,
			sql:     `SELECT event_type, count(*) AS event_count FROM ` + byDay + ` WHERE DATE(event_time) = DATE '` + harnessDay + `' GROUP BY event_type ORDER BY event_type`,
			duckSQL: `SELECT event_type, count(*) AS event_count FROM ` + byDay + ` WHERE CAST(event_time AS DATE) = DATE '` + harnessDay + `' GROUP BY event_type ORDER BY event_type`,
			hiveSQL: `SELECT event_type, count(*) AS event_count FROM ` + hive + ` WHERE event_date = DATE '` + harnessDay + `' GROUP BY event_type ORDER BY event_type`},
		{id: 3, prunes: true, name: "month revenue by category, DE", ordered: true,
			sql:     `SELECT category, sum(price * quantity) AS revenue FROM ` + byDay + ` WHERE ` + month + ` AND country = 'DE' GROUP BY category ORDER BY category NULLS LAST`,
			hiveSQL: `SELECT category, sum(price * quantity) AS revenue FROM ` + hive + ` WHERE ` + dateRange(harnessMonth, harnessNext) + ` AND country = 'DE' GROUP BY category ORDER BY category NULLS LAST`},
		{id: 4, name: "full scan GROUP BY event_type, country",
			sql:     `SELECT event_type, country, count(*), sum(price), avg(price) FROM ` + byDay + ` GROUP BY event_type, country`,
			hiveSQL: `SELECT event_type, country, count(*), sum(price), avg(price) FROM ` + hive + ` GROUP BY event_type, country`},
		{id: 5, prunes: true, name: "count(DISTINCT session_id) per day, one week", ordered: true,
			sql:     `SELECT CAST(event_time AS DATE) AS day, count(DISTINCT session_id) FROM ` + byDay + ` WHERE ` + week + ` GROUP BY 1 ORDER BY 1`,
			hiveSQL: `SELECT event_date AS day, count(DISTINCT session_id) FROM ` + hive + ` WHERE ` + dateRange(harnessMonth, harnessWeek) + ` GROUP BY 1 ORDER BY 1`},
		// event_id breaks ties so that both engines must return the same ten rows.
		{id: 6, prunes: true, name: "month ORDER BY price DESC LIMIT 10", ordered: true,
			sql:     `SELECT event_id, price FROM ` + byDay + ` WHERE ` + month + ` ORDER BY price DESC NULLS LAST, event_id LIMIT 10`,
			hiveSQL: `SELECT event_id, price FROM ` + hive + ` WHERE ` + dateRange(harnessMonth, harnessNext) + ` ORDER BY price DESC NULLS LAST, event_id LIMIT 10`},
		{id: 7, name: "join with products, by category",
			sql: `SELECT p.category, count(*), sum(e.price * e.quantity) FROM ` + byDay + ` e
				JOIN tutorial.products p ON e.product_id = p.product_id GROUP BY p.category`,
			hiveSQL: `SELECT p.category, count(*), sum(e.price * e.quantity) FROM ` + hive + ` e
				JOIN tutorial.products p ON e.product_id = p.product_id GROUP BY p.category`},
		{id: 8, prunes: true, name: "point lookup user_id = 42, bucket(16)",
			sql: `SELECT event_id, event_time, event_type, price FROM tutorial.events_by_user WHERE user_id = 42`},
	}
}

// runQuery measures one read query on every engine it applies to.
func (h *harness) runQuery(t *testing.T, q harnessQuery) queryResult {
	duckSQL := q.sql
	if q.duckSQL != "" {
		duckSQL = q.duckSQL
	}
	targets := []target{
		{engine: engineLake, run: func(ctx context.Context) (result, error) { return lakeRows(ctx, h.lake, q.sql) }},
		{engine: engineDuck, run: func(ctx context.Context) (result, error) { return duckRows(ctx, h.duck, duckSQL) }},
	}
	if q.hiveSQL != "" {
		targets = append(targets, target{engine: engineHive, run: func(ctx context.Context) (result, error) { return duckRows(ctx, h.duck, q.hiveSQL) }})
	}
	if q.prunes {
		targets = append(targets, target{engine: engineLakeOff, run: func(ctx context.Context) (result, error) { return lakeRows(ctx, h.lakeOff, q.sql) }})
	}
	res := measureTargets(t, q.id, q.name, q.ordered, targets)
	reads, err := explainReads(context.Background(), h, q.sql)
	if err != nil {
		t.Fatal(err)
	}
	res.reads = reads
	return res
}

// The rewrite query's tables: a fresh unpartitioned 30-day copy before each
// run, rewritten in place into day partitions.
const (
	rewriteTable  = "tutorial.rewrite_30d"
	rewriteAnswer = "SELECT count(*), count(DISTINCT CAST(event_time AS DATE)), sum(event_id), sum(price) FROM "
)

// runRewrite measures query 9: repartitioning 30 days of events by day.
// lakesql adds the partition field and runs CALL system.rewrite_data_files,
// the Iceberg way to apply a new spec to existing data; DuckDB writes the
// same rows with COPY … (PARTITION_BY). Each engine's answer is a summary
// of the rows it wrote, read back after the timed run.
func (h *harness) runRewrite(t *testing.T) queryResult {
	out := filepath.Join(h.dir, "rewrite")
	targets := []target{
		{engine: engineLake,
			prepare: func(ctx context.Context) error {
				return lakeExec(ctx, h.lake, "DROP TABLE IF EXISTS "+rewriteTable,
					"CREATE TABLE "+rewriteTable+" AS SELECT * FROM tutorial.events_30d",
					"ALTER TABLE "+rewriteTable+" ADD PARTITION FIELD day(event_time)")
			},
			run: func(ctx context.Context) (result, error) {
				if err := lakeExec(ctx, h.lake, "CALL system.rewrite_data_files(table => '"+rewriteTable+"')"); err != nil {
					return result{}, err
				}
				return lakeRows(ctx, h.lake, rewriteAnswer+rewriteTable)
			}},
		{engine: engineDuck,
			prepare: func(context.Context) error { return os.RemoveAll(out) },
			run: func(ctx context.Context) (result, error) {
				if err := duckExec(ctx, h.duck, fmt.Sprintf(`COPY (SELECT *, CAST(event_time AS DATE) AS event_date FROM tutorial.events_30d)
					TO '%s' (FORMAT parquet, PARTITION_BY (event_date))`, out)); err != nil {
					return result{}, err
				}
				return duckRows(ctx, h.duck, rewriteAnswer+fmt.Sprintf("read_parquet('%s/*/*.parquet', hive_partitioning = false)", out))
			}},
	}
	res := measureTargets(t, 9, "repartition 30 days by day", false, targets)
	files, err := dataFiles(context.Background(), h.lake, rewriteTable)
	if err != nil {
		t.Fatal(err)
	}
	res.reads = scanReads{files: len(files), note: "files written"}
	return res
}

// scanReads is what lakesql's scans read, summed over the scans of a plan.
type scanReads struct {
	files int
	bytes float64
	rows  int64
	note  string
}

// explainReads runs EXPLAIN ANALYZE and sums its scans' read lines.
func explainReads(ctx context.Context, h *harness, query string) (scanReads, error) {
	res, err := lakeRows(ctx, h.lake, "EXPLAIN ANALYZE "+query)
	if err != nil {
		return scanReads{}, err
	}
	var r scanReads
	for _, row := range res.rows {
		m := readLine.FindStringSubmatch(row[0].s)
		if m == nil {
			continue
		}
		files, _ := strconv.Atoi(m[1])
		rows, _ := strconv.ParseInt(m[5], 10, 64)
		size, err := parseSize(m[4])
		if err != nil {
			return scanReads{}, err
		}
		r.files += files
		r.rows += rows
		r.bytes += size
	}
	return r, nil
}

// parseSize reads the byte counts EXPLAIN prints ("12 B", "1.5 MiB").
func parseSize(s string) (float64, error) {
	num, unit, _ := strings.Cut(strings.TrimSpace(s), " ")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("EXPLAIN size %q: %w", s, err)
	}
	for i, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if unit == u {
			return f * float64(uint64(1)<<(10*i)), nil
		}
	}
	return 0, fmt.Errorf("EXPLAIN size %q: unknown unit", s)
}
