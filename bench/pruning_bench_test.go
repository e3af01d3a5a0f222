package bench

import (
	"context"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/lakesql/lakesql"
)

var (
	partitionedOnce sync.Once
	partitionedErr  error
)

// openPartitioned opens the demo warehouse with a copy of the clickstream
// partitioned by day(event_time), as the seed tutorial ends up.
func openPartitioned(b *testing.B) *lakesql.Session {
	dir := demoWarehouse(b)
	s, err := lakesql.Open(context.Background(), lakesql.Options{Warehouse: dir})
	if err != nil {
		b.Fatal(err)
	}
	partitionedOnce.Do(func() {
		for _, st := range []string{
			`CREATE TABLE tutorial.events_by_day (event_id BIGINT, event_time TIMESTAMP, session_id STRING, user_id BIGINT,
				event_type STRING, product_id STRING, category STRING, price DECIMAL(10,2), quantity INT, device STRING, country STRING)
			 PARTITIONED BY (day(event_time))`,
			`INSERT INTO tutorial.events_by_day SELECT * FROM tutorial.retail_clickstream_events`,
		} {
			res, err := s.Exec(context.Background(), st)
			if err != nil {
				partitionedErr = err
				return
			}
			res.Close()
		}
	})
	if partitionedErr != nil {
		b.Fatal(partitionedErr)
	}
	return s
}

const oneDayQuery = `SELECT event_type FROM tutorial.events_by_day
	WHERE event_time >= TIMESTAMP '2026-01-15 00:00:00' AND event_time < TIMESTAMP '2026-01-16 00:00:00'`

var readLine = regexp.MustCompile(`read: files (\d+), row groups (\d+)/(\d+), bytes ([^,]+), rows (\d+)`)

// reportReads runs EXPLAIN ANALYZE once and reports the files the scan opened.
func reportReads(b *testing.B, s *lakesql.Session, query string) {
	reportReadsAt(context.Background(), b, s, query)
}

// reportReadsAt is reportReads in ctx (which may fix the statement clock).
func reportReadsAt(ctx context.Context, b *testing.B, s *lakesql.Session, query string) {
	res, err := s.Exec(ctx, "EXPLAIN ANALYZE "+query)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Close()
	for {
		batch, err := res.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if batch == nil {
			return
		}
		col := batch.Column(0)
		for i := range col.Len() {
			if m := readLine.FindStringSubmatch(col.ValueStr(i)); m != nil {
				files, _ := strconv.Atoi(m[1])
				b.ReportMetric(float64(files), "files")
				b.Logf("scan read: files %s, row groups %s/%s, bytes %s, rows %s", m[1], m[2], m[3], m[4], m[5])
			}
		}
		batch.Release()
	}
}

// BenchmarkOneDayQuery is the tutorial's one-day query on the day-partitioned
// table, with partition pruning on and off.
func BenchmarkOneDayQuery(b *testing.B) {
	s := openPartitioned(b)
	for _, mode := range []string{"on", "off"} {
		b.Run("pruning="+mode, func(b *testing.B) {
			runQuery(b, s, "SET pruning = "+mode)
			reportReads(b, s, oneDayQuery)
			b.ResetTimer()
			for range b.N {
				runQuery(b, s, oneDayQuery)
			}
		})
	}
}
