package lakesql_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// TestPagePruningNeverChangesAnswers runs random filters over a table
// whose files hold several pages per column (100,000 rows, sorted by id so
// that page bounds differ) with pruning on and off, with and without
// deleted rows: skipping pages must never change an answer.
func TestPagePruningNeverChangesAnswers(t *testing.T) {
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: t.TempDir()})
	digits := "(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))"
	testutil.Exec(t, s,
		"CREATE NAMESPACE db",
		`CREATE TABLE db.p PARTITIONED BY (bucket(2, id)) AS
		 SELECT id, id % 97 AS user_id, CASE WHEN id % 9 = 0 THEN NULL ELSE concat('c', CAST(id / 7000 AS STRING)) END AS country,
		        CASE WHEN id % 5 = 0 THEN NULL ELSE id * 3 END AS n
		 FROM (SELECT a.x + 10 * b.x + 100 * c.x + 1000 * d.x + 10000 * e.x AS id
		       FROM `+digits+` AS a(x) CROSS JOIN `+digits+` AS b(x) CROSS JOIN `+digits+` AS c(x)
		       CROSS JOIN `+digits+` AS d(x) CROSS JOIN `+digits+` AS e(x)) AS q ORDER BY id`,
	)
	r := rand.New(rand.NewPCG(3, 4))
	pred := func() string {
		v := r.IntN(110_000) - 5_000
		switch r.IntN(7) {
		case 0:
			return fmt.Sprintf("id = %d", v)
		case 1:
			return fmt.Sprintf("id BETWEEN %d AND %d", v, v+r.IntN(3000))
		case 2:
			return fmt.Sprintf("(id < %d OR id > %d)", r.IntN(3000), 100_000-r.IntN(3000))
		case 3:
			return fmt.Sprintf("country = 'c%d'", r.IntN(16))
		case 4:
			return "country IS NULL AND id < " + fmt.Sprint(v)
		case 5:
			return fmt.Sprintf("n >= %d AND n < %d", 3*v, 3*v+600)
		default:
			return fmt.Sprintf("n IS NULL AND id > %d", v)
		}
	}
	check := func() {
		for range 25 {
			q := "SELECT id, user_id, country, n FROM db.p WHERE " + pred()
			if r.IntN(2) == 0 {
				q += " AND " + pred()
			}
			testutil.Exec(t, s, "SET pruning = on")
			on := testutil.Rows(t, s, q)
			testutil.Exec(t, s, "SET pruning = off")
			off := testutil.Rows(t, s, q)
			if !slices.Equal(on, off) {
				t.Fatalf("%s\npruning on: %d rows, off: %d rows", q, len(on), len(off))
			}
		}
	}
	check()
	testutil.Exec(t, s, "SET pruning = on", "DELETE FROM db.p WHERE id % 13 = 0 OR id BETWEEN 40000 AND 41000")
	check()
}
