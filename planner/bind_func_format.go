package planner

import (
	"github.com/lakesql/lakesql/value"
)

// bindTimeFormat binds a function that formats a date or timestamp with a
// constant pattern of a dialect (value.CompileTimeFormat): Spark's
// date_format, DuckDB's strftime, PostgreSQL's to_char. The pattern is
// compiled here so that a bad one is an error at its position, not a
// failure in the middle of a scan. TIMESTAMPTZ values are formatted as
// wall-clock times of the session zone.
func bindTimeFormat(dialect string) bindFn {
	return func(_ *binder, c *funcCall) (Expr, error) {
		x, ok := temporalArg(c.args[0])
		if !ok && isString(c.args[0].Type()) {
			x, ok = &Cast{X: c.args[0], T: TypeTimestamp}, true
		}
		if !ok {
			return nil, c.mismatch()
		}
		if isTimestampTZ(x.Type()) {
			x = &Cast{X: x, T: TypeTimestamp}
		}
		lit, isLit := c.args[1].(*Literal)
		if !isLit || (lit.Value != nil && !isString(lit.T)) {
			return nil, errorf(c.pos, "%s: the format must be a constant string", c.name)
		}
		if lit.Value == nil || x.Type().ID() == TypeNull.ID() {
			return &Literal{T: TypeVarchar}, nil
		}
		pattern := lit.Value.(string)
		if _, err := value.CompileTimeFormat(dialect, pattern); err != nil {
			return nil, errorf(c.pos, "%s: %v", c.name, err)
		}
		return &Call{Fn: FnFormatTime, Args: []Expr{x, stringLit(dialect), stringLit(pattern)}, T: TypeVarchar}, nil
	}
}

// dateArg takes a date, timestamp or string literal as a DATE.
func dateArg(e Expr) (Expr, bool) {
	x, ok := temporalArg(e)
	if !ok {
		return nil, false
	}
	if isTimestampTZ(x.Type()) {
		return &Cast{X: x, T: TypeDate}, true
	}
	return castFolded(x, TypeDate), true
}
