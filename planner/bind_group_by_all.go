package planner

import (
	"slices"

	"github.com/lakesql/lakesql/sql"
)

// groupByAll returns the keys of DuckDB's GROUP BY ALL: every select item
// that calls no aggregate or window function, stars expanded, bound in the
// GROUP BY scope gs as if written there. A star's REPLACE expression that
// aggregates is left out with its column; the generator item, if any, is
// not a key (and is refused with the aggregation as usual).
func (b *binder) groupByAll(items []sql.SelectItem, gs *scope, gen *selectGenerator) ([]Expr, error) {
	var groups []Expr
	for i, item := range items {
		if gen != nil && i == gen.item {
			continue
		}
		if star, ok := item.Expr.(*sql.Star); ok {
			expanded, err := b.expandStar(keyColumnsOf(star), gs)
			if err != nil {
				return nil, err
			}
			for _, it := range expanded {
				groups = append(groups, it.expr)
			}
			continue
		}
		if aggregatesOrWindows(item.Expr) {
			continue
		}
		x, err := b.bindExpr(item.Expr, gs)
		if err != nil {
			return nil, err
		}
		groups = append(groups, x)
	}
	return distinctExprs(groups), nil
}

// keyColumnsOf returns star with its aggregating REPLACE entries moved to
// its EXCLUDE list: the columns it contributes to GROUP BY ALL.
func keyColumnsOf(star *sql.Star) *sql.Star {
	keys := *star
	keys.Exclude = slices.Clone(star.Exclude)
	keys.Replace = nil
	for _, r := range star.Replace {
		if aggregatesOrWindows(r.Expr) {
			keys.Exclude = append(keys.Exclude, &sql.ColumnRef{Parts: []string{r.Alias}, Pos: r.Pos})
		} else {
			keys.Replace = append(keys.Replace, r)
		}
	}
	return &keys
}

// aggregatesOrWindows reports whether e calls an aggregate or window
// function of its own query block (not inside a subquery).
func aggregatesOrWindows(e sql.Expr) bool {
	found := false
	sql.Inspect(e, func(x sql.Expr) bool {
		if call, ok := x.(*sql.FuncCall); ok && (call.Over != nil || IsAggregate(call)) {
			found = true
		}
		return !found
	})
	return found
}
