package lakesql_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
	"github.com/lakesql/lakesql/planner"
)

var randomSpecs = []string{
	"", "day(ts)", "hour(ts)", "month(ts)", "year(ts)", "year(d)", "day(d)", "s", "n",
	"bucket(4, n)", "bucket(3, s)", "truncate(2, s)", "truncate(10, n)", "day(ts); s", "month(d); bucket(2, n)",
	"m", "day(tz)", "hour(tz); n", "year(tz)",
}

// randomClock is now() for the random queries: inside the range of ts.
var randomClock = time.Date(2025, 12, 29, 12, 0, 0, 0, time.UTC)

// randomZones are the session time zones the seeds take in turn: Berlin
// changes its offset on 2026-03-29, inside the range of tz.
var randomZones = []string{"UTC", "Asia/Tokyo", "Europe/Berlin"}

// randomValue gives SQL text for a random value of a column, NULL sometimes.
func randomValue(r *rand.Rand, col string) string {
	if r.IntN(8) == 0 {
		return "NULL"
	}
	switch col {
	case "ts":
		return fmt.Sprintf("TIMESTAMP '2025-12-%02d %02d:%02d:%02d'", 25+r.IntN(7), r.IntN(24), r.IntN(60), r.IntN(60))
	case "d":
		return fmt.Sprintf("DATE '20%02d-%02d-%02d'", 23+r.IntN(4), 1+r.IntN(12), 1+r.IntN(28))
	case "s":
		return fmt.Sprintf("'%s'", []string{"ab", "abc", "b", "ba", "", "zz", "abd"}[r.IntN(7)])
	case "n":
		return fmt.Sprint(r.IntN(40) - 10)
	case "m":
		return fmt.Sprintf("%d.%02d", r.IntN(100)-50, []int{0, 0, 25, 50, 99}[r.IntN(5)])
	case "tz":
		return fmt.Sprintf("TIMESTAMPTZ '2026-03-%02d %02d:%02d:00+00'", 27+r.IntN(5), r.IntN(24), r.IntN(60))
	default: // x
		return []string{"0.5", "-1.25", "3", "'NaN'", "100", "2.5"}[r.IntN(6)]
	}
}

func randomPredicate(r *rand.Rand) string {
	atoms := []func() string{
		func() string { return fmt.Sprintf("ts >= '2025-12-%02d %02d:00:00'", 25+r.IntN(7), r.IntN(24)) },
		func() string { return fmt.Sprintf("ts < TIMESTAMP '2025-12-%02d 00:00:00'", 25+r.IntN(7)) },
		func() string { return fmt.Sprintf("DATE(ts) = DATE '2025-12-%02d'", 25+r.IntN(7)) },
		func() string {
			return fmt.Sprintf("CAST(ts AS DATE) BETWEEN '2025-12-%02d' AND '2025-12-%02d'", 25+r.IntN(3), 27+r.IntN(4))
		},
		func() string { return fmt.Sprintf("YEAR(d) = %d", 2023+r.IntN(4)) },
		func() string { return fmt.Sprintf("YEAR(d) = %d AND MONTH(d) = %d", 2023+r.IntN(4), 1+r.IntN(12)) },
		func() string {
			return fmt.Sprintf("date_trunc('month', d) = DATE '20%02d-%02d-01'", 23+r.IntN(4), 1+r.IntN(12))
		},
		func() string {
			return fmt.Sprintf("date_trunc('day', ts) >= TIMESTAMP '2025-12-%02d 06:00:00'", 25+r.IntN(7))
		},
		func() string { return fmt.Sprintf("d > '20%02d-06-15'", 23+r.IntN(4)) },
		func() string { return fmt.Sprintf("s = '%s'", []string{"ab", "b", "", "zz", "q"}[r.IntN(5)]) },
		func() string { return "s LIKE 'ab%'" },
		func() string { return fmt.Sprintf("n IN (%d, %d, NULL)", r.IntN(40)-10, r.IntN(40)-10) },
		func() string { return fmt.Sprintf("n BETWEEN %d AND %d", r.IntN(20)-10, r.IntN(30)) },
		func() string { return fmt.Sprintf("CAST(n AS VARCHAR) = '%d'", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("x > %d", r.IntN(5)) },
		func() string { return fmt.Sprintf("x <= %d", r.IntN(5)) },
		func() string { return "x IS NULL" },
		func() string { return "ts IS NOT NULL" },
		func() string { return fmt.Sprintf("NOT (n < %d)", r.IntN(30)-10) },
		func() string { return fmt.Sprintf("NOT (x < %d)", r.IntN(5)) },
		func() string { return "s IS NULL" },
		// computed time ranges, folded with a fixed clock
		func() string { return fmt.Sprintf("ts >= now() - INTERVAL %d HOUR", r.IntN(100)) },
		func() string { return fmt.Sprintf("ts < current_date() - %d", r.IntN(4)) },
		func() string { return fmt.Sprintf("d >= date_sub(current_date(), %d)", r.IntN(1000)) },
		func() string {
			return fmt.Sprintf("ts >= TIMESTAMP '2025-12-28 00:00:00' - INTERVAL '%d' DAY", r.IntN(4))
		},
		func() string { return fmt.Sprintf("YEAR(d) = YEAR(current_date()) - %d", r.IntN(3)) },
		func() string { return fmt.Sprintf("d < DATE '2024-01-01' + INTERVAL '%d' MONTH", r.IntN(30)) },
		// numbers of other types than the column
		func() string { return fmt.Sprintf("m BETWEEN %d AND %d", r.IntN(60)-40, r.IntN(60)-10) },
		func() string { return fmt.Sprintf("m = %d", r.IntN(100)-50) },
		func() string { return fmt.Sprintf("m > %d.005", r.IntN(100)-50) },
		func() string {
			return fmt.Sprintf("m IN (%d, %d.25, %de0)", r.IntN(100)-50, r.IntN(100)-50, r.IntN(100)-50)
		},
		func() string { return fmt.Sprintf("n = %d.0", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("n > %d.5", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("n <= %d.5e0", r.IntN(40)-10) },
		// negations
		func() string { return fmt.Sprintf("n <> %d", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("s <> '%s'", []string{"ab", "b", "", "zz"}[r.IntN(4)]) },
		func() string { return fmt.Sprintf("n NOT IN (%d, %d)", r.IntN(40)-10, r.IntN(40)-10) },
		func() string { return fmt.Sprintf("n NOT IN (%d, NULL)", r.IntN(40)-10) },
		func() string { return "NOT (s = 'ab' OR s = 'b')" },
		func() string { return "s NOT LIKE 'a%'" },
		func() string { return "s LIKE 'ab'" },
		func() string { return fmt.Sprintf("m <> %d", r.IntN(100)-50) },
		// subqueries
		func() string { return "d = (SELECT max(d) FROM db.t)" },
		func() string { return "n IN (SELECT n FROM db.t WHERE s = 'ab')" },
		func() string { return fmt.Sprintf("ts >= (SELECT min(ts) FROM db.t WHERE n > %d)", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("n NOT IN (SELECT n FROM db.t WHERE n > %d)", r.IntN(40)-10) },
		func() string { return fmt.Sprintf("EXISTS (SELECT 1 FROM db.t WHERE n = %d)", r.IntN(40)-10) },
		// local time under the session zone
		func() string { return fmt.Sprintf("DATE(tz) = DATE '2026-03-%02d'", 27+r.IntN(5)) },
		func() string {
			return fmt.Sprintf("CAST(tz AS DATE) BETWEEN '2026-03-%02d' AND '2026-03-%02d'", 27+r.IntN(3), 28+r.IntN(4))
		},
		func() string { return fmt.Sprintf("tz >= TIMESTAMP '2026-03-29 %02d:30:00'", r.IntN(24)) },
		func() string { return fmt.Sprintf("ts > TIMESTAMPTZ '2025-12-%02d 10:00:00+00'", 25+r.IntN(7)) },
		func() string { return "YEAR(tz) = 2026 AND MONTH(tz) = 3" },
		func() string {
			return fmt.Sprintf("date_trunc('day', tz) = TIMESTAMP '2026-03-%02d 00:00:00'", 27+r.IntN(5))
		},
	}
	p := atoms[r.IntN(len(atoms))]()
	switch r.IntN(4) {
	case 0:
		p = p + " AND " + atoms[r.IntN(len(atoms))]()
	case 1:
		p = "(" + p + " OR " + atoms[r.IntN(len(atoms))]() + ")"
	}
	return p
}

// evolution is the partition change a seed makes after its third insert.
func evolution(seed uint64, spec string) string {
	switch {
	case seed%3 == 1:
		return "ADD PARTITION FIELD bucket(5, id)"
	case seed%3 == 2 && spec != "":
		first, _, _ := strings.Cut(spec, ";")
		return "DROP PARTITION FIELD " + first
	}
	return ""
}

// TestPruningNeverChangesAnswers builds random partitioned tables with NULLs,
// many files and evolved specs, and checks that random predicates return the same rows with
// pruning on and off.
func TestPruningNeverChangesAnswers(t *testing.T) {
	dynamicPrunes := 0
	defer func() {
		if !t.Failed() && dynamicPrunes == 0 {
			t.Error("no join pruned its probe side at run time")
		}
	}()
	for seed := range uint64(len(randomSpecs)) {
		r := rand.New(rand.NewPCG(seed, 7))
		spec := randomSpecs[int(seed)%len(randomSpecs)]
		t.Run(fmt.Sprintf("seed%d_%s", seed, spec), func(t *testing.T) {
			s := testutil.OpenWith(t, lakesql.Options{Warehouse: t.TempDir()})
			create := "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP, d DATE, s STRING, n INT, x DOUBLE, m DECIMAL(9,2), tz TIMESTAMPTZ)"
			if spec != "" {
				create += " PARTITIONED BY (" + strings.ReplaceAll(spec, ";", ",") + ")"
			}
			testutil.Exec(t, s, "CREATE NAMESPACE db", create)
			id := 0
			for round := range 6 { // several inserts: several snapshots, manifests and files
				if round == 3 {
					// Evolve the spec half way: older files keep theirs.
					if evolve := evolution(seed, spec); evolve != "" {
						testutil.Exec(t, s, "ALTER TABLE db.t "+evolve)
					}
				}
				var rows []string
				for range 15 {
					id++
					rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s, %s, %s)", id,
						randomValue(r, "ts"), randomValue(r, "d"), randomValue(r, "s"), randomValue(r, "n"), randomValue(r, "x"),
						randomValue(r, "m"), randomValue(r, "tz")))
				}
				testutil.Exec(t, s, "INSERT INTO db.t VALUES "+strings.Join(rows, ", "))
			}
			testutil.Exec(t, s, "SET TIME ZONE '"+randomZones[int(seed)%len(randomZones)]+"'")
			queries := []string{"SELECT count(*), count(n), min(n), max(n), min(ts), max(d), count(s) FROM db.t"}
			for range 50 {
				queries = append(queries, "SELECT id FROM db.t WHERE "+randomPredicate(r))
			}
			// Joins prune their probe side at run time by the build side's keys.
			for range 4 {
				queries = append(queries, "SELECT a.id, b.id FROM db.t a JOIN (SELECT * FROM db.t WHERE "+randomPredicate(r)+") b ON "+
					[]string{"a.d = b.d", "a.n = b.n", "a.s = b.s", "a.ts = b.ts"}[r.IntN(4)])
			}
			ctx := planner.WithStatementTime(context.Background(), randomClock)
			for _, query := range queries {
				testutil.Exec(t, s, "SET pruning = on")
				pruned := testutil.RowsAt(ctx, t, s, query)
				testutil.Exec(t, s, "SET pruning = off")
				full := testutil.RowsAt(ctx, t, s, query)
				slices.Sort(pruned)
				slices.Sort(full)
				if !slices.Equal(pruned, full) {
					t.Fatalf("%s\npruning on:  %v\npruning off: %v", query, pruned, full)
				}
				testutil.Exec(t, s, "SET pruning = on")
				dynamicPrunes += checkFilesOpenedMatchPlan(ctx, t, s, query)
			}
		})
	}
}

var (
	plannedFiles = regexp.MustCompile(`data files (\d+)/\d+`)
	openedFiles  = regexp.MustCompile(`read: files (\d+),`)
)

// checkFilesOpenedMatchPlan runs EXPLAIN ANALYZE and checks that every scan
// opened exactly the data files its plan kept, except that the probe side
// of a join may open fewer (dynamic pruning drops files at run time).
// It returns how many scans opened fewer files than planned.
func checkFilesOpenedMatchPlan(ctx context.Context, t *testing.T, s *lakesql.Session, query string) (prunedAtRunTime int) {
	t.Helper()
	lines := testutil.RowsAt(ctx, t, s, "EXPLAIN ANALYZE "+query)
	join := strings.Contains(query, " JOIN ")
	var planned []string
	// A subquery's plan is printed under the line "… runs once:"; its
	// scans may stop early (EXISTS needs one row), opening fewer files.
	subqueryIndent := -1
	for _, line := range lines {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if subqueryIndent >= 0 && indent <= subqueryIndent {
			subqueryIndent = -1
		}
		if strings.HasSuffix(line, " runs once:") && subqueryIndent < 0 {
			subqueryIndent = indent
		}
		atMost := join || subqueryIndent >= 0
		if m := plannedFiles.FindStringSubmatch(line); m != nil {
			planned = append(planned, m[1])
		}
		if m := openedFiles.FindStringSubmatch(line); m != nil {
			if len(planned) == 0 || !atMost && planned[len(planned)-1] != m[1] || atMost && atoi(t, m[1]) > atoi(t, planned[len(planned)-1]) {
				t.Fatalf("%s: scan opened %s files, its plan kept %v\n%s", query, m[1], planned, strings.Join(lines, "\n"))
			}
			if m[1] != planned[len(planned)-1] {
				prunedAtRunTime++
			}
		}
	}
	return prunedAtRunTime
}

// atoi parses a count printed by EXPLAIN ANALYZE.
func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
