package storage

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/iceberg-go"
	"github.com/google/uuid"
)

// FileMetrics are the Iceberg data file metrics of a written file, keyed by
// field id.
type FileMetrics struct {
	RecordCount                                     int64
	FileSize                                        int64
	ColumnSizes, ValueCounts, NullCounts, NaNCounts map[int]int64  // by field id
	LowerBounds, UpperBounds                        map[int][]byte // Iceberg single-value binary serialization
}

// boundTruncateLength is Iceberg's default metrics mode, truncate(16).
const boundTruncateLength = 16

// columnMetrics accumulates one column's metrics from the Arrow arrays written.
type columnMetrics struct {
	values, nulls, nans int64
	isFloat             bool
	bounds              boundsTracker
}

// boundsTracker follows a column's min and max and serializes them.
type boundsTracker interface {
	update(arr arrow.Array, lo, hi int) (nans int64)
	// serialize returns the bounds; a nil bound is omitted.
	serialize() (lower, upper []byte, err error)
}

func newColumnMetrics(t arrow.DataType) (*columnMetrics, error) {
	m := &columnMetrics{}
	switch t := t.(type) {
	case *arrow.BooleanType:
		m.bounds = &orderedBounds[bool, *array.Boolean]{less: func(a, b bool) bool { return !a && b },
			literal: func(v bool) iceberg.Literal { return iceberg.BoolLiteral(v) }}
	case *arrow.Int32Type:
		m.bounds = newOrderedBounds[int32, *array.Int32](func(v int32) iceberg.Literal { return iceberg.Int32Literal(v) })
	case *arrow.Date32Type:
		m.bounds = newOrderedBounds[arrow.Date32, *array.Date32](func(v arrow.Date32) iceberg.Literal { return iceberg.DateLiteral(v) })
	case *arrow.Int64Type:
		m.bounds = newOrderedBounds[int64, *array.Int64](func(v int64) iceberg.Literal { return iceberg.Int64Literal(v) })
	case *arrow.Time64Type:
		m.bounds = newOrderedBounds[arrow.Time64, *array.Time64](func(v arrow.Time64) iceberg.Literal { return iceberg.TimeLiteral(v) })
	case *arrow.TimestampType:
		m.bounds = newOrderedBounds[arrow.Timestamp, *array.Timestamp](func(v arrow.Timestamp) iceberg.Literal { return iceberg.TimestampLiteral(v) })
	case *arrow.Float32Type:
		m.isFloat = true
		m.bounds = newFloatBounds[float32, *array.Float32](func(v float32) iceberg.Literal { return iceberg.Float32Literal(v) })
	case *arrow.Float64Type:
		m.isFloat = true
		m.bounds = newFloatBounds[float64, *array.Float64](func(v float64) iceberg.Literal { return iceberg.Float64Literal(v) })
	case *arrow.Decimal128Type:
		scale := int(t.Scale)
		m.bounds = &orderedBounds[decimal128.Num, *array.Decimal128]{less: decimal128.Num.Less,
			literal: func(v decimal128.Num) iceberg.Literal { return iceberg.DecimalLiteral{Val: v, Scale: scale} }}
	case *arrow.StringType:
		m.bounds = &bytesBounds{truncate: truncateString, literal: stringLiteral, get: func(a arrow.Array, i int) []byte {
			return stringBytes(a.(*array.String), i)
		}}
	case *arrow.BinaryType:
		m.bounds = &bytesBounds{truncate: truncateBinary, literal: binaryLiteral, get: func(a arrow.Array, i int) []byte { return a.(*array.Binary).Value(i) }}
	case *arrow.FixedSizeBinaryType:
		m.bounds = &bytesBounds{literal: fixedLiteral, get: func(a arrow.Array, i int) []byte { return a.(*array.FixedSizeBinary).Value(i) }}
	case *extensions.UUIDType:
		// Arrow stores UUIDs as their 16 big-endian bytes, so bytewise order
		// is UUID order.
		m.bounds = &bytesBounds{literal: uuidLiteral, get: func(a arrow.Array, i int) []byte {
			return a.(*extensions.UUIDArray).Storage().(*array.FixedSizeBinary).Value(i)
		}}
	case *arrow.MonthDayNanoIntervalType:
		// Intervals have no order (is a month 30 days?): counts only.
		m.bounds = noBounds{}
	default:
		return nil, fmt.Errorf("no metrics for arrow type %s", t)
	}
	return m, nil
}

// noBounds tracks no bounds, for types without an order.
type noBounds struct{}

func (noBounds) update(arrow.Array, int, int) int64          { return 0 }
func (noBounds) serialize() (lower, upper []byte, err error) { return nil, nil, nil }

// update accounts rows [lo, hi) of arr.
func (m *columnMetrics) update(arr arrow.Array, lo, hi int) {
	m.values += int64(hi - lo)
	if arr.NullN() > 0 {
		for i := lo; i < hi; i++ {
			if arr.IsNull(i) {
				m.nulls++
			}
		}
	}
	m.nans += m.bounds.update(arr, lo, hi)
}

func (m *columnMetrics) fill(fm *FileMetrics, id int) error {
	fm.ValueCounts[id] = m.values
	fm.NullCounts[id] = m.nulls
	if m.isFloat {
		fm.NaNCounts[id] = m.nans
	}
	lower, upper, err := m.bounds.serialize()
	if err != nil {
		return err
	}
	if lower != nil {
		fm.LowerBounds[id] = lower
	}
	if upper != nil {
		fm.UpperBounds[id] = upper
	}
	return nil
}

// valueArray is an Arrow array with typed element access.
type valueArray[T any] interface {
	arrow.Array
	Value(int) T
}

// orderedBounds tracks min and max of fixed-width values.
type orderedBounds[T any, A valueArray[T]] struct {
	less     func(a, b T) bool
	isNaN    func(T) bool // nil for types without NaN
	literal  func(T) iceberg.Literal
	min, max T
	seen     bool
}

func newOrderedBounds[T cmp.Ordered, A valueArray[T]](literal func(T) iceberg.Literal) *orderedBounds[T, A] {
	return &orderedBounds[T, A]{less: cmp.Less[T], literal: literal}
}

func newFloatBounds[T float32 | float64, A valueArray[T]](literal func(T) iceberg.Literal) *orderedBounds[T, A] {
	return &orderedBounds[T, A]{less: cmp.Less[T], literal: literal, isNaN: func(v T) bool { return math.IsNaN(float64(v)) }}
}

func (b *orderedBounds[T, A]) update(arr arrow.Array, lo, hi int) (nans int64) {
	a := arr.(A)
	hasNulls := a.NullN() > 0
	for i := lo; i < hi; i++ {
		if hasNulls && a.IsNull(i) {
			continue
		}
		v := a.Value(i)
		if b.isNaN != nil && b.isNaN(v) {
			nans++
			continue
		}
		switch {
		case !b.seen:
			b.min, b.max, b.seen = v, v, true
		case b.less(v, b.min):
			b.min = v
		case b.less(b.max, v):
			b.max = v
		}
	}
	return nans
}

func (b *orderedBounds[T, A]) serialize() (lower, upper []byte, err error) {
	if !b.seen {
		return nil, nil, nil
	}
	if lower, err = b.literal(b.min).MarshalBinary(); err != nil {
		return nil, nil, err
	}
	if upper, err = b.literal(b.max).MarshalBinary(); err != nil {
		return nil, nil, err
	}
	return lower, upper, nil
}

// bytesBounds tracks min and max of strings and byte arrays, compared
// bytewise (for UTF-8 this is code point order, as Iceberg requires).
type bytesBounds struct {
	get func(arr arrow.Array, i int) []byte
	// truncate shortens the bounds; nil keeps them whole.
	truncate func(lo, hi []byte) (lower, upper []byte)
	literal  func([]byte) iceberg.Literal
	min, max []byte
	seen     bool
}

func (b *bytesBounds) update(arr arrow.Array, lo, hi int) int64 {
	hasNulls := arr.NullN() > 0
	for i := lo; i < hi; i++ {
		if hasNulls && arr.IsNull(i) {
			continue
		}
		v := b.get(arr, i)
		// Copies: the Arrow buffers do not outlive the batch.
		switch {
		case !b.seen:
			b.min, b.max, b.seen = bytes.Clone(v), bytes.Clone(v), true
		case bytes.Compare(v, b.min) < 0:
			b.min = append(b.min[:0], v...)
		case bytes.Compare(v, b.max) > 0:
			b.max = append(b.max[:0], v...)
		}
	}
	return 0
}

func (b *bytesBounds) serialize() (lower, upper []byte, err error) {
	if !b.seen {
		return nil, nil, nil
	}
	lo, hi := b.min, b.max
	if b.truncate != nil {
		lo, hi = b.truncate(lo, hi)
	}
	if lower, err = b.literal(lo).MarshalBinary(); err != nil {
		return nil, nil, err
	}
	// A nil bound means "omitted": the empty string is a valid lower bound.
	lower = append([]byte{}, lower...)
	if hi != nil {
		if upper, err = b.literal(hi).MarshalBinary(); err != nil {
			return nil, nil, err
		}
		upper = append([]byte{}, upper...)
	}
	return lower, upper, nil
}

// truncateString truncates string bounds to 16 code points. The upper bound
// must stay above every value, so its last kept code point is incremented;
// when no code point can be incremented the upper bound is omitted (nil).
func truncateString(lo, hi []byte) (lower, upper []byte) {
	lower = bytes.Clone(prefixRunes(lo, boundTruncateLength))
	upper = bytes.Clone(hi)
	if utf8.RuneCount(hi) <= boundTruncateLength {
		return lower, upper
	}
	runes := []rune(string(prefixRunes(hi, boundTruncateLength)))
	for i := len(runes) - 1; i >= 0; i-- {
		next := runes[i] + 1
		if next >= 0xD800 && next <= 0xDFFF {
			next = 0xE000 // skip the surrogate range, not encodable in UTF-8
		}
		if next <= utf8.MaxRune {
			runes[i] = next
			return lower, []byte(string(runes[:i+1]))
		}
	}
	return lower, nil
}

// prefixRunes returns the first n code points of s.
func prefixRunes(s []byte, n int) []byte {
	off := 0
	for range n {
		if off >= len(s) {
			break
		}
		_, size := utf8.DecodeRune(s[off:])
		off += size
	}
	return s[:off]
}

// truncateBinary truncates binary bounds to 16 bytes, incrementing the upper
// bound's last byte that can be (dropping trailing 0xff bytes); nil when none can.
func truncateBinary(lo, hi []byte) (lower, upper []byte) {
	lower = bytes.Clone(lo[:min(len(lo), boundTruncateLength)])
	if len(hi) <= boundTruncateLength {
		return lower, bytes.Clone(hi)
	}
	upper = bytes.Clone(hi[:boundTruncateLength])
	for i := len(upper) - 1; i >= 0; i-- {
		if upper[i] != 0xff {
			upper[i]++
			return lower, upper[:i+1]
		}
	}
	return lower, nil
}

func stringLiteral(b []byte) iceberg.Literal { return iceberg.StringLiteral(b) }
func binaryLiteral(b []byte) iceberg.Literal { return iceberg.BinaryLiteral(b) }
func fixedLiteral(b []byte) iceberg.Literal  { return iceberg.FixedLiteral(b) }
func uuidLiteral(b []byte) iceberg.Literal   { return iceberg.UUIDLiteral(uuid.UUID(b)) }
