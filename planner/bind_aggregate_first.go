package planner

import "github.com/lakesql/lakesql/sql"

// bindFirst binds first(x) and last(x) (DuckDB's arbitrary is first), with
// an optional ORDER BY inside, bound as string_agg's: the argument is then
// a struct of the value and the keys. DISTINCT changes nothing, as in
// DuckDB: the first row's value is the first distinct value, and DuckDB
// takes the last row's for last(DISTINCT x) too; with ORDER BY, as in
// DuckDB, the keys must be the value.
func (b *binder) bindFirst(e *sql.FuncCall, fn string, s *scope) (*AggCall, error) {
	if len(e.Args) != 1 {
		return nil, errorf(e.Pos, "%s needs 1 argument, got %d", e.Name, len(e.Args))
	}
	inner := aggregateArgs(s)
	arg, err := b.bindExpr(e.Args[0], inner)
	if err != nil {
		return nil, err
	}
	if arg, err = keptValue(arg); err != nil {
		return nil, errorf(e.Args[0].Position(), "%s: %v", e.Name, err)
	}
	call := &AggCall{Fn: fn, Arg: arg, T: arg.Type()}
	if len(e.OrderBy) > 0 {
		return b.orderAggValues(e, call, inner)
	}
	return call, nil
}
