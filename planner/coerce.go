package planner

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"

	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// numericRank orders numeric types for implicit widening; 0 means not numeric.
func numericRank(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT8:
		return 1
	case arrow.INT16:
		return 2
	case arrow.INT32:
		return 3
	case arrow.INT64:
		return 4
	case arrow.DECIMAL128:
		return 5
	case arrow.FLOAT32:
		return 6
	case arrow.FLOAT64:
		return 7
	}
	return 0
}

// IsNumeric reports whether t is an integer, decimal or floating-point type.
func IsNumeric(t arrow.DataType) bool { return numericRank(t) > 0 }

// IsInteger reports whether t is an integer type.
func IsInteger(t arrow.DataType) bool {
	r := numericRank(t)
	return r >= 1 && r <= 4
}

// asDecimal gives the decimal type that holds every value of an integer or decimal type.
func asDecimal(t arrow.DataType) *arrow.Decimal128Type {
	switch t.ID() {
	case arrow.INT8:
		return &arrow.Decimal128Type{Precision: 3}
	case arrow.INT16:
		return &arrow.Decimal128Type{Precision: 5}
	case arrow.INT32:
		return &arrow.Decimal128Type{Precision: 10}
	case arrow.INT64:
		return &arrow.Decimal128Type{Precision: 19}
	}
	return t.(*arrow.Decimal128Type)
}

// commonNumeric is the type both a and b widen to.
func commonNumeric(a, b arrow.DataType) arrow.DataType {
	ra, rb := numericRank(a), numericRank(b)
	switch {
	case ra >= 6 || rb >= 6:
		// FLOAT with an integer or a DECIMAL stays FLOAT, as in DuckDB and
		// Trino: f = 1.1 compares f with the FLOAT nearest 1.1, true for a
		// column that stored 1.1.
		if ra == 7 || rb == 7 {
			return TypeDouble
		}
		return TypeFloat
	case ra == 5 || rb == 5:
		da, db := asDecimal(a), asDecimal(b)
		scale := max(da.Scale, db.Scale)
		intDigits := max(da.Precision-da.Scale, db.Precision-db.Scale)
		return &arrow.Decimal128Type{Precision: min(intDigits+scale, 38), Scale: scale}
	case ra >= rb:
		return a
	default:
		return b
	}
}

// commonResultType is commonType for values that become one result (CASE,
// COALESCE, VALUES, set operations). Where two decimals need more than 38
// digits it keeps the integer digits and rounds the fraction, as DuckDB
// does: DECIMAL(38,30) and DECIMAL(38,0) make DECIMAL(38,0), which holds
// every value of both (castRounding rounds constants to it). A decimal and
// an integer keep the decimal's scale, as in DuckDB; so does a comparison,
// since rounding would make unequal values equal: a value too large for
// the type is then an error.
func commonResultType(a, b arrow.DataType) arrow.DataType {
	t := commonType(a, b)
	d, ok := t.(*arrow.Decimal128Type)
	if !ok || a.ID() != arrow.DECIMAL128 || b.ID() != arrow.DECIMAL128 {
		return t
	}
	da, db := a.(*arrow.Decimal128Type), b.(*arrow.Decimal128Type)
	intDigits := max(da.Precision-da.Scale, db.Precision-db.Scale)
	if intDigits+d.Scale <= 38 {
		return t
	}
	return &arrow.Decimal128Type{Precision: 38, Scale: 38 - intDigits}
}

// castRounding is castTo for a result (commonResultType): a constant its
// type holds only rounded is cast as a column would be, rounding.
func castRounding(e Expr, t arrow.DataType) (Expr, error) {
	x, err := castTo(e, t)
	if lit, ok := e.(*Literal); ok && errors.Is(err, errInexact) {
		return &Cast{X: lit, T: t}, nil
	}
	return x, err
}

// commonType is the type two operands of a comparison, CASE, IN, COALESCE or
// set operation are brought to, or nil when they cannot be.
func commonType(a, b arrow.DataType) arrow.DataType {
	switch {
	case arrow.TypeEqual(a, b):
		return a
	case a.ID() == arrow.NULL:
		return b
	case b.ID() == arrow.NULL:
		return a
	case IsNumeric(a) && IsNumeric(b):
		return commonNumeric(a, b)
	case storage.IsNested(a) && storage.IsNested(b):
		return commonNested(a, b)
	case isTimestampNs(a) && (isTemporal(b) || isTimestampNs(b)) || isTimestampNs(b) && isTemporal(a):
		// Nanosecond timestamps compare exactly against any date or
		// timestamp brought to nanoseconds.
		if isTimestampTZ(a) || isTimestampTZ(b) {
			return TypeTimestampTZNs
		}
		return TypeTimestampNs
	case isTemporal(a) && isTemporal(b):
		// DATE < TIMESTAMP < TIMESTAMPTZ: the wider keeps every instant.
		if a.ID() == arrow.DATE32 {
			return b
		}
		if b.ID() == arrow.DATE32 {
			return a
		}
		return TypeTimestampTZ
	}
	return nil
}

// isTemporal reports DATE, TIMESTAMP and TIMESTAMPTZ, the types the date
// and time functions and interval arithmetic take. Their kernels count
// microseconds, so the nanosecond timestamps of Iceberg v3 are not among
// them: those are read, compared, sorted and grouped only.
func isTemporal(t arrow.DataType) bool {
	return t.ID() == arrow.DATE32 || t.ID() == arrow.TIMESTAMP && !isTimestampNs(t)
}

func isTimestampNs(t arrow.DataType) bool {
	ts, ok := t.(*arrow.TimestampType)
	return ok && ts.Unit == arrow.Nanosecond
}

// toTimestampUnit converts a timestamp or date literal's value (from) to the
// unit of timestamp type to.
func toTimestampUnit(v any, from arrow.DataType, to *arrow.TimestampType) (any, error) {
	micros, ok := v.(int64)
	switch {
	case from.ID() == arrow.DATE32:
		micros = int64(v.(int32)) * 86400e6
	case isTimestampNs(from):
		micros = floorDiv(micros, 1000)
	case !ok:
		return nil, fmt.Errorf("cannot convert %s to %s%w", FormatLiteral(v, from), TypeString(to), errNotAtPlanTime)
	}
	if to.Unit != arrow.Nanosecond {
		return micros, nil
	}
	if isTimestampNs(from) {
		return v, nil
	}
	if micros > math.MaxInt64/1000 || micros < math.MinInt64/1000 {
		return nil, fmt.Errorf("%s is out of range for %s (years 1677 to 2262)", FormatLiteral(v, from), TypeString(to))
	}
	return micros * 1000, nil
}

func isString(t arrow.DataType) bool {
	return t.ID() == arrow.STRING || t.ID() == arrow.LARGE_STRING
}

// castTo wraps e in a cast to t, folding the cast when e is a literal that
// converts exactly, so that filters keep a plain column-versus-constant shape
// the pruner understands.
func castTo(e Expr, t arrow.DataType) (Expr, error) {
	if arrow.TypeEqual(e.Type(), t) {
		return e, nil
	}
	if lit, ok := e.(*Literal); ok {
		v, err := ConvertLiteral(lit.Value, lit.T, t)
		if err != nil {
			return nil, err
		}
		if zoneDependent(lit.T, t) {
			// The session zone decides the value: binder.localize folds it.
			return &Cast{X: lit, T: t}, nil
		}
		return &Literal{Value: v, T: t}, nil
	}
	return &Cast{X: e, T: t}, nil
}

// ConvertLiteral converts a constant between types at plan time. It returns an
// error when the value does not convert (a malformed date string, an integer
// out of range).
func ConvertLiteral(v any, from, to arrow.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	if isString(from) {
		return parseLiteral(v.(string), to)
	}
	switch to.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		i, ok := literalInt(v)
		if !ok {
			break
		}
		if !intFits(i, to) {
			return nil, fmt.Errorf("%d is out of range for %s", i, TypeString(to))
		}
		return intOfType(i, to), nil
	case arrow.FLOAT32, arrow.FLOAT64:
		f, ok := literalFloat(v, from)
		if !ok {
			break
		}
		if to.ID() == arrow.FLOAT32 {
			return float32(f), nil
		}
		return f, nil
	case arrow.DECIMAL128:
		dt := to.(*arrow.Decimal128Type)
		if i, ok := literalInt(v); ok {
			n := decimal128.FromI64(i)
			return rescaleDecimal(n, 0, dt)
		}
		if d, ok := v.(decimal128.Num); ok {
			return rescaleDecimal(d, from.(*arrow.Decimal128Type).Scale, dt)
		}
		if f, ok := literalFloat(v, from); ok && isFloat(from) && !math.IsNaN(f) && !math.IsInf(f, 0) {
			// As the cast of a column does: the shortest text of the
			// double, so that 1.1e0 is exactly 1.1.
			bits := 64
			if from.ID() == arrow.FLOAT32 {
				bits = 32
			}
			return value.ParseDecimal(strconv.FormatFloat(f, 'g', -1, bits), dt.Precision, dt.Scale)
		}
	case arrow.TIMESTAMP:
		if from.ID() == arrow.DATE32 || from.ID() == arrow.TIMESTAMP {
			return toTimestampUnit(v, from, to.(*arrow.TimestampType))
		}
	case arrow.DATE32:
		if from.ID() == arrow.TIMESTAMP {
			micros, err := toTimestampUnit(v, from, TypeTimestamp.(*arrow.TimestampType))
			if err != nil {
				return nil, err
			}
			return int32(floorDiv(micros.(int64), 86400e6)), nil
		}
	case arrow.STRING:
		return value.FormatScalar(v, from), nil
	}
	return nil, fmt.Errorf("cannot convert %s to %s%w", FormatLiteral(v, from), TypeString(to), errNotAtPlanTime)
}

// errNotAtPlanTime is the kind of error for a conversion ConvertLiteral
// does not make (2.5 to INT, TRUE to INT): an explicit CAST leaves it to
// the executor's casts, which fold it back into a literal.
var errNotAtPlanTime = errors.New("")

// errInexact is the kind of error for a literal that its new type holds
// only rounded: a coercion must not round it, an explicit CAST does (at run
// time, as for a column).
var errInexact = errors.New("exactly")

// rescaleDecimal changes a decimal's scale to dt's, failing if digits would be
// lost or the precision exceeded.
func rescaleDecimal(n decimal128.Num, scale int32, dt *arrow.Decimal128Type) (any, error) {
	out := n
	if up := dt.Scale - scale; up >= 0 {
		// Only a number of at most Precision-up digits keeps its digits, and
		// fits 128 bits, once scaled up (IncreaseScaleBy panics past that).
		if up >= dt.Precision && n != (decimal128.Num{}) || up < dt.Precision && !n.FitsInPrecision(dt.Precision-up) {
			return nil, fmt.Errorf("%s does not fit DECIMAL(%d,%d)", n.ToString(scale), dt.Precision, dt.Scale)
		}
		out = n.IncreaseScaleBy(up)
	} else {
		var rem decimal128.Num
		out, rem = n.Div(decimal128.GetScaleMultiplier(int(scale - dt.Scale)))
		if rem != (decimal128.Num{}) {
			return nil, fmt.Errorf("%s does not fit DECIMAL(%d,%d) %w", n.ToString(scale), dt.Precision, dt.Scale, errInexact)
		}
	}
	if !out.FitsInPrecision(dt.Precision) {
		return nil, fmt.Errorf("%s does not fit DECIMAL(%d,%d)", n.ToString(scale), dt.Precision, dt.Scale)
	}
	return out, nil
}

func literalInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

func literalFloat(v any, from arrow.DataType) (float64, bool) {
	if i, ok := literalInt(v); ok {
		return float64(i), true
	}
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	case decimal128.Num:
		return value.DecimalToFloat64(x, from.(*arrow.Decimal128Type).Scale), true
	}
	return 0, false
}

func intFits(i int64, t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8:
		return i >= math.MinInt8 && i <= math.MaxInt8
	case arrow.INT16:
		return i >= math.MinInt16 && i <= math.MaxInt16
	case arrow.INT32:
		return i >= math.MinInt32 && i <= math.MaxInt32
	}
	return true
}

func intOfType(i int64, t arrow.DataType) any {
	switch t.ID() {
	case arrow.INT8:
		return int8(i)
	case arrow.INT16:
		return int16(i)
	case arrow.INT32:
		return int32(i)
	}
	return i
}

// parseLiteral converts SQL text to a constant of type t.
func parseLiteral(s string, t arrow.DataType) (any, error) {
	text := strings.TrimSpace(s)
	switch t.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		return s, nil
	case arrow.BINARY:
		return []byte(s), nil
	case arrow.BOOL:
		if b, err := value.ParseBool(text); err == nil {
			return b, nil
		}
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		i, err := value.ParseInt(text, 64)
		if err == nil && intFits(i, t) {
			return intOfType(i, t), nil
		}
	case arrow.FLOAT32:
		if f, err := value.ParseFloat(text, 32); err == nil {
			return float32(f), nil
		}
	case arrow.FLOAT64:
		if f, err := value.ParseFloat(text, 64); err == nil {
			return f, nil
		}
	case arrow.DECIMAL128:
		dt := t.(*arrow.Decimal128Type)
		if n, err := value.ParseDecimal(text, dt.Precision, dt.Scale); err == nil {
			return n, nil
		}
	case arrow.EXTENSION:
		if _, ok := t.(*extensions.UUIDType); ok {
			if u, err := value.ParseUUID(text); err == nil {
				return u[:], nil
			}
		}
	case arrow.DATE32:
		return value.CastToDate(text)
	case arrow.TIMESTAMP:
		parse, micros := value.ParseTimestamp, TypeTimestamp
		if isTimestampTZ(t) {
			parse, micros = value.ParseTimestampTZ, TypeTimestampTZ
		}
		v, err := parse(text)
		if err != nil || !isTimestampNs(t) {
			return v, err
		}
		return toTimestampUnit(v, micros, t.(*arrow.TimestampType))
	case arrow.TIME64:
		return value.ParseTime(text)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return value.ParseInterval(text)
	}
	return nil, fmt.Errorf("cannot convert %s to %s", value.Quote(s), TypeString(t))
}

// decimalLiteral types a number written with a decimal point exactly.
func decimalLiteral(text string) (*Literal, error) {
	digits := strings.TrimLeft(strings.Replace(text, ".", "", 1), "0")
	scale := 0
	if dot := strings.IndexByte(text, '.'); dot >= 0 {
		scale = len(text) - dot - 1
	}
	prec := max(len(digits), scale, 1)
	if prec > 38 {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("number %s is out of range for DOUBLE", value.Quote(text))
		}
		return &Literal{Value: f, T: TypeDouble}, nil
	}
	dt := &arrow.Decimal128Type{Precision: int32(prec), Scale: int32(scale)}
	n, err := value.ParseDecimal(text, dt.Precision, dt.Scale)
	if err != nil {
		return nil, err
	}
	return &Literal{Value: n, T: dt}, nil
}

// integerLiteral types an integer as INT, BIGINT or, beyond that, as
// decimalLiteral does (DECIMAL(p,0) up to 38 digits, then DOUBLE).
func integerLiteral(text string) (*Literal, error) {
	i, err := strconv.ParseInt(text, 10, 64)
	if err == nil {
		if intFits(i, TypeInt) {
			return &Literal{Value: int32(i), T: TypeInt}, nil
		}
		return &Literal{Value: i, T: TypeBigint}, nil
	}
	return decimalLiteral(text)
}

// floorDiv divides rounding toward negative infinity, so instants before 1970
// fall on the right day.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
