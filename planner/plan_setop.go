package planner

import "strings"

// Set operation kinds.
const (
	SetUnion     = "UNION"
	SetIntersect = "INTERSECT"
	SetExcept    = "EXCEPT"
)

// SetOp is Left UNION|INTERSECT|EXCEPT [ALL] Right. Both inputs produce the
// types of Columns (the binder casts them); without All, rows are distinct
// and NULLs compare equal.
type SetOp struct {
	Op          string
	All         bool
	Left, Right Plan
	Columns     []Column
}

func (s *SetOp) Schema() []Column { return s.Columns }
func (s *SetOp) Children() []Plan { return []Plan{s.Left, s.Right} }
func (s *SetOp) Describe() string {
	d := strings.ToUpper(s.Op[:1]) + strings.ToLower(s.Op[1:])
	if s.All {
		return d + " all"
	}
	return d
}
