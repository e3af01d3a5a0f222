package optimizer

import (
	"maps"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// maxExactJoinLeaves bounds the join trees ordered exactly: the dynamic
// program visits every split of every subset of leaves, 3^n of them
// (59,049 for 10; TPC-H's largest tree, Q8's, has 8 leaves).
const maxExactJoinLeaves = 10

// exactJoinOrder plans a tree of inner joins whose leaves all connect
// through equalities by dynamic programming over the subsets of leaves
// (DPsub, as DuckDB and Postgres order small join graphs): each connected
// subset's best plan is its cheapest split into two connected subsets that
// an equality joins, where a plan's cost is the sum of the rows of the
// joins it computes (estimated as joinEstimate does, from the split's
// sides). Greedy ordering (joining the smallest pair first) can
// take a small join that leads nowhere — TPC-H Q5 joins supplier to nation
// before customer, then orders to lineitem, 910,000 rows, when
// region-nation-customer-orders-lineitem stays under 200,000.
//
// Columns equated by the query form classes (a = b and b = c make a = c),
// so a join may use an equality the query only implies: nation joins
// customer through c_nationkey = s_nationkey = n_nationkey. Each join then
// equates each class once across its two sides; the equalities the query
// wrote are all implied by those. It returns nil, leaving the tree to the
// greedy order, when there are too many leaves, when some leaves connect
// only through other conditions or not at all (a cross join), or when a
// class has two columns of one leaf.
func exactJoinOrder(parts []*joinPart, multi []planner.Expr, maskOf func(planner.Expr) uint64, leafOf []int, ndv []float64) *joinPart {
	n := len(parts)
	if n < 3 || n > maxExactJoinLeaves {
		return nil
	}
	g := &joinGraph{parts: parts, ndv: ndv, class: make(map[int]int), refs: make(map[int]*planner.ColumnRef)}
	if !g.classify(multi, maskOf, leafOf) {
		return nil
	}
	full := uint64(1)<<n - 1
	g.best = make([]joinPlanChoice, full+1)
	for i, p := range parts {
		g.best[1<<i] = joinPlanChoice{rows: p.rows, ok: true}
	}
	for s := uint64(3); s <= full; s++ {
		if bits.OnesCount64(s) < 2 {
			continue
		}
		for l := (s - 1) & s; l > 0; l = (l - 1) & s {
			r := s ^ l
			if l < r || !g.best[l].ok || !g.best[r].ok {
				continue // each split once; both sides planned
			}
			keyNDV := g.joinKeyNDV(l, r)
			if keyNDV == 0 {
				continue // not a hash join
			}
			rows := max(1, g.best[l].rows*g.best[r].rows/keyNDV)
			cost := g.best[l].cost + g.best[r].cost + rows
			if !g.best[s].ok || cost < g.best[s].cost {
				g.best[s] = joinPlanChoice{left: l, right: r, rows: rows, cost: cost, ok: true}
			}
		}
	}
	if !g.best[full].ok {
		return nil
	}
	return g.build(full)
}

// joinGraph is a join tree's leaves, the classes of columns its equalities
// make, its other conditions over several leaves, and the best plan found
// per subset of leaves.
type joinGraph struct {
	parts       []*joinPart
	ndv         []float64                  // per tree column
	class       map[int]int                // tree column → its class
	refs        map[int]*planner.ColumnRef // tree column → a reference to it
	classLeaves []uint64                   // per class: the leaves with a column of it
	classNDV    []float64
	others      []planner.Expr // conditions over several leaves that are not column equalities
	otherMasks  []uint64
	best        []joinPlanChoice // by subset of leaves
}

// joinPlanChoice is the best plan of a subset of leaves: the split it joins
// (left, right), its estimated rows and its cost.
type joinPlanChoice struct {
	left, right uint64
	rows, cost  float64
	ok          bool
}

// classify puts the column equalities of multi into classes and keeps the
// other conditions; it reports false when a class would equate two
// columns of one leaf (a condition within a leaf that the classes' joins
// would not check).
func (g *joinGraph) classify(multi []planner.Expr, maskOf func(planner.Expr) uint64, leafOf []int) bool {
	parent := make(map[int]int)
	var find func(int) int
	find = func(c int) int {
		if p, ok := parent[c]; ok && p != c {
			root := find(p)
			parent[c] = root
			return root
		}
		parent[c] = c
		return c
	}
	for _, e := range multi {
		// Columns of one type may be joined with any other column
		// equated to either.
		l, r, ok := equatedColumns(e)
		if !ok || !arrow.TypeEqual(l.T, r.T) {
			g.others = append(g.others, e)
			g.otherMasks = append(g.otherMasks, maskOf(e))
			continue
		}
		g.refs[l.Index], g.refs[r.Index] = l, r
		parent[find(l.Index)] = find(r.Index)
	}
	ids := make(map[int]int)
	for _, col := range slices.Sorted(maps.Keys(g.refs)) {
		root := find(col)
		id, ok := ids[root]
		if !ok {
			id = len(g.classLeaves)
			ids[root] = id
			g.classLeaves = append(g.classLeaves, 0)
			g.classNDV = append(g.classNDV, g.ndv[col])
		}
		g.class[col] = id
		leaf := uint64(1) << leafOf[col]
		if g.classLeaves[id]&leaf != 0 {
			return false
		}
		g.classLeaves[id] |= leaf
	}
	return true
}

// joinKeyNDV estimates the distinct values of the key joining the
// leaves l to the leaves r, 0 when no equality joins them: the most of
// the classes with columns on both sides (or 10 for another equality), as
// joinEstimate guesses. Not their product: the columns of a key of several
// (TPC-H's ps_partkey, ps_suppkey) are not independent, and a product
// would take lineitem joined to partsupp for a few thousand rows, not six
// million.
func (g *joinGraph) joinKeyNDV(l, r uint64) float64 {
	ndv := 0.0
	for c, leaves := range g.classLeaves {
		if leaves&l != 0 && leaves&r != 0 {
			ndv = max(ndv, g.classNDV[c])
		}
	}
	for i, m := range g.otherMasks {
		if m&^(l|r) == 0 && m&l != 0 && m&r != 0 && isEquality(g.others[i]) {
			ndv = max(ndv, 10)
		}
	}
	return ndv
}

// build plans the leaves of s as the dynamic program chose, the side with
// fewer rows building.
func (g *joinGraph) build(s uint64) *joinPart {
	if bits.OnesCount64(s) == 1 {
		return g.parts[bits.TrailingZeros64(s)]
	}
	choice := g.best[s]
	probe, build := g.build(choice.left), g.build(choice.right)
	if probe.rows < build.rows {
		probe, build = build, probe
	}
	cols := append(append([]int(nil), probe.cols...), build.cols...)
	local := make(map[int]int, len(cols))
	for i, c := range cols {
		local[c] = i
	}
	var cond []planner.Expr
	for c := range g.classLeaves {
		a, aok := g.classColumn(probe, c)
		b, bok := g.classColumn(build, c)
		if aok && bok {
			cond = append(cond, &planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean, Args: []planner.Expr{
				&planner.ColumnRef{Index: local[a.Index], Name: a.Name, T: a.T},
				&planner.ColumnRef{Index: local[b.Index], Name: b.Name, T: b.T}}})
		}
	}
	for i, m := range g.otherMasks {
		if m&^s == 0 && m&^probe.leaves != 0 && m&^build.leaves != 0 {
			cond = append(cond, remapColumnsMap(g.others[i], local))
		}
	}
	join := planner.NewJoin(sql.JoinInner, probe.plan, build.plan, planner.Conjunction(cond))
	join.BuildLeft = false
	return &joinPart{leaves: s, plan: join, rows: choice.rows, cols: cols}
}

// classColumn returns a column of class c that part outputs (the first).
func (g *joinGraph) classColumn(part *joinPart, c int) (*planner.ColumnRef, bool) {
	for _, col := range part.cols {
		if cl, ok := g.class[col]; ok && cl == c {
			return g.refs[col], true
		}
	}
	return nil, false
}
