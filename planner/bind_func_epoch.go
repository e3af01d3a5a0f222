package planner

import "github.com/apache/arrow-go/v18/arrow"

// Whole units since 1970-01-01 of DuckDB and Spark.
const (
	// epoch_ms(x DATE|TIMESTAMP|TIMESTAMPTZ) → BIGINT milliseconds, rounded
	// toward zero as DuckDB does (23:59:59.9995 on 1969-12-31 is 0).
	FnEpochMillis = "epoch_ms"
	// epoch_us(x DATE|TIMESTAMP|TIMESTAMPTZ) → BIGINT microseconds.
	FnEpochMicros = "epoch_us"
	// unix_millis(x DATE|TIMESTAMP|TIMESTAMPTZ) → BIGINT milliseconds,
	// rounded down as Spark does (Math.floorDiv).
	FnUnixMillis = "unix_millis"
	// millis_to_timestamp(ms BIGINT) → TIMESTAMP: DuckDB's epoch_ms(BIGINT).
	FnMillisToTimestamp = "millis_to_timestamp"
)

// bindEpochMillis binds DuckDB's epoch_ms, which goes both ways: from a
// date or timestamp to its milliseconds, and from an integer number of
// milliseconds to the TIMESTAMP (an untyped NULL takes this form, as in
// DuckDB, whose epoch_ms(NULL) is a TIMESTAMP).
func bindEpochMillis(_ *binder, c *funcCall) (Expr, error) {
	t := c.args[0].Type()
	if IsInteger(t) || t.ID() == arrow.NULL {
		args, err := c.convert(intArg)
		if err != nil {
			return nil, err
		}
		return &Call{Fn: FnMillisToTimestamp, Args: args, T: TypeTimestamp}, nil
	}
	return typed(FnEpochMillis, TypeBigint, temporalArg)(nil, c)
}
