package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// parseTimeKernel reads timestamps with the call's constant pattern,
// compiled once per batch (the binder checked it). A string that does not
// fit fails the call, or is NULL when the call's try flag is set.
func parseTimeKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[1].lit == nil || ops[2].lit == nil || ops[3].lit == nil {
		return nil, fmt.Errorf("%s: the dialect, pattern and try flag must be constants", c)
	}
	tp, err := value.CompileTimeParser(ops[1].lit.Value.(string), ops[2].lit.Value.(string))
	if err != nil {
		return nil, wrapError(c, err)
	}
	try := ops[3].lit.Value.(bool)
	s := newBytesVec(ops[0])
	var rowErr error
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		micros, err := tp.Parse(s.At(i))
		switch {
		case err == nil:
			return micros, ValueOK
		case try:
			return 0, valueNull
		}
		rowErr = err
		return 0, overflow
	}, func(int) error { return fmt.Errorf("%s: %w", strictParsers[ops[1].lit.Value.(string)], rowErr) })
}

// strictParsers name, for errors, the function that reads each dialect
// without try: DuckDB's strptime, Trino's date_parse and parse_datetime.
var strictParsers = map[string]string{
	value.FormatStrftime: "strptime", value.FormatMySQL: "date_parse", value.FormatSpark: "parse_datetime",
}
