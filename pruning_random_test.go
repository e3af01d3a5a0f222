package lakesql_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

var randomSpecs = []string{
	"", "day(ts)", "hour(ts)", "month(ts)", "year(ts)", "year(d)", "day(d)", "s", "n",
	"bucket(4, n)", "bucket(3, s)", "truncate(2, s)", "truncate(10, n)", "day(ts); s", "month(d); bucket(2, n)",
}

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
	for seed := range uint64(len(randomSpecs)) {
		r := rand.New(rand.NewPCG(seed, 7))
		spec := randomSpecs[int(seed)%len(randomSpecs)]
		t.Run(fmt.Sprintf("seed%d_%s", seed, spec), func(t *testing.T) {
			s := testutil.OpenWith(t, lakesql.Options{Warehouse: t.TempDir()})
			create := "CREATE TABLE db.t (id BIGINT, ts TIMESTAMP, d DATE, s STRING, n INT, x DOUBLE)"
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
					rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", id,
						randomValue(r, "ts"), randomValue(r, "d"), randomValue(r, "s"), randomValue(r, "n"), randomValue(r, "x")))
				}
				testutil.Exec(t, s, "INSERT INTO db.t VALUES "+strings.Join(rows, ", "))
			}
			queries := []string{"SELECT count(*), count(n), min(n), max(n), min(ts), max(d), count(s) FROM db.t"}
			for range 40 {
				queries = append(queries, "SELECT id FROM db.t WHERE "+randomPredicate(r))
			}
			for _, query := range queries {
				testutil.Exec(t, s, "SET pruning = on")
				pruned := testutil.Rows(t, s, query)
				testutil.Exec(t, s, "SET pruning = off")
				full := testutil.Rows(t, s, query)
				if !slices.Equal(pruned, full) {
					t.Fatalf("%s\npruning on:  %v\npruning off: %v", query, pruned, full)
				}
				testutil.Exec(t, s, "SET pruning = on")
				checkFilesOpenedMatchPlan(t, s, query)
			}
		})
	}
}

var (
	plannedFiles = regexp.MustCompile(`data files (\d+)/\d+`)
	openedFiles  = regexp.MustCompile(`read: files (\d+),`)
)

// checkFilesOpenedMatchPlan runs EXPLAIN ANALYZE and checks that every scan
// opened exactly the data files its plan kept.
func checkFilesOpenedMatchPlan(t *testing.T, s *lakesql.Session, query string) {
	t.Helper()
	lines := testutil.RowsInOrder(t, s, "EXPLAIN ANALYZE "+query)
	var planned []string
	for _, line := range lines {
		if m := plannedFiles.FindStringSubmatch(line); m != nil {
			planned = append(planned, m[1])
		}
		if m := openedFiles.FindStringSubmatch(line); m != nil {
			if len(planned) == 0 || planned[len(planned)-1] != m[1] {
				t.Fatalf("%s: scan opened %s files, its plan kept %v\n%s", query, m[1], planned, strings.Join(lines, "\n"))
			}
		}
	}
}
