package planner

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// A string converted to TIMESTAMP or TIMESTAMPTZ at plan time may carry an
// offset: a TIMESTAMPTZ is the instant it names, a TIMESTAMP the wall clock
// written, without the offset (DuckDB 1.5, PostgreSQL).
func TestConvertTimestampText(t *testing.T) {
	const want = int64(1768464000000000) // 2026-01-15 08:00:00 UTC
	if v, err := ConvertLiteral("2026-01-15 08:00:00+02:00", TypeVarchar, TypeTimestamp); err != nil || v != want {
		t.Errorf("ConvertLiteral to TIMESTAMP = %v, %v; want %d", v, err, want)
	}
	for _, to := range []arrow.DataType{TypeTimestamp, TypeTimestampTZ} {
		texts := []string{"2026-01-15T08:00:00Z", "2026-01-15 08:00"}
		if to == TypeTimestampTZ {
			texts = append(texts, "2026-01-15 10:00:00+02:00")
		}
		for _, text := range texts {
			if v, err := ConvertLiteral(text, TypeVarchar, to); err != nil || v != want {
				t.Errorf("ConvertLiteral(%q, %s) = %v, %v; want %d", text, TypeString(to), v, err, want)
			}
		}
		if _, err := ConvertLiteral("2026-01-15 08:00 PST", TypeVarchar, to); err == nil {
			t.Errorf("ConvertLiteral(PST, %s) succeeded", TypeString(to))
		}
	}
}

// Hive partition values are DATE only in the YYYY-MM-DD form.
func TestHiveDateType(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		values []*string
		want   arrow.DataType
	}{
		{[]*string{str("2024-03-22"), nil}, TypeDate},
		{[]*string{str("2024-03-22"), str("2024-3-22")}, TypeVarchar},
		{[]*string{str("202403-1-2")}, TypeVarchar},
		{[]*string{str("2024"), nil}, TypeBigint},
	} {
		if got, _ := hiveType(c.values); !arrow.TypeEqual(got, c.want) {
			t.Errorf("hiveType(%v) = %s, want %s", c.values, TypeString(got), TypeString(c.want))
		}
	}
}
