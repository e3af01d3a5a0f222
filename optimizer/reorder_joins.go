package optimizer

import (
	"math/bits"
	"reflect"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// reorderJoins replans each tree of inner and cross joins (with the filters
// between and above them) from its leaves and its conditions, so that
// FROM a, b, c WHERE a.x = b.y … runs as hash joins in a good order.
//
// The conditions of the tree are split into conjuncts (after factoring out
// what every branch of an OR repeats, as Q19's OR of three conditions on
// p_partkey = l_partkey); a conjunct over one leaf filters that leaf, and
// one over several leaves joins them. The order is greedy, as DuckDB's and
// DataFusion's fallback join orderers are: repeatedly join the two connected
// parts whose join is estimated smallest, the smaller one building. A cross
// join is left only where no condition connects the remaining parts.
// A projection on top restores the tree's column order. Other joins keep
// their order; the side estimated smaller builds.
func reorderJoins(p planner.Plan) planner.Plan {
	switch n := p.(type) {
	case *planner.Filter:
		if j, ok := n.Input.(*planner.Join); ok && innerJoin(j) {
			return reorderJoinTree(j, planner.Conjuncts(n.Cond))
		}
	case *planner.Join:
		if innerJoin(n) {
			return reorderJoinTree(n, nil)
		}
		// Outer, semi and anti joins keep their order; their smaller side
		// builds, now that filters below them are known.
		out := withChildren(n, reorderJoins).(*planner.Join)
		out.BuildLeft = estimateRows(out.Left) < estimateRows(out.Right)
		return out
	}
	return withChildren(p, reorderJoins)
}

// innerJoin reports whether j is an inner or cross join whose output is all
// its input columns (the rule runs before pruneColumns sets Keep).
func innerJoin(j *planner.Join) bool {
	return (j.Type == sql.JoinInner || j.Type == sql.JoinCross) && j.Keep == nil
}

// joinLeaf is an input of a join tree: its plan, where its columns start in
// the tree's layout, and its row estimates.
type joinLeaf struct {
	plan        planner.Plan
	offset      int
	rows, base  float64
	conjuncts   []planner.Expr // filters over this leaf alone, in the tree's layout
	columnCount int
}

// joinPart is a planned part of the tree: the leaves it joins (a bit set),
// its plan and estimated rows, and which tree column each output column is.
type joinPart struct {
	leaves uint64
	plan   planner.Plan
	rows   float64
	cols   []int
}

// maxJoinLeaves bounds the leaves a tree is reordered with (bit sets).
const maxJoinLeaves = 64

func reorderJoinTree(root *planner.Join, above []planner.Expr) planner.Plan {
	var leaves []*joinLeaf
	conds := append([]planner.Expr(nil), above...)
	collectJoinTree(root, 0, &leaves, &conds)
	if len(leaves) > maxJoinLeaves {
		return withChildren(root, reorderJoins)
	}
	width := 0
	for _, l := range leaves {
		width += l.columnCount
	}
	leafOf := make([]int, width)
	for i, l := range leaves {
		for c := range l.columnCount {
			leafOf[l.offset+c] = i
		}
	}
	maskOf := func(e planner.Expr) uint64 {
		var m uint64
		planner.Walk(e, func(x planner.Expr) {
			if ref, ok := x.(*planner.ColumnRef); ok {
				m |= 1 << leafOf[ref.Index]
			}
		})
		return m
	}
	var multi []planner.Expr // conjuncts over two or more leaves
	var constant []planner.Expr
	for _, c := range factorConjuncts(conds) {
		switch m := maskOf(c); bits.OnesCount64(m) {
		case 0:
			constant = append(constant, c)
		case 1:
			l := leaves[bits.TrailingZeros64(m)]
			l.conjuncts = append(l.conjuncts, c)
		default:
			multi = append(multi, c)
			for leaf, f := range orLeafFilters(c, maskOf) {
				leaves[leaf].conjuncts = append(leaves[leaf].conjuncts, f)
			}
		}
	}
	parts := make([]*joinPart, len(leaves))
	for i, l := range leaves {
		plan := l.plan
		if len(l.conjuncts) > 0 {
			plan = pushFilter(plan, shiftColumns(planner.Conjunction(l.conjuncts), -l.offset))
		}
		l.rows, l.base = estimateRows(plan), baseRows(plan)
		cols := make([]int, l.columnCount)
		for c := range cols {
			cols[c] = l.offset + c
		}
		parts[i] = &joinPart{leaves: 1 << i, plan: plan, rows: l.rows, cols: cols}
	}
	ndv := keyDistinctValues(multi, leaves, leafOf, width)
	top := exactJoinOrder(parts, multi, maskOf, leafOf, ndv)
	if top == nil {
		used := make([]bool, len(multi))
		for len(parts) > 1 {
			a, b := pickJoin(parts, multi, used, maskOf, ndv)
			parts = mergeParts(parts, a, b, multi, used, maskOf, ndv)
		}
		top = parts[0]
	}
	local := make([]int, width)
	for i, g := range top.cols {
		local[g] = i
	}
	var out planner.Plan = top.plan
	if len(constant) > 0 {
		out = &planner.Filter{Input: out, Cond: remapColumns(planner.Conjunction(constant), local)}
	}
	if slices.IsSorted(top.cols) {
		return out // the tree's own column order
	}
	schema := root.Schema()
	proj := &planner.Project{Input: out}
	for g, c := range schema {
		proj.Exprs = append(proj.Exprs, &planner.ColumnRef{Index: local[g], Name: c.Name, T: c.T})
		proj.Names = append(proj.Names, c.Name)
	}
	return proj
}

// collectJoinTree gathers the leaves of the inner-join tree p, whose columns
// start at offset in the tree's layout, and its conditions in that layout.
func collectJoinTree(p planner.Plan, offset int, leaves *[]*joinLeaf, conds *[]planner.Expr) {
	switch n := p.(type) {
	case *planner.Join:
		if innerJoin(n) {
			nl := len(n.Left.Schema())
			for i := range n.LeftKeys {
				eq := &planner.Call{Fn: planner.FnEq, T: planner.TypeBoolean, Args: []planner.Expr{
					shiftColumns(n.LeftKeys[i], offset), shiftColumns(n.RightKeys[i], offset+nl)}}
				*conds = append(*conds, eq)
			}
			if n.Cond != nil {
				*conds = append(*conds, planner.Conjuncts(shiftColumns(n.Cond, offset))...)
			}
			collectJoinTree(n.Left, offset, leaves, conds)
			collectJoinTree(n.Right, offset+nl, leaves, conds)
			return
		}
	case *planner.Filter:
		if j, ok := n.Input.(*planner.Join); ok && innerJoin(j) {
			*conds = append(*conds, planner.Conjuncts(shiftColumns(n.Cond, offset))...)
			collectJoinTree(j, offset, leaves, conds)
			return
		}
	}
	*leaves = append(*leaves, &joinLeaf{plan: reorderJoins(p), offset: offset, columnCount: len(p.Schema())})
}

// keyDistinctValues estimates, per tree column, how many distinct values it
// has, for the columns equated to others: columns equated (transitively)
// form a class, and a class has at most as many values as the smallest
// table of its columns holds rows (a foreign key takes its values from the
// referenced table's key).
func keyDistinctValues(multi []planner.Expr, leaves []*joinLeaf, leafOf []int, width int) []float64 {
	parent := make([]int, width)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, c := range multi {
		if a, b, ok := columnEquality(c); ok {
			parent[find(a)] = find(b)
		}
	}
	classNDV := make(map[int]float64)
	for col := range width {
		r := find(col)
		base := leaves[leafOf[col]].base
		if v, ok := classNDV[r]; !ok || base < v {
			classNDV[r] = base
		}
	}
	ndv := make([]float64, width)
	for col := range width {
		ndv[col] = max(1, classNDV[find(col)])
	}
	return ndv
}

// columnEquality recognizes a = b between two columns, by their indexes.
func columnEquality(e planner.Expr) (a, b int, ok bool) {
	l, r, ok := equatedColumns(e)
	if !ok {
		return 0, 0, false
	}
	return l.Index, r.Index, true
}

// equatedColumns recognizes a = b between two columns.
func equatedColumns(e planner.Expr) (l, r *planner.ColumnRef, ok bool) {
	c, isCall := e.(*planner.Call)
	if !isCall || c.Fn != planner.FnEq {
		return nil, nil, false
	}
	l, lok := c.Args[0].(*planner.ColumnRef)
	r, rok := c.Args[1].(*planner.ColumnRef)
	return l, r, lok && rok
}

// joinEstimate is the estimated size of joining parts a and b under the
// unused conjuncts that connect them, and whether one of those is an
// equality between the two sides (a hash join). connected is false when no
// conjunct connects them.
func joinEstimate(a, b *joinPart, multi []planner.Expr, used []bool, maskOf func(planner.Expr) uint64, ndv []float64) (rows float64, equi, connected bool) {
	both := a.leaves | b.leaves
	keyNDV := 0.0
	for i, c := range multi {
		m := maskOf(c)
		if used[i] || m&^both != 0 || m&a.leaves == 0 || m&b.leaves == 0 {
			continue
		}
		connected = true
		if x, y, ok := columnEquality(c); ok {
			equi = true
			keyNDV = max(keyNDV, min(ndv[x], ndv[y]))
		} else if isEquality(c) {
			equi = true
			keyNDV = max(keyNDV, 10)
		}
	}
	switch {
	case equi:
		return max(1, a.rows*b.rows/keyNDV), true, true
	case connected:
		return a.rows * b.rows / 2, false, true
	}
	return a.rows * b.rows, false, false
}

// isEquality reports whether e is an equality (a candidate hash-join key).
func isEquality(e planner.Expr) bool {
	c, ok := e.(*planner.Call)
	return ok && c.Fn == planner.FnEq
}

// pickJoin chooses the next two parts to join: of the pairs a hash join
// connects, the one with the smallest estimated result; else of the pairs
// any condition connects; else (a cross join the query asked for) the two
// smallest parts.
func pickJoin(parts []*joinPart, multi []planner.Expr, used []bool, maskOf func(planner.Expr) uint64, ndv []float64) (int, int) {
	bestA, bestB, bestRank, bestRows := -1, -1, 3, 0.0
	for i := range parts {
		for k := i + 1; k < len(parts); k++ {
			rows, equi, connected := joinEstimate(parts[i], parts[k], multi, used, maskOf, ndv)
			rank := 2
			if equi {
				rank = 0
			} else if connected {
				rank = 1
			} else {
				rows = parts[i].rows + parts[k].rows // the two smallest
			}
			if rank < bestRank || rank == bestRank && rows < bestRows {
				bestA, bestB, bestRank, bestRows = i, k, rank, rows
			}
		}
	}
	return bestA, bestB
}

// mergeParts replaces parts a and b by their join: the larger part probes,
// the smaller builds, and every unused conjunct over the two becomes the
// join's condition (equalities between the sides its hash keys).
func mergeParts(parts []*joinPart, a, b int, multi []planner.Expr, used []bool, maskOf func(planner.Expr) uint64, ndv []float64) []*joinPart {
	probe, build := parts[a], parts[b]
	if probe.rows < build.rows {
		probe, build = build, probe
	}
	rows, _, _ := joinEstimate(probe, build, multi, used, maskOf, ndv)
	cols := append(append([]int(nil), probe.cols...), build.cols...)
	local := make(map[int]int, len(cols))
	for i, g := range cols {
		local[g] = i
	}
	both := probe.leaves | build.leaves
	var cond []planner.Expr
	for i, c := range multi {
		if !used[i] && maskOf(c)&^both == 0 {
			used[i] = true
			cond = append(cond, remapColumnsMap(c, local))
		}
	}
	typ := sql.JoinInner
	if len(cond) == 0 {
		typ = sql.JoinCross
	}
	join := planner.NewJoin(typ, probe.plan, build.plan, planner.Conjunction(cond))
	join.BuildLeft = false
	merged := &joinPart{leaves: both, plan: join, rows: rows, cols: cols}
	out := []*joinPart{merged}
	for i, p := range parts {
		if i != a && i != b {
			out = append(out, p)
		}
	}
	return out
}

// remapColumnsMap rewrites column indexes through a map.
func remapColumnsMap(e planner.Expr, local map[int]int) planner.Expr {
	return planner.Rewrite(e, func(x planner.Expr) planner.Expr {
		if ref, ok := x.(*planner.ColumnRef); ok {
			return &planner.ColumnRef{Index: local[ref.Index], Name: ref.Name, T: ref.T}
		}
		return x
	})
}

// factorConjuncts splits conds into conjuncts and takes out of each OR the
// conjuncts all its branches share: (a AND b) OR (a AND c) is a AND (b OR c),
// so that a join key repeated in every branch becomes a key.
func factorConjuncts(conds []planner.Expr) []planner.Expr {
	var out []planner.Expr
	for _, c := range conds {
		for _, x := range planner.Conjuncts(c) {
			out = append(out, factorOr(x)...)
		}
	}
	return out
}

func factorOr(e planner.Expr) []planner.Expr {
	branches := disjuncts(e)
	if len(branches) < 2 {
		return []planner.Expr{e}
	}
	split := make([][]planner.Expr, len(branches))
	for i, b := range branches {
		split[i] = planner.Conjuncts(b)
	}
	var common []planner.Expr
	for _, c := range split[0] {
		inAll := true
		for _, other := range split[1:] {
			if !containsExpr(other, c) {
				inAll = false
				break
			}
		}
		if inAll && !containsExpr(common, c) {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return []planner.Expr{e}
	}
	var rest []planner.Expr
	for _, b := range split {
		var left []planner.Expr
		for _, c := range b {
			if !containsExpr(common, c) {
				left = append(left, c)
			}
		}
		if len(left) == 0 {
			// This branch is just the common part: the OR adds nothing.
			return common
		}
		rest = append(rest, planner.Conjunction(left))
	}
	or := rest[0]
	for _, r := range rest[1:] {
		or = &planner.Call{Fn: planner.FnOr, Args: []planner.Expr{or, r}, T: planner.TypeBoolean}
	}
	return append(common, or)
}

// orLeafFilters derives, from an OR over several leaves, a filter for each
// leaf that every branch constrains: the OR of the branches' conjuncts over
// that leaf alone. (a.x = 1 AND b.y = 2) OR (a.x = 3 AND b.y = 4) implies
// a.x = 1 OR a.x = 3, which filters a before the join (as TPC-H Q19's
// conditions on lineitem and on part); the OR itself is still checked.
func orLeafFilters(e planner.Expr, maskOf func(planner.Expr) uint64) map[int]planner.Expr {
	branches := disjuncts(e)
	if len(branches) < 2 {
		return nil
	}
	perLeaf := make(map[int][]planner.Expr) // per leaf, one AND per branch so far
	for bi, b := range branches {
		own := make(map[int][]planner.Expr)
		for _, c := range planner.Conjuncts(b) {
			if m := maskOf(c); bits.OnesCount64(m) == 1 {
				leaf := bits.TrailingZeros64(m)
				own[leaf] = append(own[leaf], c)
			}
		}
		for leaf, cs := range own {
			if len(perLeaf[leaf]) == bi { // every earlier branch had some too
				perLeaf[leaf] = append(perLeaf[leaf], planner.Conjunction(cs))
			}
		}
	}
	out := make(map[int]planner.Expr)
	for leaf, ands := range perLeaf {
		if len(ands) < len(branches) {
			continue
		}
		or := ands[0]
		for _, a := range ands[1:] {
			or = &planner.Call{Fn: planner.FnOr, Args: []planner.Expr{or, a}, T: planner.TypeBoolean}
		}
		out[leaf] = or
	}
	return out
}

// disjuncts splits a OR b OR … into its parts.
func disjuncts(e planner.Expr) []planner.Expr {
	if c, ok := e.(*planner.Call); ok && c.Fn == planner.FnOr {
		return append(disjuncts(c.Args[0]), disjuncts(c.Args[1])...)
	}
	return []planner.Expr{e}
}

// containsExpr reports whether es has an expression the same as e.
func containsExpr(es []planner.Expr, e planner.Expr) bool {
	for _, x := range es {
		if sameExpr(x, e) {
			return true
		}
	}
	return false
}

// sameExpr reports whether a and b are the same expression over the same
// columns.
func sameExpr(a, b planner.Expr) bool {
	switch x := a.(type) {
	case *planner.ColumnRef:
		y, ok := b.(*planner.ColumnRef)
		return ok && x.Index == y.Index
	case *planner.Literal:
		y, ok := b.(*planner.Literal)
		return ok && arrow.TypeEqual(x.T, y.T) && reflect.DeepEqual(x.Value, y.Value)
	case *planner.Cast:
		y, ok := b.(*planner.Cast)
		return ok && x.Try == y.Try && arrow.TypeEqual(x.T, y.T) && sameExpr(x.X, y.X)
	case *planner.Call:
		y, ok := b.(*planner.Call)
		if !ok || x.Fn != y.Fn || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !sameExpr(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}
