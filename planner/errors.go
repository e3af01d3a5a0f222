package planner

import (
	"fmt"

	"github.com/lakesql/lakesql/sql"
)

// Error is a binding error at a position of the statement text.
type Error struct {
	Pos sql.Pos
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (at line %d, column %d)", e.Msg, e.Pos.Line, e.Pos.Col)
}

func errorf(pos sql.Pos, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
