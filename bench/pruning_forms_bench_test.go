package bench

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql/planner"
)

// lastWeekClock is now() for the "last 7 days" query: midnight, so the week
// is exactly seven daily partitions of the demo's three years.
var lastWeekClock = time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)

const lastWeekQuery = `SELECT event_type FROM tutorial.events_by_day
	WHERE event_time >= now() - INTERVAL 7 DAY AND event_time < now()`

// BenchmarkLastSevenDays is "the last 7 days" written against now(), with a
// fixed clock, on the day-partitioned demo table: folded, it opens 7 files.
func BenchmarkLastSevenDays(b *testing.B) {
	s := openPartitioned(b)
	ctx := planner.WithStatementTime(context.Background(), lastWeekClock)
	for _, mode := range []string{"on", "off"} {
		b.Run("pruning="+mode, func(b *testing.B) {
			runQuery(b, s, "SET pruning = "+mode)
			reportReadsAt(ctx, b, s, lastWeekQuery)
			b.ResetTimer()
			for range b.N {
				runQueryAt(ctx, b, s, lastWeekQuery)
			}
		})
	}
}

var (
	calendarOnce sync.Once
	calendarErr  error
)

// calendarJoin joins the demo's events, by their date, with a calendar and
// keeps January 2026: dynamic pruning reads only January's files.
const calendarJoin = `SELECT count(*) FROM tutorial.events_by_date e JOIN tutorial.calendar c
	ON e.event_date = c.d WHERE c.month = '2026-01'`

// BenchmarkCalendarJoin measures the calendar join with dynamic partition
// pruning (pruning on) and without.
func BenchmarkCalendarJoin(b *testing.B) {
	s := openPartitioned(b)
	calendarOnce.Do(func() {
		for _, st := range []string{
			`CREATE TABLE tutorial.events_by_date PARTITIONED BY (event_date) AS
				SELECT CAST(event_time AS DATE) AS event_date, event_type FROM tutorial.events_by_day`,
			`CREATE TABLE tutorial.calendar AS SELECT DISTINCT event_date AS d,
				CAST(year(event_date) AS STRING) || '-' || lpad(CAST(month(event_date) AS STRING), 2, '0') AS month FROM tutorial.events_by_date`,
		} {
			res, err := s.Exec(context.Background(), st)
			if err != nil {
				calendarErr = err
				return
			}
			res.Close()
		}
	})
	if calendarErr != nil {
		b.Fatal(calendarErr)
	}
	for _, mode := range []string{"on", "off"} {
		b.Run("pruning="+mode, func(b *testing.B) {
			runQuery(b, s, "SET pruning = "+mode)
			reportReads(b, s, calendarJoin)
			b.ResetTimer()
			for range b.N {
				runQuery(b, s, calendarJoin)
			}
		})
	}
}
