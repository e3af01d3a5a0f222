package planner

import (
	"fmt"
	"strings"
)

// SortKey is one ORDER BY key: an expression over the node's input.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

func (k SortKey) String() string {
	dir, nulls := "ASC", "NULLS LAST"
	if k.Desc {
		dir = "DESC"
	}
	if k.NullsFirst {
		nulls = "NULLS FIRST"
	}
	return k.Expr.String() + " " + dir + " " + nulls
}

// Sort orders its input by Keys, the first key first. It materializes its
// whole input. Rows with equal keys keep their input order.
type Sort struct {
	Input Plan
	Keys  []SortKey
}

// TopN is Sort followed by Limit: it returns rows Offset … Offset+Limit-1 of
// the sorted input while keeping only Limit+Offset rows in memory.
type TopN struct {
	Input         Plan
	Keys          []SortKey
	Limit, Offset int64
}

func (s *Sort) Schema() []Column { return s.Input.Schema() }
func (t *TopN) Schema() []Column { return t.Input.Schema() }

func (s *Sort) Children() []Plan { return []Plan{s.Input} }
func (t *TopN) Children() []Plan { return []Plan{t.Input} }

func (s *Sort) Describe() string {
	return "Sort keys=[" + sortKeysString(s.Keys) + "] (materializes input)"
}

func (t *TopN) Describe() string {
	d := fmt.Sprintf("TopN %d", t.Limit)
	if t.Offset > 0 {
		d += fmt.Sprintf(" offset %d", t.Offset)
	}
	return d + " keys=[" + sortKeysString(t.Keys) + "]"
}

func sortKeysString(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}
