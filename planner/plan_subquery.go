package planner

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// SubqueryAlias gives the rows of a subquery in FROM, or of a CTE, the names
// its alias declares: Columns are Input's columns qualified by Alias and
// optionally renamed. It only renames, so the executor runs Input directly.
type SubqueryAlias struct {
	Input   Plan
	Alias   string
	Columns []Column
}

// NewSubqueryAlias qualifies input's columns by alias and renames the first
// len(names) of them.
func NewSubqueryAlias(input Plan, alias string, names []string) (*SubqueryAlias, error) {
	in := input.Schema()
	if len(names) > len(in) {
		return nil, fmt.Errorf("%s has %d columns but %d column names were given", alias, len(in), len(names))
	}
	cols := make([]Column, len(in))
	for i, c := range in {
		cols[i] = Column{Table: alias, Name: c.Name, T: c.T}
		if i < len(names) {
			cols[i].Name = names[i]
		}
	}
	return &SubqueryAlias{Input: input, Alias: alias, Columns: cols}, nil
}

func (s *SubqueryAlias) Schema() []Column { return s.Columns }
func (s *SubqueryAlias) Children() []Plan { return []Plan{s.Input} }
func (s *SubqueryAlias) Describe() string {
	names := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		names[i] = c.Name
	}
	return fmt.Sprintf("Subquery %s(%s)", s.Alias, strings.Join(names, ", "))
}

// SubqueryKind is what an expression does with an uncorrelated subquery.
type SubqueryKind int

const (
	// SubqueryScalar is the value of the single row of a one-column
	// subquery, NULL when it has no rows.
	SubqueryScalar SubqueryKind = iota
	// SubqueryExists is TRUE when the subquery has a row.
	SubqueryExists
	// SubqueryIn is X IN (subquery) with SQL NULL semantics: NULL when X is
	// NULL or when nothing matches and the subquery has a NULL.
	SubqueryIn
	// SubqueryAny is X Op ANY (subquery): TRUE when X Op y holds for a
	// value y of the subquery; NULL when it holds for none but is NULL for
	// some (X or a y is NULL); FALSE otherwise, and always FALSE for a
	// subquery without rows. The binder leaves it only over correlated
	// subqueries, which decorrelation turns into semi and anti joins or,
	// elsewhere, expands (ExpandAny); = ANY is SubqueryIn.
	SubqueryAny
)

// Subquery is an expression over an uncorrelated subquery. The executor runs
// Plan once, on first use, and reuses its result for every batch. For
// SubqueryIn and SubqueryAny, X is an expression over the outer row of the
// type of Plan's one column, and Op is SubqueryAny's comparison (FnLt …).
// For (a, b, …) IN (SELECT c, d, …), Plan has a column per item and X is
// the row value as a struct (InOperands).
type Subquery struct {
	Kind SubqueryKind
	Plan Plan
	X    Expr
	Op   string
	T    arrow.DataType
}

func (e *Subquery) Type() arrow.DataType { return e.T }

// InOperands returns what an IN subquery compares with its columns, one
// expression per column: X, or the items of the row value X when the
// subquery has several columns.
func (e *Subquery) InOperands() []Expr {
	if len(e.Plan.Schema()) == 1 {
		return []Expr{e.X}
	}
	row := e.X.(*Call)
	items := make([]Expr, 0, len(row.Args)/2)
	for i := 1; i < len(row.Args); i += 2 {
		items = append(items, row.Args[i])
	}
	return items
}

func (e *Subquery) String() string {
	switch e.Kind {
	case SubqueryExists:
		return "EXISTS(<subquery>)"
	case SubqueryIn:
		operands := e.InOperands()
		if len(operands) == 1 {
			return "(" + e.X.String() + " IN (<subquery>))"
		}
		items := make([]string, len(operands))
		for i, x := range operands {
			items[i] = x.String()
		}
		return "((" + strings.Join(items, ", ") + ") IN (<subquery>))"
	case SubqueryAny:
		return "(" + e.X.String() + " " + infixOps[e.Op] + " ANY (<subquery>))"
	}
	return "(<subquery>)"
}
