package sql

// GroupingSets is ROLLUP (…), CUBE (…) or GROUPING SETS (…), an item of
// GROUP BY (also GROUP BY (), the empty set, as GROUPING SETS (())). Each
// element is a parenthesized list of expressions or a single one; an
// element of GROUPING SETS may itself hold ROLLUP, CUBE or GROUPING SETS.
// The binder expands the items of GROUP BY into their grouping sets
// (planner/bind_grouping_sets.go); it is no expression anywhere else.
type GroupingSets struct {
	Kind  string // ROLLUP, CUBE or GROUPING SETS
	Elems [][]Expr
	Pos   Pos
}

func (e *GroupingSets) Position() Pos { return e.Pos }
func (*GroupingSets) expr()           {}
