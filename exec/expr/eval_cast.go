package expr

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// cast evaluates CAST / TRY_CAST. Conversions follow DuckDB: numbers convert
// to integers rounding half away from zero, out-of-range values and
// unparsable text are errors (NULL under TRY_CAST), and text forms are those
// of value.Format.
func (ev *evaluator) cast(c *planner.Cast) (arrow.Array, error) {
	src, err := ev.eval(c.X)
	if err != nil {
		return nil, err
	}
	defer src.Release()
	return ev.castArray(src, c.T, c.Try)
}

// castArray converts src (of ev.n rows) to type to.
func (ev *evaluator) castArray(src arrow.Array, to arrow.DataType, try bool) (arrow.Array, error) {
	from := src.DataType()
	switch {
	case arrow.TypeEqual(from, to):
		src.Retain()
		return src, nil
	case from.ID() == arrow.NULL:
		return ev.allNull(to), nil
	case storage.IsNested(to):
		return ev.castNested(src, to, try)
	case to.ID() == arrow.STRING:
		return ev.castToString(src), nil
	case sameLayout(from, to):
		return reinterpret(src, to), nil
	}
	cc := &caster{ev: ev, src: src, to: to, try: try}
	op := operand{arr: src, t: from}
	switch KindOf(from) {
	case KindBool:
		return castFromNumber(cc, boolVec(op, ev.n))
	case KindInt8:
		return castFromNumber(cc, fixedVec[int8](op))
	case KindInt16:
		return castFromNumber(cc, fixedVec[int16](op))
	case KindInt32:
		if from.ID() == arrow.DATE32 {
			return castFromDate(cc, fixedVec[int32](op))
		}
		return castFromNumber(cc, fixedVec[int32](op))
	case KindInt64:
		if ts, ok := from.(*arrow.TimestampType); ok && ts.Unit == arrow.Microsecond {
			return castFromTimestamp(cc, fixedVec[int64](op))
		}
		if from.ID() == arrow.INT64 {
			return castFromNumber(cc, fixedVec[int64](op))
		}
	case KindFloat32:
		return castFromNumber(cc, fixedVec[float32](op))
	case KindFloat64:
		return castFromNumber(cc, fixedVec[float64](op))
	case KindDecimal:
		return castFromDecimal(cc, fixedVec[decimal128.Num](op))
	case KindBytes:
		if from.ID() == arrow.STRING {
			return castFromString(cc, newBytesVec(op))
		}
	}
	return nil, cc.unsupported()
}

// sameLayout reports conversions that only relabel the data: TIMESTAMP ↔
// TIMESTAMPTZ (the session time zone is UTC, so the instants are the same
// microseconds) and STRING → BINARY.
func sameLayout(from, to arrow.DataType) bool {
	fts, ok1 := from.(*arrow.TimestampType)
	tts, ok2 := to.(*arrow.TimestampType)
	if ok1 && ok2 {
		return fts.Unit == tts.Unit
	}
	fd, ok1 := from.(*arrow.Decimal128Type)
	td, ok2 := to.(*arrow.Decimal128Type)
	if ok1 && ok2 {
		// Widening the precision at the same scale keeps every value.
		return fd.Scale == td.Scale && fd.Precision <= td.Precision
	}
	return from.ID() == arrow.STRING && to.ID() == arrow.BINARY
}

// reinterpret relabels src's buffers with type to.
func reinterpret(src arrow.Array, to arrow.DataType) arrow.Array {
	d := src.Data()
	data := array.NewData(to, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	defer data.Release()
	return array.MakeFromData(data)
}

// caster carries one cast's source, target and error mode.
type caster struct {
	ev  *evaluator
	src arrow.Array
	to  arrow.DataType
	try bool
}

func (cc *caster) unsupported() error {
	return fmt.Errorf("cannot cast %s to %s", planner.TypeString(cc.src.DataType()), planner.TypeString(cc.to))
}

// fail reports the value of row i that does not convert.
func (cc *caster) fail(i int) error {
	v := value.Format(cc.src, i)
	if cc.src.DataType().ID() == arrow.STRING {
		v = value.Quote(v)
	}
	return fmt.Errorf("cannot cast %s to %s", v, planner.TypeString(cc.to))
}

// castRows converts every valid row of x with conv; a value conv rejects is
// an error, or NULL under TRY_CAST. D is the element type of cc.to (uint8 for
// BOOLEAN, packed into bits at the end).
func castRows[S any, D FixedWidth, V view[S]](cc *caster, x V, conv func(S) (D, bool)) (arrow.Array, error) {
	ev := cc.ev
	row := func(i int) (D, outcome) {
		d, ok := conv(x.At(i))
		switch {
		case ok:
			return d, ValueOK
		case cc.try:
			return d, valueNull
		}
		return d, overflow
	}
	vals, validity, err := fillRows(ev, ev.validity(operand{arr: cc.src}), row, cc.fail)
	if err != nil {
		return nil, err
	}
	if cc.to.ID() == arrow.BOOL {
		vals = packBools(ev.mem, vals, ev.n)
	}
	return MakeArray(cc.to, ev.n, validity, vals), nil
}

// packBools converts a buffer of n 0/1 bytes into a bitmap, releasing it.
func packBools(mem memory.Allocator, bytes *memory.Buffer, n int) *memory.Buffer {
	defer bytes.Release()
	bits := NewBuffer(mem, int(bitutil.BytesForBits(int64(n))))
	for i, b := range bytes.Bytes()[:n] {
		if b != 0 {
			bitutil.SetBit(bits.Bytes(), i)
		}
	}
	return bits
}

// number is a source or target of numeric casts; uint8 is an unpacked BOOLEAN.
type number interface{ Signed | Float | ~uint8 }

// isFloat reports whether T is a floating-point type.
func isFloat[T number]() bool {
	half := T(1)
	half /= 2
	return half != 0
}

func castFromNumber[S number](cc *caster, x *vec[S]) (arrow.Array, error) {
	switch cc.to.ID() {
	case arrow.BOOL:
		return castRows(cc, x, func(v S) (uint8, bool) { return BoolByte(v != 0), true })
	case arrow.INT8:
		return castRows(cc, x, numToInt[S, int8])
	case arrow.INT16:
		return castRows(cc, x, numToInt[S, int16])
	case arrow.INT32:
		return castRows(cc, x, numToInt[S, int32])
	case arrow.INT64:
		return castRows(cc, x, numToInt[S, int64])
	case arrow.FLOAT32:
		return castRows(cc, x, numToFloat[S, float32])
	case arrow.FLOAT64:
		return castRows(cc, x, numToFloat[S, float64])
	case arrow.DECIMAL128:
		prec, scale := decimalParams(cc.to)
		return castRows(cc, x, func(v S) (decimal128.Num, bool) { return numToDecimal(v, prec, scale) })
	}
	return nil, cc.unsupported()
}

// numToInt converts to an integer type; floats round half away from zero.
func numToInt[S number, D Signed](v S) (D, bool) {
	if isFloat[S]() {
		r := math.Round(float64(v))
		limit := math.Ldexp(1, int(unsafe.Sizeof(D(0)))*8-1)
		if !(r >= -limit && r < limit) { // also rejects NaN
			return 0, false
		}
		return D(r), true
	}
	d := D(v)
	return d, S(d) == v && (d < 0) == (v < 0)
}

// numToFloat converts to a float type; finite values that overflow it fail.
func numToFloat[S number, D Float](v S) (D, bool) {
	d := D(v)
	return d, !math.IsInf(float64(d), 0) || math.IsInf(float64(v), 0)
}

// numToDecimal converts to DECIMAL(prec, scale), rounding half away from zero.
func numToDecimal[S number](v S, prec, scale int32) (decimal128.Num, bool) {
	if isFloat[S]() {
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return decimal128.Num{}, false
		}
		// Going through the shortest decimal text converts 0.1 to exactly 0.1.
		n, err := value.ParseDecimal(strconv.FormatFloat(f, 'g', -1, int(unsafe.Sizeof(v))*8), prec, scale)
		return n, err == nil
	}
	n := decimal128.FromI64(int64(v))
	if prec <= scale {
		return n, n.Sign() == 0
	}
	if !n.FitsInPrecision(prec - scale) {
		return decimal128.Num{}, false
	}
	return n.Mul(decimal128.GetScaleMultiplier(int(scale))), true
}

func castFromDecimal(cc *caster, x *vec[decimal128.Num]) (arrow.Array, error) {
	_, from := decimalParams(cc.src.DataType())
	switch cc.to.ID() {
	case arrow.BOOL:
		return castRows(cc, x, func(v decimal128.Num) (uint8, bool) { return BoolByte(v.Sign() != 0), true })
	case arrow.INT8:
		return castRows(cc, x, decimalToInt[int8](from))
	case arrow.INT16:
		return castRows(cc, x, decimalToInt[int16](from))
	case arrow.INT32:
		return castRows(cc, x, decimalToInt[int32](from))
	case arrow.INT64:
		return castRows(cc, x, decimalToInt[int64](from))
	case arrow.FLOAT32:
		return castRows(cc, x, func(v decimal128.Num) (float32, bool) { return v.ToFloat32(from), true })
	case arrow.FLOAT64:
		return castRows(cc, x, func(v decimal128.Num) (float64, bool) { return value.DecimalToFloat64(v, from), true })
	case arrow.DECIMAL128:
		prec, scale := decimalParams(cc.to)
		m := &decimalMath{prec: prec}
		return castRows(cc, x, func(v decimal128.Num) (decimal128.Num, bool) {
			n, o := m.fit(m.rescale(v, from, scale))
			return n, o == ValueOK
		})
	}
	return nil, cc.unsupported()
}

// decimalToInt rounds a decimal of the given scale half away from zero.
func decimalToInt[D Signed](scale int32) func(decimal128.Num) (D, bool) {
	return func(v decimal128.Num) (D, bool) {
		r := v.ReduceScaleBy(scale, true)
		hi, lo := r.HighBits(), r.LowBits()
		if !(hi == 0 && lo < 1<<63 || hi == -1 && lo >= 1<<63) {
			return 0, false
		}
		return numToInt[int64, D](int64(lo))
	}
}

func castFromDate(cc *caster, x *vec[int32]) (arrow.Array, error) {
	if ts, ok := cc.to.(*arrow.TimestampType); ok && ts.Unit == arrow.Microsecond {
		return castRows(cc, x, func(d int32) (int64, bool) {
			v, overflow := mulAdd(int64(d), microsPerDay, 0)
			return v, !overflow
		})
	}
	return nil, cc.unsupported()
}

func castFromTimestamp(cc *caster, x *vec[int64]) (arrow.Array, error) {
	switch to := cc.to.(type) {
	case *arrow.Date32Type:
		return castRows(cc, x, func(v int64) (int32, bool) {
			days, _ := floorDivMod(v, microsPerDay)
			return int32(days), true
		})
	case *arrow.Time64Type:
		if to.Unit == arrow.Microsecond {
			return castRows(cc, x, func(v int64) (int64, bool) {
				_, tod := floorDivMod(v, microsPerDay)
				return tod, true
			})
		}
	}
	return nil, cc.unsupported()
}

// castFromString parses text into the target type.
func castFromString(cc *caster, x *BytesVec) (arrow.Array, error) {
	switch to := cc.to.(type) {
	case *arrow.BooleanType:
		return castRows(cc, x, parsed(func(s string) (uint8, error) {
			b, err := value.ParseBool(s)
			return BoolByte(b), err
		}))
	case *arrow.Int8Type:
		return castRows(cc, x, parsed(parseInt[int8]))
	case *arrow.Int16Type:
		return castRows(cc, x, parsed(parseInt[int16]))
	case *arrow.Int32Type:
		return castRows(cc, x, parsed(parseInt[int32]))
	case *arrow.Int64Type:
		return castRows(cc, x, parsed(parseInt[int64]))
	case *arrow.Float32Type:
		return castRows(cc, x, parsed(parseFloat[float32]))
	case *arrow.Float64Type:
		return castRows(cc, x, parsed(parseFloat[float64]))
	case *arrow.Decimal128Type:
		return castRows(cc, x, parsed(func(s string) (decimal128.Num, error) {
			return value.ParseDecimal(s, to.Precision, to.Scale)
		}))
	case *arrow.Date32Type:
		return castRows(cc, x, parsed(value.CastToDate))
	case *arrow.Time64Type:
		if to.Unit == arrow.Microsecond {
			return castRows(cc, x, parsed(value.ParseTime))
		}
	case *arrow.TimestampType:
		if to.Unit == arrow.Microsecond {
			parse := value.ParseTimestamp
			if to.TimeZone != "" {
				parse = value.ParseTimestampTZ
			}
			return castRows(cc, x, parsed(parse))
		}
	case *arrow.MonthDayNanoIntervalType:
		return castRows(cc, x, parsed(value.ParseInterval))
	case arrow.ExtensionType:
		if to.ExtensionName() == "arrow.uuid" {
			return castStringToUUID(cc, x, to)
		}
	}
	return nil, cc.unsupported()
}

// parsed adapts a text parser to castRows. The text is viewed without copying;
// parsers must not retain it.
func parsed[D any](parse func(string) (D, error)) func([]byte) (D, bool) {
	return func(b []byte) (D, bool) {
		v, err := parse(unsafeString(b))
		return v, err == nil
	}
}

func parseInt[D Signed](s string) (D, error) {
	v, err := value.ParseInt(s, int(unsafe.Sizeof(D(0)))*8)
	return D(v), err
}

func parseFloat[D Float](s string) (D, error) {
	v, err := value.ParseFloat(s, int(unsafe.Sizeof(D(0)))*8)
	return D(v), err
}

// castStringToUUID parses UUID text into the UUID extension type.
func castStringToUUID(cc *caster, x *BytesVec, to arrow.ExtensionType) (arrow.Array, error) {
	b := array.NewFixedSizeBinaryBuilder(cc.ev.mem, to.StorageType().(*arrow.FixedSizeBinaryType))
	defer b.Release()
	for i := 0; i < cc.ev.n; i++ {
		if cc.src.IsNull(i) {
			b.AppendNull()
			continue
		}
		u, err := value.ParseUUID(unsafeString(x.At(i)))
		switch {
		case err == nil:
			b.Append(u[:])
		case cc.try:
			b.AppendNull()
		default:
			return nil, cc.fail(i)
		}
	}
	storage := b.NewArray()
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(to, storage), nil
}

// castToString formats every valid row as text.
func (ev *evaluator) castToString(src arrow.Array) arrow.Array {
	format := value.FormatterOf(src)
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	b.Reserve(ev.n)
	var buf []byte
	for i := 0; i < ev.n; i++ {
		if src.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = format(buf[:0], i)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray()
}
