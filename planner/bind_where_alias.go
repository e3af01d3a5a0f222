package planner

import (
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// whereAlias binds a bare name in WHERE that no input column has but a
// select item's AS alias does, as DuckDB does: SELECT x + 1 AS y FROM t
// WHERE y > 2 filters on x + 1. The item's expression is bound again over
// WHERE's scope, so an aggregate or window call in it is refused as it
// would be written there; inside it, only the aliases of the items before
// it are, as in the select list (an item cannot name itself: SELECT y + 1
// AS y … WHERE y > 1 fails).
func (b *binder) whereAlias(ref *sql.ColumnRef, s *scope) (Expr, bool, error) {
	if len(ref.Parts) != 1 {
		return nil, false, nil
	}
	for i, item := range s.selectList {
		if item.Alias == "" || !strings.EqualFold(item.Alias, ref.Parts[0]) {
			continue
		}
		inner := *s
		inner.selectList = s.selectList[:i]
		x, err := b.bindExpr(item.Expr, &inner)
		return x, true, err
	}
	return nil, false, nil
}
