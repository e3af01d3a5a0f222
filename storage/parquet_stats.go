package storage

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/parquet-go/parquet-go"
)

// ColumnStats returns footer min/max/null count for a column in a row group, as
// Go values typed like planner literals (bool, int32 for INT and DATE days, int64
// for BIGINT, TIME and timestamps in the requested unit, float32, float64, string,
// []byte for binary, fixed and uuid, decimal128.Num) — ok=false when min and max
// are absent or unusable. nullCount is -1 when unknown; a column missing from
// the file (added later) reports every row as null, or nothing known when
// the column has a default.
func (f *ParquetFile) ColumnStats(rg int, col ReadColumn) (min, max any, nullCount int64, ok bool) {
	c, err := f.column(col)
	if err != nil || rg < 0 || rg >= f.NumRowGroups() {
		return nil, nil, -1, false
	}
	if c == nil && col.Default != nil {
		return nil, nil, -1, false
	}
	if c == nil {
		return nil, nil, f.RowGroupNumRows(rg), false
	}
	st := f.file.Metadata().RowGroups[rg].Columns[c.Index()].MetaData.Statistics
	minB, maxB := st.MinValue, st.MaxValue
	if minB == nil && maxB == nil && signedSortOrder(c.Type().Kind()) && !unsignedInt(c.Type()) {
		// The deprecated min/max fields used a signed bytewise order, wrong
		// for strings and decimals in byte arrays, right for numbers.
		minB, maxB = st.Min, st.Max
	}
	nullCount = st.NullCount
	if minB == nil && maxB == nil && nullCount == 0 {
		// No statistics at all (NullCount cannot be told apart from zero).
		nullCount = -1
	}
	if minB == nil || maxB == nil {
		return nil, nil, nullCount, false
	}
	min, okMin := statValue(c, col.Type, minB)
	max, okMax := statValue(c, col.Type, maxB)
	if !okMin || !okMax {
		return nil, nil, nullCount, false
	}
	return min, max, nullCount, true
}

func signedSortOrder(k parquet.Kind) bool {
	switch k {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		return true
	}
	return false
}

// statValue decodes a plain-encoded statistics value of column c as a value
// of the requested type, converting like the page decoders do.
func statValue(c *parquet.Column, want arrow.DataType, b []byte) (any, bool) {
	typ := c.Type()
	switch typ.Kind() {
	case parquet.Boolean:
		if _, isBool := want.(*arrow.BooleanType); isBool && len(b) == 1 {
			return b[0] != 0, true
		}
	case parquet.Int32:
		if len(b) == 4 {
			u := binary.LittleEndian.Uint32(b)
			if unsignedInt(typ) {
				return intStat(c, want, int64(u), false)
			}
			return intStat(c, want, int64(int32(u)), true)
		}
	case parquet.Int64:
		if len(b) == 8 {
			u := binary.LittleEndian.Uint64(b)
			if unsignedInt(typ) {
				return unsignedStat(want, u)
			}
			return intStat(c, want, int64(u), false)
		}
	case parquet.Float:
		if len(b) == 4 {
			v := math.Float32frombits(binary.LittleEndian.Uint32(b))
			return floatStat(want, float64(v), v)
		}
	case parquet.Double:
		if len(b) == 8 {
			v := math.Float64frombits(binary.LittleEndian.Uint64(b))
			return floatStat(want, v, float32(v))
		}
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return bytesStat(c, want, b)
	}
	return nil, false
}

func intStat(c *parquet.Column, want arrow.DataType, v int64, is32 bool) (any, bool) {
	switch want := want.(type) {
	case *arrow.Int32Type, *arrow.Date32Type:
		if is32 {
			return int32(v), true
		}
	case *arrow.Int64Type:
		return v, true
	case *arrow.Time64Type:
		return temporalStat(c, want.Unit, v)
	case *arrow.TimestampType:
		return temporalStat(c, want.Unit, v)
	case *arrow.Decimal128Type:
		if _, scale, ok := fileDecimal(c); ok && scale == want.Scale {
			return decimal128.FromI64(v), true
		}
	}
	return nil, false
}

// unsignedStat is a UINT64 column's bound, read as its DECIMAL(20,0).
func unsignedStat(want arrow.DataType, u uint64) (any, bool) {
	if d, ok := want.(*arrow.Decimal128Type); ok && d.Scale == 0 {
		return decimal128.New(0, u), true
	}
	return nil, false
}

func temporalStat(c *parquet.Column, want arrow.TimeUnit, v int64) (any, bool) {
	from, ok := fileTimeUnit(c.Type())
	if !ok {
		return nil, false
	}
	return unitConverter(from, want)(v), true
}

func floatStat(want arrow.DataType, v64 float64, v32 float32) (any, bool) {
	if math.IsNaN(v64) {
		return nil, false
	}
	switch want.(type) {
	case *arrow.Float32Type:
		return v32, true
	case *arrow.Float64Type:
		return v64, true
	}
	return nil, false
}

func bytesStat(c *parquet.Column, want arrow.DataType, b []byte) (any, bool) {
	switch want := want.(type) {
	case *arrow.StringType:
		return string(b), true
	case *arrow.BinaryType, *arrow.FixedSizeBinaryType, *extensions.UUIDType:
		return bytes.Clone(b), true
	case *arrow.Decimal128Type:
		if _, scale, ok := fileDecimal(c); ok && scale == want.Scale {
			return decimalFromBigEndian(b), true
		}
	}
	return nil, false
}
