package planner

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// Series is a table of evenly spaced values from a table function: Spark's
// range(start, stop[, step]), which stops before stop (column id), and
// generate_series(start, stop[, step]) of DuckDB and PostgreSQL, which
// includes stop (column generate_series). Values are BIGINTs, or TIMESTAMPs
// stepped by an INTERVAL (a date spine: generate_series(DATE '2024-01-01',
// DATE '2024-12-31', INTERVAL 1 DAY)), or TIMESTAMPTZs when start or stop
// is one, stepped as TIMESTAMPTZ + INTERVAL is: days and months on the
// session zone's wall clock, as in DuckDB. Rows are made as they are read,
// never materialized.
type Series struct {
	Func              string // range or generate_series, for EXPLAIN
	Column, Qualifier string
	T                 arrow.DataType // TypeBigint, TypeTimestamp or TypeTimestampTZ
	// Start and Stop are integers, or timestamps in microseconds.
	Start, Stop int64
	// Step is the integer step; Interval the step of timestamps.
	Step     int64
	Interval arrow.MonthDayNanoInterval
	// Zone is the session zone on whose wall clock a TIMESTAMPTZ series
	// steps days and months; nil for UTC and the other types.
	Zone      *time.Location
	Inclusive bool
	// Descending is set when the step goes down.
	Descending bool
	// Empty is set when an argument was NULL: no rows.
	Empty bool
}

func (s *Series) Schema() []Column {
	return []Column{{Table: s.Qualifier, Name: s.Column, T: s.T}}
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
	switch {
	case isTimestampTZ(s.T):
		zone := ""
		if s.Zone != nil {
			zone = " in " + s.Zone.String()
		}
		return fmt.Sprintf("Series %s from %s to %s (%s) step %s%s", s.Func, value.AppendTimestampIn(nil, s.Start, s.Zone),
			value.AppendTimestampIn(nil, s.Stop, s.Zone), end, value.FormatScalar(s.Interval, TypeInterval), zone)
	case s.T.ID() == arrow.TIMESTAMP:
		return fmt.Sprintf("Series %s from %s to %s (%s) step %s", s.Func, value.FormatTimestamp(s.Start), value.FormatTimestamp(s.Stop), end, value.FormatScalar(s.Interval, TypeInterval))
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
// never 0). Arguments are constants: integers, or dates and timestamps
// with an INTERVAL step.
func (b *binder) bindSeries(t *sql.TableFunc) (Plan, error) {
	def := seriesFuncs[t.Name]
	if len(t.Args) < 1 || len(t.Args) > 3 {
		return nil, errorf(t.Pos, "%s takes (stop), (start, stop) or (start, stop, step), got %d arguments", t.Name, len(t.Args))
	}
	lits := make([]*Literal, len(t.Args))
	s := &Series{Func: t.Name, Column: def.column, Qualifier: t.Alias, Inclusive: def.inclusive, T: TypeBigint, Step: 1}
	for i, a := range t.Args {
		if _, named := a.(*sql.NamedArg); named {
			return nil, errorf(a.Position(), "%s takes no named arguments", t.Name)
		}
		lit, err := b.constantArg(t.Name, fmt.Sprintf("%d", i+1), a)
		if err != nil {
			return nil, err
		}
		lits[i] = lit
		s.Empty = s.Empty || lit.Value == nil
		switch {
		case isTimestampTZ(lit.T):
			s.T, s.Zone = TypeTimestampTZ, b.loc
		case s.T.ID() != arrow.TIMESTAMP && (lit.T.ID() == arrow.DATE32 || lit.T.ID() == arrow.TIMESTAMP):
			s.T = TypeTimestamp
		}
	}
	var err error
	if s.T.ID() == arrow.TIMESTAMP {
		err = s.bindTimestamps(t, lits)
	} else {
		err = s.bindIntegers(t, lits)
	}
	if err != nil {
		return nil, err
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

func (s *Series) bindIntegers(t *sql.TableFunc, lits []*Literal) error {
	vals := make([]int64, len(lits))
	for i, lit := range lits {
		if lit.Value == nil {
			continue
		}
		if !IsInteger(lit.T) {
			return kindErrorf(ErrType, t.Args[i].Position(), "%s needs integer arguments, or dates and timestamps with an INTERVAL step; got %s", t.Name, TypeString(lit.T))
		}
		v, err := ConvertLiteral(lit.Value, lit.T, TypeBigint)
		if err != nil {
			return errorf(t.Args[i].Position(), "%s: %v", t.Name, err)
		}
		vals[i] = v.(int64)
	}
	switch len(vals) {
	case 1:
		s.Stop = vals[0]
	default:
		s.Start, s.Stop = vals[0], vals[1]
		if len(vals) == 3 {
			s.Step = vals[2]
		}
	}
	if s.Step == 0 && !s.Empty {
		return errorf(t.Args[2].Position(), "%s: the step must not be 0", t.Name)
	}
	s.Descending = s.Step < 0
	return nil
}

// bindTimestamps reads start and stop (DATEs are read as their midnight,
// in the session zone for a TIMESTAMPTZ series) and the INTERVAL step,
// whose length must not be zero; its sign is the direction.
func (s *Series) bindTimestamps(t *sql.TableFunc, lits []*Literal) error {
	if len(lits) != 3 {
		return errorf(t.Pos, "%s over dates or timestamps takes (start, stop, INTERVAL step)", t.Name)
	}
	for i, lit := range lits[:2] {
		if lit.Value == nil {
			continue
		}
		if lit.T.ID() != arrow.DATE32 && lit.T.ID() != arrow.TIMESTAMP && !isString(lit.T) {
			return kindErrorf(ErrType, t.Args[i].Position(), "%s needs a DATE or TIMESTAMP start and stop, got %s", t.Name, TypeString(lit.T))
		}
		v := lit.Value
		if !arrow.TypeEqual(lit.T, s.T) {
			var err error
			if v, err = convertLiteralIn(v, lit.T, s.T, s.Zone); err != nil {
				return errorf(t.Args[i].Position(), "%s: %v", t.Name, err)
			}
		}
		if i == 0 {
			s.Start = v.(int64)
		} else {
			s.Stop = v.(int64)
		}
	}
	step := lits[2]
	if step.Value == nil {
		return nil
	}
	iv, ok := step.Value.(arrow.MonthDayNanoInterval)
	if !ok {
		return kindErrorf(ErrType, t.Args[2].Position(), "%s over dates or timestamps needs an INTERVAL step, got %s", t.Name, TypeString(step.T))
	}
	// The direction is the sign of the step's length, a month counted as
	// 30 days (a float is exact enough for a sign).
	length := (float64(iv.Months)*30+float64(iv.Days))*86400e9 + float64(iv.Nanoseconds)
	if length == 0 {
		return errorf(t.Args[2].Position(), "%s: the step must not be 0", t.Name)
	}
	s.Interval, s.Descending = iv, length < 0
	return nil
}
