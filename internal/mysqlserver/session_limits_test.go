package mysqlserver

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
	"testing"
)

// rowsOn runs query on one connection and renders its rows (see scanRows).
func rowsOn(ctx context.Context, c *sql.Conn, query string) ([]string, error) {
	return scanRows(c.QueryContext(ctx, query))
}

// twoConnections are two connections of one server to the tutorial.
func twoConnections(t *testing.T) (a, b *sql.Conn) {
	t.Helper()
	db := open(t, start(t, warehouse(t), nil), "tutorial")
	ctx := context.Background()
	conns := make([]*sql.Conn, 2)
	for i := range conns {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
	}
	return conns[0], conns[1]
}

// SET memory_limit on a connection limits that connection's statements
// only, under the server's limit: with 1MB, a GROUP BY over a cross join
// (whose build side cannot spill) stops with the one-line memory error,
// and a GROUP BY of a million rows spills to disk with the same answer,
// while another connection, at the same time, runs both within the
// server's limit.
func TestMemoryLimitPerConnection(t *testing.T) {
	small, large := twoConnections(t)
	ctx := context.Background()
	if _, err := small.ExecContext(ctx, "SET memory_limit = '1MB'"); err != nil {
		t.Fatal(mysqlError(err))
	}
	shown := func(c *sql.Conn) string {
		rows, err := rowsOn(ctx, c, "SET memory_limit")
		if err != nil || len(rows) != 1 {
			t.Fatalf("SET memory_limit: %v %v", rows, err)
		}
		return strings.Split(rows[0], "|")[1]
	}
	if got, other := shown(small), shown(large); got != "976.6 KiB" || other == got {
		t.Errorf("memory_limit is %s on the connection that set it and %s on the other", got, other)
	}
	_, err := small.ExecContext(ctx, "SET memory_limit = '1PB'")
	if got := mysqlError(err); !strings.Contains(got, "is more than the server's memory_limit") {
		t.Errorf("a connection's limit above the server's: %s", got)
	}

	// The GROUP BY over a cross join buffers the join's build side, which
	// cannot spill; the GROUP BY over range() spills.
	const crossGroupBy = `SELECT count(*), sum(n) FROM (SELECT a.event_id, b.user_id, count(*) AS n
		FROM retail_clickstream_events a, retail_clickstream_events b GROUP BY a.event_id, b.user_id) g`
	const rangeGroupBy = `SELECT count(*), sum(n), sum(k) FROM (SELECT id % 200000 AS k, count(*) AS n
		FROM range(0, 1000000) GROUP BY id % 200000) g`
	// The two connections run at once; each runs its statements one after
	// the other, as a MySQL connection serves one statement at a time.
	var wg sync.WaitGroup
	results := map[string][]string{}
	errs := map[string]error{}
	var mu sync.Mutex
	for prefix, c := range map[string]*sql.Conn{"small": small, "large": large} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name, query := range map[string]string{" cross": crossGroupBy, " ranged": rangeGroupBy} {
				rows, err := rowsOn(ctx, c, query)
				mu.Lock()
				results[prefix+name], errs[prefix+name] = rows, err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	got := mysqlError(errs["small cross"])
	if !strings.Contains(got, "needs more memory than memory_limit (976.6 KiB) allows") || strings.Contains(got, "\n") {
		t.Errorf("the GROUP BY of a cross join under 1MB: %s", got)
	}
	for _, name := range []string{"large cross", "small ranged", "large ranged"} {
		if errs[name] != nil {
			t.Errorf("%s: %s", name, mysqlError(errs[name]))
		}
	}
	if want := []string{"64800|810000"}; !slices.Equal(results["large cross"], want) {
		t.Errorf("the GROUP BY of a cross join within the server's limit gave %v, want %v", results["large cross"], want)
	}
	if want := []string{"200000|1000000|19999900000"}; !slices.Equal(results["small ranged"], want) || !slices.Equal(results["large ranged"], want) {
		t.Errorf("GROUP BY under 1MB gave %v, within the server's limit %v, want %v", results["small ranged"], results["large ranged"], want)
	}
	// RESET gives the connection the server's limit back.
	if _, err := small.ExecContext(ctx, "RESET memory_limit"); err != nil {
		t.Fatal(mysqlError(err))
	}
	if rows, err := rowsOn(ctx, small, crossGroupBy); err != nil || !slices.Equal(rows, results["large cross"]) {
		t.Errorf("the GROUP BY of a cross join after RESET memory_limit: %v %v", rows, err)
	}
}

// statement_timeout (and MySQL's max_execution_time) stops the statements
// of the connection that set it, not those of another running the same
// query at the same time.
func TestStatementTimeoutPerConnection(t *testing.T) {
	limited, free := twoConnections(t)
	ctx := context.Background()
	if _, err := limited.ExecContext(ctx, "SET statement_timeout = '100ms'"); err != nil {
		t.Fatal(mysqlError(err))
	}
	const slow = `SELECT count(*) FROM retail_clickstream_events a, retail_clickstream_events b,
		retail_clickstream_events c WHERE a.user_id + b.user_id <> c.user_id AND c.event_id < 30`
	var wg sync.WaitGroup
	var limitedErr, freeErr error
	var freeRows []string
	wg.Add(2)
	go func() { defer wg.Done(); _, limitedErr = rowsOn(ctx, limited, slow) }()
	go func() { defer wg.Done(); freeRows, freeErr = rowsOn(ctx, free, slow) }()
	wg.Wait()
	if got := mysqlError(limitedErr); !strings.HasPrefix(got, "3024 HY000:") || !strings.Contains(got, "ran longer than 100ms") {
		t.Errorf("the connection with statement_timeout: %s", got)
	}
	if freeErr != nil || len(freeRows) != 1 || freeRows[0] == "0" {
		t.Errorf("the other connection: %v %s", freeRows, mysqlError(freeErr))
	}
	if rows, err := rowsOn(ctx, free, "SET statement_timeout"); err != nil || len(rows) != 1 || !strings.HasPrefix(rows[0], "statement_timeout|0s|") {
		t.Errorf("statement_timeout on the other connection: %v %v", rows, err)
	}
}
