package planner

import (
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/sql"
)

// The kinds of binding errors, for errors.Is. Every *Error has one.
var (
	// ErrBind: the statement cannot be bound as written (the default kind).
	ErrBind = errors.New("cannot bind statement")
	// ErrUnknownColumn: a column name matches no column in scope.
	ErrUnknownColumn = errors.New("unknown column")
	// ErrAmbiguousColumn: a column name matches columns of several tables.
	ErrAmbiguousColumn = errors.New("ambiguous column")
	// ErrUnknownFunction: no scalar, aggregate, window or table function
	// has the name.
	ErrUnknownFunction = errors.New("unknown function")
	// ErrType: an operand or argument has a type the operation does not take.
	ErrType = errors.New("type mismatch")
	// ErrUnsupported: valid SQL that lakesql does not run yet.
	ErrUnsupported = errors.New("not supported")
)

// Error is a binding error at a position of the statement text.
type Error struct {
	Kind error // one of the kinds above; nil means ErrBind
	Pos  sql.Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (at line %d, column %d)", e.Msg, e.Pos.Line, e.Pos.Col)
}

// Unwrap makes errors.Is(err, kind) hold.
func (e *Error) Unwrap() error {
	if e.Kind == nil {
		return ErrBind
	}
	return e.Kind
}

func errorf(pos sql.Pos, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// kindErrorf is errorf for an error of a kind other than ErrBind.
func kindErrorf(kind error, pos sql.Pos, format string, args ...any) error {
	return &Error{Kind: kind, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
