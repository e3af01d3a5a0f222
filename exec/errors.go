package exec

import (
	"errors"

	"github.com/lakesql/lakesql/exec/expr"
)

// The kinds of execution errors, for errors.Is.
var (
	// ErrEval: a value cannot be computed (overflow, a failed cast, a
	// result out of range); expressions are evaluated by package expr.
	ErrEval = expr.ErrEval
	// ErrScalarSubqueryRows: a scalar subquery returned more than one row.
	ErrScalarSubqueryRows = errors.New("scalar subquery returned more than one row")
)
