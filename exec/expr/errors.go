package expr

import (
	"context"
	"errors"
)

// ErrEval is the kind of error for a value that cannot be computed (an
// overflow, a failed cast, a result out of range).
var ErrEval = errors.New("evaluation error")

// evalError marks an error of Eval as ErrEval and keeps the cause's kinds.
type evalError struct{ err error }

func (e *evalError) Error() string { return e.err.Error() }

func (e *evalError) Unwrap() []error { return []error{ErrEval, e.err} }

// asEvalError marks err as an evaluation error, except a cancellation,
// which is not the expression's fault.
func asEvalError(err error) error {
	if err == nil || errors.Is(err, ErrEval) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &evalError{err: err}
}
