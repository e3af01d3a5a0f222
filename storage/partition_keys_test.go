package storage

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
)

// TestFastKeysMatchIcebergTransforms checks the integer fast path against
// iceberg-go's own transforms, including instants before 1970.
func TestFastKeysMatchIcebergTransforms(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tsb := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Microsecond})
	db := array.NewDate32Builder(memory.DefaultAllocator)
	for range 2000 {
		us := r.Int64N(200*365*microsPerDay) - 100*365*microsPerDay
		tsb.Append(arrow.Timestamp(us))
		db.Append(arrow.Date32(us / microsPerDay))
	}
	tsb.AppendNull()
	db.AppendNull()
	ts, dates := tsb.NewArray(), db.NewArray()
	defer ts.Release()
	defer dates.Release()
	cases := []struct {
		transform iceberg.Transform
		col       arrow.Array
	}{
		{iceberg.HourTransform{}, ts}, {iceberg.DayTransform{}, ts}, {iceberg.MonthTransform{}, ts},
		{iceberg.YearTransform{}, ts}, {iceberg.IdentityTransform{}, ts},
		{iceberg.DayTransform{}, dates}, {iceberg.MonthTransform{}, dates}, {iceberg.YearTransform{}, dates},
	}
	for _, c := range cases {
		keys, ok := fastKeys(c.transform, c.col)
		if !ok {
			t.Fatalf("%s on %s has no fast path", c.transform, c.col.DataType())
		}
		for i := range c.col.Len() {
			lit, err := LiteralAt(c.col, i)
			if err != nil {
				t.Fatal(err)
			}
			var in iceberg.Optional[iceberg.Literal]
			if lit != nil {
				in = iceberg.Optional[iceberg.Literal]{Valid: true, Val: lit}
			}
			out := c.transform.Apply(in)
			if !out.Valid {
				if c.col.IsValid(i) {
					t.Fatalf("%s: row %d is NULL in iceberg-go only", c.transform, i)
				}
				continue
			}
			var want int64
			switch v := out.Val.Any().(type) {
			case int32:
				want = int64(v)
			case iceberg.Date:
				want = int64(v)
			case iceberg.Timestamp:
				want = int64(v)
			default:
				t.Fatalf("%s: unexpected value type %T", c.transform, v)
			}
			if keys[i] != want {
				t.Fatalf("%s of %s: fast key %d, iceberg-go %d", c.transform, lit, keys[i], want)
			}
		}
	}
}
