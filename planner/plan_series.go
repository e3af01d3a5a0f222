package planner

import (
	"fmt"

	"github.com/lakesql/lakesql/sql"
)

// Series is a table of consecutive integers from a table function: Spark's
// range(start, stop[, step]), which stops before stop (column id), and
// generate_series(start, stop[, step]) of DuckDB and PostgreSQL, which
// includes stop (column generate_series). Rows are made as they are read,
// never materialized.
type Series struct {
	Func              string // range or generate_series, for EXPLAIN
	Column, Qualifier string
	Start, Stop, Step int64
	Inclusive         bool
	// Empty is set when an argument was NULL: no rows.
	Empty bool
}

func (s *Series) Schema() []Column {
	return []Column{{Table: s.Qualifier, Name: s.Column, T: TypeBigint}}
}

func (s *Series) Children() []Plan { return nil }

func (s *Series) Describe() string {
	if s.Empty {
		return fmt.Sprintf("Series %s (NULL argument: no rows)", s.Func)
	}
	end := "excluded"
	if s.Inclusive {
		end = "included"
	}
	return fmt.Sprintf("Series %s from %d to %d (%s) step %d", s.Func, s.Start, s.Stop, end, s.Step)
}

func (s *Series) WithChildren([]Plan) Plan { return s }

// seriesFuncs are the table functions that make a Series, with the column
// each names.
var seriesFuncs = map[string]struct {
	column    string
	inclusive bool
}{
	"range":           {"id", false},
	"generate_series": {"generate_series", true},
}

// bindSeries binds range(…) and generate_series(…): one argument is the
// stop (from 0), two are start and stop, a third is the step (default 1,
// never 0). Arguments are constant integers.
func (b *binder) bindSeries(t *sql.TableFunc) (Plan, error) {
	def := seriesFuncs[t.Name]
	if len(t.Args) < 1 || len(t.Args) > 3 {
		return nil, errorf(t.Pos, "%s takes (stop), (start, stop) or (start, stop, step), got %d arguments", t.Name, len(t.Args))
	}
	vals := make([]int64, 0, 3)
	empty := false
	for i, a := range t.Args {
		if _, named := a.(*sql.NamedArg); named {
			return nil, errorf(a.Position(), "%s takes no named arguments", t.Name)
		}
		lit, err := b.constantArg(t.Name, fmt.Sprintf("%d", i+1), a)
		if err != nil {
			return nil, err
		}
		if lit.Value == nil {
			empty = true
			vals = append(vals, 0)
			continue
		}
		if !IsInteger(lit.T) {
			return nil, kindErrorf(ErrType, a.Position(), "%s needs integer arguments, got %s", t.Name, TypeString(lit.T))
		}
		v, err := ConvertLiteral(lit.Value, lit.T, TypeBigint)
		if err != nil {
			return nil, errorf(a.Position(), "%s: %v", t.Name, err)
		}
		vals = append(vals, v.(int64))
	}
	s := &Series{Func: t.Name, Column: def.column, Qualifier: t.Alias, Inclusive: def.inclusive, Step: 1, Empty: empty}
	switch len(vals) {
	case 1:
		s.Stop = vals[0]
	default:
		s.Start, s.Stop = vals[0], vals[1]
		if len(vals) == 3 {
			s.Step = vals[2]
		}
	}
	if s.Step == 0 && !empty {
		return nil, errorf(t.Args[2].Position(), "%s: the step must not be 0", t.Name)
	}
	if s.Qualifier == "" {
		s.Qualifier = t.Name
	}
	if len(t.ColAliases) == 0 {
		return s, nil
	}
	out, err := NewSubqueryAlias(s, s.Qualifier, t.ColAliases)
	if err != nil {
		return nil, errorf(t.Pos, "%v", err)
	}
	return out, nil
}
