package storage

import "github.com/apache/iceberg-go"

// NonNullCount adds up a column's non-NULL values over files from their
// value and null counts; ok is false when a file lacks either count.
func NonNullCount(files []iceberg.DataFile, fieldID int) (n int64, ok bool) {
	for _, f := range files {
		values, okV := f.ValueCounts()[fieldID]
		nulls, okN := f.NullValueCounts()[fieldID]
		if !okV || !okN {
			return 0, false
		}
		n += values - nulls
	}
	return n, true
}

// ColumnRange is the smallest lower bound and largest upper bound of a column
// over files (nil, nil when every value is NULL). ok is false when a file
// with non-NULL values has no bounds, so the range is unknown.
func ColumnRange(files []iceberg.DataFile, field iceberg.NestedField) (lo, hi iceberg.Literal, ok bool) {
	for _, f := range files {
		values, nulls := f.ValueCounts()[field.ID], f.NullValueCounts()[field.ID]
		if values > 0 && values == nulls {
			continue // only NULLs here
		}
		fileLo, fileHi := boundOf(f.LowerBoundValues(), field), boundOf(f.UpperBoundValues(), field)
		if fileLo == nil || fileHi == nil {
			return nil, nil, false
		}
		var okLo, okHi bool
		if lo, okLo = extreme(lo, fileLo, -1); !okLo {
			return nil, nil, false
		}
		if hi, okHi = extreme(hi, fileHi, 1); !okHi {
			return nil, nil, false
		}
	}
	return lo, hi, true
}

// extreme returns the smaller (sign -1) or larger (sign 1) of the current
// extreme and a candidate; ok is false when they cannot be compared.
func extreme(current, candidate iceberg.Literal, sign int) (iceberg.Literal, bool) {
	if current == nil {
		return candidate, true
	}
	c, ok := compareLiterals(candidate, current)
	if !ok {
		return nil, false
	}
	if c*sign > 0 {
		return candidate, true
	}
	return current, true
}

func boundOf(bounds map[int][]byte, field iceberg.NestedField) iceberg.Literal {
	b, ok := bounds[field.ID]
	if !ok {
		return nil
	}
	return boundLiteral(field.Type, &b)
}
