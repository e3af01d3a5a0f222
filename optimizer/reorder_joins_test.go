package optimizer

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// testScan is a scan of table name with the given columns (all BIGINT) whose
// snapshot says it holds rows rows.
func testScan(name string, rows int, cols ...string) *planner.Scan {
	snap := &table.Snapshot{SnapshotID: 1, Summary: &table.Summary{Properties: map[string]string{"total-records": strconv.Itoa(rows)}}}
	s := &planner.Scan{Table: &planner.TableRef{Namespace: "db", Name: name, Snapshot: snap}}
	for i, c := range cols {
		s.Columns = append(s.Columns, planner.ScanColumn{FieldID: i + 1, Name: c, T: arrow.PrimitiveTypes.Int64})
	}
	return s
}

func col(i int, name string) *planner.ColumnRef {
	return &planner.ColumnRef{Index: i, Name: name, T: arrow.PrimitiveTypes.Int64}
}

func eq(a, b planner.Expr) planner.Expr { return call(planner.FnEq, planner.TypeBoolean, a, b) }

func int64Lit(v int64) *planner.Literal {
	return &planner.Literal{Value: v, T: arrow.PrimitiveTypes.Int64}
}

func cross(l, r planner.Plan) *planner.Join {
	return &planner.Join{Type: sql.JoinCross, Left: l, Right: r}
}

// planLines is the plan's EXPLAIN text without the scans' snapshot ids.
func planLines(p planner.Plan) string {
	return strings.TrimSpace(strings.ReplaceAll(planner.Format(p), " snapshot=1", ""))
}

func TestReorderJoins(t *testing.T) {
	// FROM fact, dim, tiny WHERE fact.d = dim.id AND dim.t = tiny.id AND tiny.x = 5:
	// fact(f_id, d) 0-1, dim(id, t) 2-3, tiny(id, x) 4-5.
	fact, dim, tiny := testScan("fact", 1000000, "f_id", "d"), testScan("dim", 1000, "id", "t"), testScan("tiny", 10, "id", "x")
	where := planner.Conjunction([]planner.Expr{eq(col(1, "d"), col(2, "id")), eq(col(3, "t"), col(4, "id")), eq(col(5, "x"), int64Lit(5))})
	p := &planner.Filter{Input: cross(cross(fact, dim), tiny), Cond: where}
	got := planLines(reorderJoins(pushDownFilters(p)))
	// The filtered tiny table joins dim first (the smallest join), and the
	// fact table probes their join, which keeps FROM's column order.
	want := `HashJoin INNER on [fact.d = dim.id] build=right
  Scan db.fact columns=[f_id, d]
  HashJoin INNER on [dim.t = tiny.id] build=right
    Scan db.dim columns=[id, t]
    Filter (x = 5)
      Scan db.tiny columns=[id, x]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Nothing connects the two tables: the cross join stays, the filtered
	// side (estimated smaller) building; a projection restores FROM's order.
	p = &planner.Filter{Input: cross(testScan("a", 5, "x"), testScan("b", 7, "y")), Cond: eq(col(0, "x"), int64Lit(1))}
	got = planLines(reorderJoins(pushDownFilters(p)))
	want = `Project x, y
  NestedLoopJoin CROSS build=right
    Scan db.b columns=[y]
    Filter (x = 1)
      Scan db.a columns=[x]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// A non-equality between the sides is the nested-loop condition.
	p = &planner.Filter{Input: cross(testScan("a", 5, "x"), testScan("b", 7, "y")), Cond: call(planner.FnLt, planner.TypeBoolean, col(0, "x"), col(1, "y"))}
	got = planLines(reorderJoins(pushDownFilters(p)))
	want = `Project x, y
  NestedLoopJoin INNER on (a.x < b.y) build=right
    Scan db.b columns=[y]
    Scan db.a columns=[x]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReorderJoinsBuildSide(t *testing.T) {
	// A left join keeps its order; the filtered left side is the smaller.
	left := &planner.Filter{Input: testScan("a", 100, "x"), Cond: eq(col(0, "x"), int64Lit(1))}
	p := planner.NewJoin(sql.JoinLeft, left, testScan("b", 50, "y"), eq(col(0, "x"), col(1, "y")))
	got := planLines(reorderJoins(p))
	want := `HashJoin LEFT on [a.x = b.y] build=left
  Filter (x = 1)
    Scan db.a columns=[x]
  Scan db.b columns=[y]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFactorOr(t *testing.T) {
	key := eq(col(0, "a"), col(1, "b"))
	x, y := eq(col(2, "c"), int64Lit(1)), eq(col(2, "c"), int64Lit(2))
	or := func(l, r planner.Expr) planner.Expr { return call(planner.FnOr, planner.TypeBoolean, l, r) }
	and := func(l, r planner.Expr) planner.Expr { return call(planner.FnAnd, planner.TypeBoolean, l, r) }
	for _, c := range []struct {
		in   planner.Expr
		want string
	}{
		{or(and(key, x), and(y, key)), "(a = b) | ((c = 1) OR (c = 2))"},
		{or(and(key, x), key), "(a = b)"},
		{or(x, y), "((c = 1) OR (c = 2))"},
		// Same names, other columns: not the same conjunct.
		{or(and(key, x), and(eq(col(0, "a"), col(3, "b")), y)), "(((a = b) AND (c = 1)) OR ((a = b) AND (c = 2)))"},
	} {
		var parts []string
		for _, e := range factorConjuncts([]planner.Expr{c.in}) {
			parts = append(parts, e.String())
		}
		if got := strings.Join(parts, " | "); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// TestExactJoinOrder orders TPC-H Q5's join graph, where joining the
// smallest pair first leads astray: supplier-nation-region (2,000 rows)
// joins nothing small next, so greedy ordering joined customer, orders and
// lineitem into 910,000 rows. The exact order follows the chain from the
// filtered region to lineitem, joining customer to nation through the
// equality the query only implies (c_nationkey = s_nationkey = n_nationkey),
// and joins supplier last on both of its keys.
func TestExactJoinOrder(t *testing.T) {
	// customer(c_custkey, c_nationkey) 0-1, orders(o_orderkey, o_custkey) 2-3,
	// lineitem(l_orderkey, l_suppkey) 4-5, supplier(s_suppkey, s_nationkey) 6-7,
	// nation(n_nationkey, n_regionkey) 8-9, region(r_regionkey, r_name) 10-11.
	tables := []*planner.Scan{
		testScan("customer", 150000, "c_custkey", "c_nationkey"),
		testScan("orders", 1500000, "o_orderkey", "o_custkey"),
		testScan("lineitem", 6000000, "l_orderkey", "l_suppkey"),
		testScan("supplier", 10000, "s_suppkey", "s_nationkey"),
		testScan("nation", 25, "n_nationkey", "n_regionkey"),
		testScan("region", 5, "r_regionkey", "r_name"),
	}
	var from planner.Plan = tables[0]
	for _, s := range tables[1:] {
		from = cross(from, s)
	}
	where := planner.Conjunction([]planner.Expr{
		eq(col(0, "c_custkey"), col(3, "o_custkey")),
		eq(col(4, "l_orderkey"), col(2, "o_orderkey")),
		eq(col(5, "l_suppkey"), col(6, "s_suppkey")),
		eq(col(1, "c_nationkey"), col(7, "s_nationkey")),
		eq(col(7, "s_nationkey"), col(8, "n_nationkey")),
		eq(col(9, "n_regionkey"), col(10, "r_regionkey")),
		eq(col(11, "r_name"), int64Lit(2)),
	})
	got := planLines(reorderJoins(pushDownFilters(&planner.Filter{Input: from, Cond: where})))
	want := `Project c_custkey, c_nationkey, o_orderkey, o_custkey, l_orderkey, l_suppkey, s_suppkey, s_nationkey, n_nationkey, n_regionkey, r_regionkey, r_name
  HashJoin INNER on [customer.c_nationkey = supplier.s_nationkey, lineitem.l_suppkey = supplier.s_suppkey] build=right
    HashJoin INNER on [lineitem.l_orderkey = orders.o_orderkey] build=right
      Scan db.lineitem columns=[l_orderkey, l_suppkey]
      HashJoin INNER on [orders.o_custkey = customer.c_custkey] build=right
        Scan db.orders columns=[o_orderkey, o_custkey]
        HashJoin INNER on [customer.c_nationkey = nation.n_nationkey] build=right
          Scan db.customer columns=[c_custkey, c_nationkey]
          HashJoin INNER on [nation.n_regionkey = region.r_regionkey] build=right
            Scan db.nation columns=[n_nationkey, n_regionkey]
            Filter (r_name = 2)
              Scan db.region columns=[r_regionkey, r_name]
    Scan db.supplier columns=[s_suppkey, s_nationkey]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
