package lakesql

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestWindowEndToEnd runs the seed pipeline's sessionization queries
// through a session over a real table with several data files.
func TestWindowEndToEnd(t *testing.T) {
	s, err := Open(context.Background(), Options{Warehouse: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE NAMESPACE db",
		"CREATE TABLE db.events (user_id INT, event_time TIMESTAMP, event_type STRING) PARTITIONED BY (day(event_time))")
	// Two users over two days; user 2's second event starts a new session
	// (more than 30 minutes after the first).
	for _, day := range []string{"15", "16"} {
		var rows []string
		for i, typ := range []string{"view", "cart", "purchase"} {
			rows = append(rows,
				fmt.Sprintf("(1, TIMESTAMP '2026-01-%s 10:0%d:00', '%s')", day, i, typ),
				fmt.Sprintf("(2, TIMESTAMP '2026-01-%s 1%d:00:00', '%s')", day, i, typ))
		}
		mustExec(t, s, "INSERT INTO db.events VALUES "+strings.Join(rows, ", "))
	}
	got := queryRows(t, s, `
		WITH marked AS (
		  SELECT user_id, event_time, event_type,
		    CASE WHEN lag(event_time) OVER (PARTITION BY user_id ORDER BY event_time) IS NULL
		      OR event_time > lag(event_time) OVER (PARTITION BY user_id ORDER BY event_time) + INTERVAL 30 MINUTE
		    THEN 1 ELSE 0 END AS new_session
		  FROM db.events
		), sessions AS (
		  SELECT user_id, event_time, event_type,
		    sum(new_session) OVER (PARTITION BY user_id ORDER BY event_time ROWS UNBOUNDED PRECEDING) AS session_no
		  FROM marked
		)
		SELECT user_id, session_no, count(*) AS events,
		  sum(CASE WHEN event_type = 'purchase' THEN 1 ELSE 0 END) AS purchases
		FROM sessions GROUP BY user_id, session_no ORDER BY user_id, session_no`)
	want := []string{"1|1|3|1", "1|2|3|1", "2|1|1|0", "2|2|1|0", "2|3|1|1", "2|4|1|0", "2|5|1|0", "2|6|1|1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sessions:\ngot  %v\nwant %v", got, want)
	}

	// Event numbers within a day (queryRows sorts the rows it returns).
	got = queryRows(t, s, `
		SELECT user_id, event_type,
		  row_number() OVER (PARTITION BY CAST(event_time AS DATE) ORDER BY event_time, user_id) AS n,
		  count(*) OVER (PARTITION BY CAST(event_time AS DATE)) AS day_events
		FROM db.events WHERE event_time >= TIMESTAMP '2026-01-16 00:00:00'`)
	want = []string{"1|cart|3|6", "1|purchase|4|6", "1|view|1|6", "2|cart|5|6", "2|purchase|6|6", "2|view|2|6"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("day numbering:\ngot  %v\nwant %v", got, want)
	}
}
