package storage

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func micros(s string) int64 {
	t, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t.UnixMicro()
}

func days(s string) int32 { return int32(micros(s+" 00:00:00") / 86_400_000_000) }

// rowStrings renders each row of cols as a string, for order-independent
// comparison across the files of a table.
func rowStrings(t *testing.T, table string, cols []ReadColumn) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows []string
	for _, p := range fixtureFiles(t, table) {
		f := openFixture(t, p)
		arrs := readAll(t, f, cols, 1024, mem)
		for r := 0; r < arrs[0].Len(); r++ {
			var parts []string
			for _, a := range arrs {
				parts = append(parts, cellString(a, r))
			}
			rows = append(rows, strings.Join(parts, "|"))
		}
		releaseAll(arrs)
	}
	sort.Strings(rows)
	return rows
}

func cellString(a arrow.Array, r int) string {
	if a.IsNull(r) {
		return "NULL"
	}
	switch a := a.(type) {
	case *array.Binary:
		return fmt.Sprintf("%q", a.Value(r))
	case *array.Decimal128:
		return a.Value(r).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(r)))
	}
	return a.ValueStr(r)
}

func TestFixtureIdentityPartitioning(t *testing.T) {
	cols := []ReadColumn{
		{FieldID: 1, Name: "col_bool", Type: arrow.FixedWidthTypes.Boolean},
		{FieldID: 2, Name: "col_int", Type: arrow.PrimitiveTypes.Int32},
		{FieldID: 3, Name: "col_long", Type: arrow.PrimitiveTypes.Int64},
		{FieldID: 4, Name: "col_float", Type: arrow.PrimitiveTypes.Float32},
		{FieldID: 5, Name: "col_double", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 6, Name: "col_decimal", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}},
		{FieldID: 7, Name: "col_date", Type: arrow.FixedWidthTypes.Date32},
		{FieldID: 8, Name: "col_time", Type: arrow.FixedWidthTypes.Time64us},
		{FieldID: 9, Name: "col_timestamp", Type: timestampType},
		{FieldID: 10, Name: "col_timestamptz", Type: timestampTzType},
		{FieldID: 11, Name: "col_string", Type: arrow.BinaryTypes.String},
		{FieldID: 12, Name: "col_uuid", Type: extensions.NewUUIDType()},
		{FieldID: 13, Name: "col_varbinary", Type: arrow.BinaryTypes.Binary},
	}
	got := rowStrings(t, "identity_partitioning", cols)
	want := []string{strings.Join([]string{"false", "1", "2", "2.25", "2.375", "3.00", "2025-03-03", "17:00:00.000000",
		fmt.Sprint(micros("2025-03-03 00:00:00")), fmt.Sprint(micros("2025-03-03 00:00:00")),
		"some-string", "12151fd2-7586-11e9-8f9e-2a86e4085a59", `"some-varbinary"`}, "|")}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Promotions: int read as long, float as double, decimal(9,2) as decimal(12,2).
	got = rowStrings(t, "identity_partitioning", []ReadColumn{
		{FieldID: 2, Name: "col_int", Type: arrow.PrimitiveTypes.Int64},
		{FieldID: 4, Name: "col_float", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 6, Name: "col_decimal", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}},
	})
	if len(got) != 1 || got[0] != "1|2.25|3.00" {
		t.Errorf("promoted: got %v", got)
	}
}

func TestFixtureStats(t *testing.T) {
	f := openFixture(t, fixtureFiles(t, "identity_partitioning")[0])
	checks := []struct {
		col      ReadColumn
		min, max any
	}{
		{ReadColumn{FieldID: 2, Name: "col_int", Type: arrow.PrimitiveTypes.Int32}, int32(1), int32(1)},
		{ReadColumn{FieldID: 2, Name: "col_int", Type: arrow.PrimitiveTypes.Int64}, int64(1), int64(1)},
		{ReadColumn{FieldID: 6, Name: "col_decimal", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}}, decimal128.FromI64(300), decimal128.FromI64(300)},
		{ReadColumn{FieldID: 7, Name: "col_date", Type: arrow.FixedWidthTypes.Date32}, days("2025-03-03"), days("2025-03-03")},
		{ReadColumn{FieldID: 10, Name: "col_timestamptz", Type: timestampTzType}, micros("2025-03-03 00:00:00"), micros("2025-03-03 00:00:00")},
		{ReadColumn{FieldID: 11, Name: "col_string", Type: arrow.BinaryTypes.String}, "some-string", "some-string"},
		{ReadColumn{FieldID: 5, Name: "col_double", Type: arrow.PrimitiveTypes.Float64}, 2.375, 2.375},
	}
	for _, c := range checks {
		mn, mx, nulls, ok := f.ColumnStats(0, c.col)
		if !ok || nulls != 0 || mn != c.min || mx != c.max {
			t.Errorf("%s: min %v (%T) max %v nulls %d ok %v", c.col.Name, mn, mn, mx, nulls, ok)
		}
	}
	if _, _, nulls, ok := f.ColumnStats(0, ReadColumn{FieldID: 99, Name: "added", Type: arrow.PrimitiveTypes.Int32}); ok || nulls != 1 {
		t.Errorf("missing column: nulls %d ok %v", nulls, ok)
	}
}

func TestFixtureTimestamptz(t *testing.T) {
	cols := []ReadColumn{
		{FieldID: 1, Name: "c1", Type: arrow.PrimitiveTypes.Int32},
		{FieldID: 2, Name: "c2", Type: timestampTzType},
		{FieldID: 3, Name: "c3", Type: arrow.PrimitiveTypes.Float64},
	}
	for _, table := range []string{"day_timestamptz_partitioning", "hour_timestamptz_partitioning", "month_timestamptz_partitioning"} {
		got := rowStrings(t, table, cols)
		want := []string{
			fmt.Sprintf("1|%d|0", micros("2025-03-03 23:00:00")),
			fmt.Sprintf("2|%d|0", micros("2024-03-03 23:52:00")),
			"3|NULL|0",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", table, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func TestFixtureNoPartitioningAndNulls(t *testing.T) {
	cols := []ReadColumn{
		{FieldID: 1, Name: "c1", Type: arrow.PrimitiveTypes.Int32},
		{FieldID: 2, Name: "c2", Type: arrow.FixedWidthTypes.Date32},
		{FieldID: 3, Name: "c3", Type: arrow.PrimitiveTypes.Float64},
	}
	got := rowStrings(t, "no_partitioning", cols)
	want := []string{"1|2025-03-02|-50", "1|2025-03-03|0", "1|2025-03-04|1.5", "1|2025-03-05|17", "2|2025-03-03|-1", "2|2025-03-04|42"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("no_partitioning: got\n%s", strings.Join(got, "\n"))
	}
	got = rowStrings(t, "partitioning_with_null_value", cols)
	want = []string{"1|NULL|-50", "2|2025-03-03|-1", "NULL|2025-03-03|0", "NULL|NULL|17"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("partitioning_with_null_value: got\n%s", strings.Join(got, "\n"))
	}
}

func TestFixtureAllSparkTypes(t *testing.T) {
	cols := []ReadColumn{
		{FieldID: 1, Name: "col0", Type: arrow.FixedWidthTypes.Boolean},
		{FieldID: 2, Name: "col1", Type: arrow.PrimitiveTypes.Int32},
		{FieldID: 3, Name: "col2", Type: arrow.PrimitiveTypes.Int64},
		{FieldID: 4, Name: "col3", Type: arrow.PrimitiveTypes.Float32},
		{FieldID: 5, Name: "col4", Type: arrow.PrimitiveTypes.Float64},
		{FieldID: 6, Name: "col5", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}},
		{FieldID: 7, Name: "col6", Type: arrow.BinaryTypes.String},
		{FieldID: 8, Name: "col7", Type: arrow.BinaryTypes.Binary},
		{FieldID: 9, Name: "col8", Type: arrow.FixedWidthTypes.Date32},
		{FieldID: 10, Name: "col9", Type: timestampTzType},
		{FieldID: 11, Name: "col10", Type: timestampType},
	}
	// The table has no create.sql: one row of each type's extreme or sample value.
	got := rowStrings(t, "all_spark_types", cols)
	want := fmt.Sprintf(`true|2147483647|9223372036854775807|3.4028235e+38|1.7976931348623157e+308|12345.67|example|"spark"|2023-10-10|%[1]d|%[1]d`,
		micros("2023-10-10 12:34:56"))
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	// col11 is array<string>: element field id 13.
	list := arrow.ListOfField(WithFieldID(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}, 13))
	got = rowStrings(t, "all_spark_types", []ReadColumn{{FieldID: 12, Name: "col11", Type: list}, {FieldID: 2, Name: "col1", Type: arrow.PrimitiveTypes.Int32}})
	if want := `["item1","item2"]|2147483647`; len(got) != 1 || got[0] != want {
		t.Errorf("col11: got %v, want %s", got, want)
	}
	path := fixtureFiles(t, "all_spark_types")[0]
	f := openFixture(t, path)
	_, err := f.ReadRowGroup(context.Background(), 0, []ReadColumn{{FieldID: 12, Name: "col11", Type: arrow.BinaryTypes.String}}, 10, memory.NewGoAllocator())
	if err == nil || !strings.Contains(err.Error(), "cannot read parquet column col11 as utf8") || !strings.Contains(err.Error(), path) {
		t.Errorf("list read as a string: err = %v", err)
	}
}
