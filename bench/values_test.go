package bench

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"
)

// kind is the family a value belongs to. The two engines do not type
// results the same way (DuckDB sums integers to HUGEINT and averages
// DECIMALs to DOUBLE, date_trunc of a DATE may be a DATE or a TIMESTAMP),
// so values compare by family, not by exact type.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindTime
)

// value is one result cell in a form both engines' outputs map to.
// Integers and decimals keep their exact value in rat; floats have rat nil.
type value struct {
	kind kind
	b    bool
	f    float64
	rat  *big.Rat
	s    string
	t    time.Time
}

func exactValue(r *big.Rat) value {
	f, _ := r.Float64()
	return value{kind: kindNumber, rat: r, f: f}
}

func intValue(i int64) value { return exactValue(new(big.Rat).SetInt64(i)) }

func floatValue(f float64) value { return value{kind: kindNumber, f: f} }

// decimalValue is unscaled / 10^scale.
func decimalValue(unscaled *big.Int, scale int) value {
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	return exactValue(new(big.Rat).SetFrac(unscaled, den))
}

// fromDuck maps a value database/sql scanned from DuckDB.
func fromDuck(v any) (value, error) {
	switch v := v.(type) {
	case nil:
		return value{}, nil
	case bool:
		return value{kind: kindBool, b: v}, nil
	case int8:
		return intValue(int64(v)), nil
	case int16:
		return intValue(int64(v)), nil
	case int32:
		return intValue(int64(v)), nil
	case int64:
		return intValue(v), nil
	case uint8:
		return intValue(int64(v)), nil
	case uint16:
		return intValue(int64(v)), nil
	case uint32:
		return intValue(int64(v)), nil
	case uint64:
		return exactValue(new(big.Rat).SetInt(new(big.Int).SetUint64(v))), nil
	case *big.Int:
		return exactValue(new(big.Rat).SetInt(v)), nil
	case duckdb.Decimal:
		return decimalValue(v.Value, int(v.Scale)), nil
	case float32:
		return floatValue(float64(v)), nil
	case float64:
		return floatValue(v), nil
	case string:
		return value{kind: kindString, s: v}, nil
	case []byte:
		return value{kind: kindString, s: string(v)}, nil
	case time.Time:
		return value{kind: kindTime, t: v.UTC()}, nil
	}
	return value{}, fmt.Errorf("unsupported DuckDB value %T", v)
}

// fromArrow maps row i of a lakesql result column.
func fromArrow(col arrow.Array, i int) (value, error) {
	if col.IsNull(i) {
		return value{}, nil
	}
	switch c := col.(type) {
	case *array.Boolean:
		return value{kind: kindBool, b: c.Value(i)}, nil
	case *array.Int8:
		return intValue(int64(c.Value(i))), nil
	case *array.Int16:
		return intValue(int64(c.Value(i))), nil
	case *array.Int32:
		return intValue(int64(c.Value(i))), nil
	case *array.Int64:
		return intValue(c.Value(i)), nil
	case *array.Float32:
		return floatValue(float64(c.Value(i))), nil
	case *array.Float64:
		return floatValue(c.Value(i)), nil
	case *array.Decimal128:
		return decimalValue(c.Value(i).BigInt(), int(c.DataType().(*arrow.Decimal128Type).Scale)), nil
	case *array.String:
		// Value aliases the batch's buffer, which is reused once released.
		return value{kind: kindString, s: strings.Clone(c.Value(i))}, nil
	case *array.LargeString:
		return value{kind: kindString, s: strings.Clone(c.Value(i))}, nil
	case *array.Binary:
		return value{kind: kindString, s: string(c.Value(i))}, nil
	case *array.Date32:
		return value{kind: kindTime, t: c.Value(i).ToTime()}, nil
	case *array.Timestamp:
		unit := c.DataType().(*arrow.TimestampType).Unit
		return value{kind: kindTime, t: c.Value(i).ToTime(unit).UTC()}, nil
	}
	return value{}, fmt.Errorf("unsupported lakesql column type %s", col.DataType())
}

// Float tolerance: sums and averages of floats depend on the order rows
// are added in, which differs between engines and runs.
const (
	relTolerance = 1e-9
	absTolerance = 1e-12
)

func (a value) equal(b value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindNull:
		return true
	case kindBool:
		return a.b == b.b
	case kindString:
		return a.s == b.s
	case kindTime:
		return a.t.Equal(b.t)
	}
	if a.rat != nil && b.rat != nil {
		return a.rat.Cmp(b.rat) == 0
	}
	return floatsEqual(a.f, b.f)
}

func floatsEqual(a, b float64) bool {
	switch {
	case math.IsNaN(a) || math.IsNaN(b):
		return math.IsNaN(a) && math.IsNaN(b)
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		return a == b
	}
	diff := math.Abs(a - b)
	return diff <= absTolerance || diff <= relTolerance*math.Max(math.Abs(a), math.Abs(b))
}

// String renders a value for reports and sort keys. Numbers print with 12
// significant digits so that values equal within the tolerance almost
// always print alike and sort to the same position on both sides.
func (a value) String() string {
	switch a.kind {
	case kindNull:
		return "NULL"
	case kindBool:
		return strconv.FormatBool(a.b)
	case kindString:
		return strconv.Quote(a.s)
	case kindTime:
		return a.t.Format("2006-01-02 15:04:05.999999")
	}
	if a.rat != nil && a.rat.IsInt() {
		return a.rat.RatString()
	}
	return strconv.FormatFloat(a.f, 'g', 12, 64)
}

func rowString(row []value) string {
	parts := make([]string, len(row))
	for i, v := range row {
		parts[i] = v.String()
	}
	return strings.Join(parts, " | ")
}

// sortedRows orders rows by their rendering, for comparing results as
// multisets.
func sortedRows(rows [][]value) [][]value {
	keyed := make([]struct {
		key string
		row []value
	}, len(rows))
	for i, r := range rows {
		keyed[i].key, keyed[i].row = rowString(r), r
	}
	slices.SortStableFunc(keyed, func(a, b struct {
		key string
		row []value
	}) int {
		return strings.Compare(a.key, b.key)
	})
	out := make([][]value, len(rows))
	for i, k := range keyed {
		out[i] = k.row
	}
	return out
}

// diffResults compares two results and describes the first difference, or
// returns "" when they match. Unless ordered, rows compare as multisets.
func diffResults(want, got result, ordered bool) string {
	return diffResultsWith(want, got, ordered, value.equal)
}

// diffResultsWith is diffResults with the cell equality a comparison
// allows.
func diffResultsWith(want, got result, ordered bool, equal func(a, b value) bool) string {
	if len(want.columns) != len(got.columns) {
		return fmt.Sprintf("%d columns, want %d", len(got.columns), len(want.columns))
	}
	return diffRows(want.rows, got.rows, ordered, equal)
}

func diffRows(want, got [][]value, ordered bool, equal func(a, b value) bool) string {
	if !ordered {
		want, got = sortedRows(want), sortedRows(got)
	}
	if len(want) != len(got) {
		return fmt.Sprintf("%d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if len(want[i]) != len(got[i]) {
			return fmt.Sprintf("%d columns, want %d", len(got[i]), len(want[i]))
		}
		for c := range want[i] {
			if !equal(want[i][c], got[i][c]) {
				return fmt.Sprintf("row %d column %d: got %s, want %s", i+1, c+1, got[i][c], want[i][c])
			}
		}
	}
	return ""
}

// formatRows renders at most limit rows of a result for a report.
func formatRows(rows [][]value, limit int) string {
	var sb strings.Builder
	for i, r := range rows {
		if i == limit {
			fmt.Fprintf(&sb, "    … %d more rows\n", len(rows)-limit)
			break
		}
		sb.WriteString("    " + rowString(r) + "\n")
	}
	if len(rows) == 0 {
		sb.WriteString("    (no rows)\n")
	}
	return sb.String()
}
