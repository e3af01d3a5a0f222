package value

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Every text form reads back as the value it was printed from.

func TestDateRoundTrip(t *testing.T) {
	for _, days := range []int32{0, -1, 1, -25509, -719162, 19753, 2932896, -100000} {
		text := FormatDate(days)
		got, err := ParseDate(text)
		if err != nil || got != days {
			t.Errorf("ParseDate(%q) = %d, %v; want %d", text, got, err, days)
		}
	}
	if d, err := ParseDate(" 1969-7-20 "); err != nil || FormatDate(d) != "1969-07-20" {
		t.Errorf("ParseDate(1969-7-20) = %d, %v", d, err)
	}
}

func TestTimestampRoundTrip(t *testing.T) {
	for _, v := range []int64{0, -1, 1, 1706708700250000, -62135596800000000, -1000000, 253402300799999999} {
		text := FormatTimestamp(v)
		got, err := ParseTimestamp(text)
		if err != nil || got != v {
			t.Errorf("ParseTimestamp(%q) = %d, %v; want %d", text, got, err, v)
		}
		tz := string(AppendTimestamp(nil, v, true))
		if got, err := ParseTimestampTZ(tz); err != nil || got != v {
			t.Errorf("ParseTimestampTZ(%q) = %d, %v; want %d", tz, got, err, v)
		}
	}
	// A TIMESTAMP read from text with an offset is the wall clock written,
	// in literals and in CAST alike (DuckDB 1.5, PostgreSQL).
	if got, err := ParseTimestamp("2026-01-15 10:00:00+02:00"); err != nil || FormatTimestamp(got) != "2026-01-15 10:00:00" {
		t.Errorf("ParseTimestamp with offset = %s, %v", FormatTimestamp(got), err)
	}
}

func TestTimestampInZoneRoundTrip(t *testing.T) {
	for _, name := range []string{"America/New_York", "Asia/Kolkata", "+05:30", "-03", "UTC"} {
		loc, err := LoadZone(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []int64{0, -1, 1719835200000000, -2208988800000000} {
			text := string(AppendTimestampIn(nil, v, loc))
			if got, err := ParseTimestampTZIn(text, loc); err != nil || got != v {
				t.Errorf("%s: ParseTimestampTZIn(%q) = %d, %v; want %d", name, text, got, err, v)
			}
			// The offset in the text makes the zone of the reader irrelevant.
			if got, err := ParseTimestampTZ(text); err != nil || got != v {
				t.Errorf("%s: ParseTimestampTZ(%q) = %d, %v; want %d", name, text, got, err, v)
			}
		}
	}
}

func TestTimeRoundTrip(t *testing.T) {
	for _, v := range []int64{0, 1, 49500250000, 86399999999} {
		text := FormatScalar(v, arrow.FixedWidthTypes.Time64us)
		if got, err := ParseTime(text); err != nil || got != v {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", text, got, err, v)
		}
	}
}

func TestIntervalRoundTrip(t *testing.T) {
	for _, iv := range []arrow.MonthDayNanoInterval{
		{},
		{Months: 14, Days: 3, Nanoseconds: 14706500000000},
		{Months: -1, Days: -1, Nanoseconds: -1000},
		{Months: 1},
		{Days: 1},
		{Nanoseconds: 1},
		{Nanoseconds: 100 * 3600e9},
		{Months: math.MaxInt32, Days: math.MinInt32, Nanoseconds: math.MaxInt64},
		{Nanoseconds: math.MinInt64 + 1},
	} {
		text := string(AppendInterval(nil, iv))
		got, err := ParseInterval(text)
		if err != nil || got != iv {
			t.Errorf("ParseInterval(%q) = %+v, %v; want %+v", text, got, err, iv)
		}
	}
	if got, err := ParseInterval("2 hours 30 minutes"); err != nil || got != (arrow.MonthDayNanoInterval{Nanoseconds: 9000e9}) {
		t.Errorf("ParseInterval(2 hours 30 minutes) = %+v, %v", got, err)
	}
}

func TestFloatRoundTrip(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e20, 1e-5, 1.0 / 3, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1)} {
		text := string(AppendFloat(nil, f, 64))
		got, err := ParseFloat(text, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("ParseFloat(%q) = %v, %v; want %v", text, got, err, f)
		}
	}
	if got, err := ParseFloat(string(AppendFloat(nil, math.NaN(), 64)), 64); err != nil || !math.IsNaN(got) {
		t.Errorf("ParseFloat(nan) = %v, %v", got, err)
	}
	f32 := float32(0.1)
	if got, err := ParseFloat(string(AppendFloat(nil, float64(f32), 32)), 32); err != nil || float32(got) != f32 {
		t.Errorf("ParseFloat(float32 0.1) = %v, %v", got, err)
	}
	if _, err := ParseFloat("1e999", 64); err == nil {
		t.Error("ParseFloat(1e999) should be out of range")
	}
}

func TestDecimalRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v           int64
		prec, scale int32
	}{{0, 9, 3}, {-5, 9, 1}, {-12345, 9, 3}, {12345, 5, 0}, {-1, 38, 37}} {
		n := decimal128.FromI64(c.v)
		text := n.ToString(c.scale)
		got, err := ParseDecimal(text, c.prec, c.scale)
		if err != nil || got != n {
			t.Errorf("ParseDecimal(%q, %d, %d) = %s, %v; want %d", text, c.prec, c.scale, got.ToString(c.scale), err, c.v)
		}
	}
	// Rounding half away from zero, for negative numbers too.
	if got, err := ParseDecimal("-1.25", 5, 1); err != nil || got.ToString(1) != "-1.3" {
		t.Errorf("ParseDecimal(-1.25, 5, 1) = %s, %v; want -1.3", got.ToString(1), err)
	}
	if _, err := ParseDecimal("123.4", 3, 1); err == nil {
		t.Error("ParseDecimal(123.4, 3, 1) should not fit")
	}
}

func TestIntBoolUUIDRoundTrip(t *testing.T) {
	for _, v := range []int64{0, -1, math.MaxInt64, math.MinInt64} {
		text := FormatScalar(v, arrow.PrimitiveTypes.Int64)
		if got, err := ParseInt(text, 64); err != nil || got != v {
			t.Errorf("ParseInt(%q) = %d, %v", text, got, err)
		}
	}
	if _, err := ParseInt("128", 8); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseInt(128, 8) = %v, want out of range", err)
	}
	for _, b := range []bool{true, false} {
		text := FormatScalar(b, arrow.FixedWidthTypes.Boolean)
		if got, err := ParseBool(text); err != nil || got != b {
			t.Errorf("ParseBool(%q) = %v, %v", text, got, err)
		}
	}
	u := []byte{0xf8, 0x1d, 0x4f, 0xae, 0x7d, 0xec, 0x11, 0xd0, 0xa7, 0x65, 0x00, 0xa0, 0xc9, 0x1e, 0x6b, 0xf6}
	text := string(AppendUUID(nil, u))
	if got, err := ParseUUID(text); err != nil || string(got[:]) != string(u) {
		t.Errorf("ParseUUID(%q) = %x, %v", text, got, err)
	}
}

// TestParseErrors checks that bad text gives one line naming the text.
func TestParseErrors(t *testing.T) {
	errs := map[string]error{}
	_, errs["date"] = ParseDate("2024-02-30")
	_, errs["timestamp"] = ParseTimestamp("2024-01-01 25:00")
	_, errs["timestamptz"] = ParseTimestampTZ("2024-01-01 10:00 +99")
	_, errs["time"] = ParseTime("12")
	_, errs["interval"] = ParseInterval("3 fortnights")
	_, errs["interval time"] = ParseInterval("1:2")
	_, errs["float"] = ParseFloat("one", 64)
	_, errs["int"] = ParseInt("1.5", 32)
	_, errs["decimal"] = ParseDecimal("1..2", 9, 2)
	_, errs["bool"] = ParseBool("maybe")
	_, errs["uuid"] = ParseUUID("xyz")
	_, errs["zone"] = LoadZone("Mars/Olympus")
	for what, err := range errs {
		if err == nil {
			t.Errorf("%s: bad text accepted", what)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error has several lines: %q", what, err)
		}
	}
}

func TestLoadZone(t *testing.T) {
	for name, want := range map[string]string{"UTC": "UTC", "gmt": "UTC", "+00:00": "UTC", "+05:30": "+05:30", "-03": "-03:00", "Europe/Berlin": "Europe/Berlin"} {
		loc, err := LoadZone(name)
		if err != nil || loc.String() != want {
			t.Errorf("LoadZone(%q) = %v, %v; want %s", name, loc, err, want)
		}
	}
	if !IsUTC(nil) || !IsUTC(time.UTC) {
		t.Error("nil and time.UTC are UTC")
	}
}
