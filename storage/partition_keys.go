package storage

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
)

// fastKeys computes a partition field's value for every row as an integer
// key, for the transforms that are plain integer arithmetic on their source
// (time transforms, identity on integers and dates), so fanning rows out by
// partition does not box each value. ok is false for other transforms; the
// caller then applies the transform row by row. NULL rows get valid=false.
func fastKeys(t iceberg.Transform, col arrow.Array) (keys []int64, ok bool) {
	var values func(i int) int64
	var unit func(int64) int64
	switch a := col.(type) {
	case *array.Timestamp:
		values = func(i int) int64 { return int64(a.Value(i)) }
		unit = timestampUnit(t)
	case *array.Date32:
		values = func(i int) int64 { return int64(a.Value(i)) }
		unit = dateUnit(t)
	case *array.Int32:
		values = func(i int) int64 { return int64(a.Value(i)) }
		unit = identityUnit(t)
	case *array.Int64:
		values = func(i int) int64 { return a.Value(i) }
		unit = identityUnit(t)
	}
	if unit == nil {
		return nil, false
	}
	keys = make([]int64, col.Len())
	for i := range keys {
		if col.IsValid(i) {
			keys[i] = unit(values(i))
		}
	}
	return keys, true
}

func identityUnit(t iceberg.Transform) func(int64) int64 {
	if _, ok := t.(iceberg.IdentityTransform); ok {
		return func(v int64) int64 { return v }
	}
	return nil
}

const (
	microsPerHour = 3600 * 1_000_000
	microsPerDay  = 24 * microsPerHour
)

// timestampUnit maps microseconds to the transform's ordinal: hours, days,
// months or years since 1970, as the Iceberg spec defines them.
func timestampUnit(t iceberg.Transform) func(int64) int64 {
	switch t.(type) {
	case iceberg.HourTransform:
		return func(us int64) int64 { return floorDiv(us, microsPerHour) }
	case iceberg.DayTransform:
		return func(us int64) int64 { return floorDiv(us, microsPerDay) }
	case iceberg.MonthTransform:
		return func(us int64) int64 { return monthsSinceEpoch(floorDiv(us, microsPerDay)) }
	case iceberg.YearTransform:
		return func(us int64) int64 { return yearsSinceEpoch(floorDiv(us, microsPerDay)) }
	case iceberg.IdentityTransform:
		return func(us int64) int64 { return us }
	}
	return nil
}

func dateUnit(t iceberg.Transform) func(int64) int64 {
	switch t.(type) {
	case iceberg.DayTransform, iceberg.IdentityTransform:
		return func(d int64) int64 { return d }
	case iceberg.MonthTransform:
		return monthsSinceEpoch
	case iceberg.YearTransform:
		return yearsSinceEpoch
	}
	return nil
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days_from_civil inverse).
func civil(days int64) (year, month int64) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month
}

func monthsSinceEpoch(days int64) int64 {
	y, m := civil(days)
	return (y-1970)*12 + m - 1
}

func yearsSinceEpoch(days int64) int64 {
	y, _ := civil(days)
	return y - 1970
}

// appendKey appends one field's key (or a NULL marker) to a composite key.
func appendKey(dst []byte, valid bool, key int64) []byte {
	if !valid {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	return binary.LittleEndian.AppendUint64(dst, uint64(key))
}

// appendText appends one field's value, length-prefixed, for transforms
// without integer keys.
func appendText(dst []byte, v any) []byte {
	text := fmt.Sprint(v)
	if v == nil {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	dst = binary.AppendUvarint(dst, uint64(len(text)))
	return append(dst, text...)
}
