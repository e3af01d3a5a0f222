package value

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestParseAndFormat(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		tz   bool
	}{
		{"1970-01-01", 0, false},
		{"1969-12-31 23:59:59.999999", -1, false},
		{"1900-03-01 00:00:00", -2203891200000000, false},
		{"2000-01-01 00:00:00.123456789", 946684800123456, false},
		{"2000-01-01 01:00:00-01:00", 946692000000000, true},
		{"2000-01-01 00:00:00 UTC", 946684800000000, true},
		{"0001-01-01", -62135596800000000, false},
	} {
		parse := ParseTimestamp
		if c.tz {
			parse = ParseTimestampTZ
		}
		got, err := parse(c.in)
		if err != nil || got != c.want {
			t.Errorf("parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "2024-13-01", "2024-01-32", "2024-01-01 24:00", "2024-01-01x", "2024-1-1 1:2"} {
		if _, err := ParseTimestamp(bad); err == nil {
			t.Errorf("ParseTimestamp(%q) succeeded", bad)
		}
	}
	if d, err := ParseDate("1969-12-31"); err != nil || d != -1 {
		t.Errorf("ParseDate = %d, %v", d, err)
	}
	for _, c := range []struct {
		f    float64
		want string
	}{
		{100, "100.0"}, {0.1, "0.1"}, {1e15, "1000000000000000.0"}, {1e16, "1e+16"},
		{0.0001, "0.0001"}, {0.00001, "1e-05"}, {-2.5, "-2.5"}, {123456.789, "123456.789"},
	} {
		if got := string(AppendFloat(nil, c.f, 64)); got != c.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", c.f, got, c.want)
		}
	}
	for _, c := range []struct {
		in         string
		prec, sc   int32
		want       string
		shouldFail bool
	}{
		{"1.005", 5, 2, "1.01", false}, {"-1.005", 5, 2, "-1.01", false}, {"1e2", 5, 1, "100.0", false},
		{"12345", 4, 0, "", true}, {"1.2.3", 5, 1, "", true}, {".5", 3, 1, "0.5", false},
	} {
		n, err := ParseDecimal(c.in, c.prec, c.sc)
		if (err != nil) != c.shouldFail || (err == nil && n.ToString(c.sc) != c.want) {
			t.Errorf("ParseDecimal(%q) = %s, %v", c.in, n.ToString(c.sc), err)
		}
	}
	u := []byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}
	s := string(AppendUUID(nil, u))
	if s != "12345678-9abc-def0-0123-456789abcdef" {
		t.Errorf("appendUUID = %s", s)
	}
	if back, err := ParseUUID(s); err != nil || string(back[:]) != string(u) {
		t.Errorf("ParseUUID(%s) = %x, %v", s, back, err)
	}
}

func TestFormatTemporal(t *testing.T) {
	for _, c := range []struct {
		micros int64
		want   string
	}{
		{0, "1970-01-01 00:00:00"},
		{-1, "1969-12-31 23:59:59.999999"},
		{1704067200250000, "2024-01-01 00:00:00.25"},
	} {
		if got := FormatTimestamp(c.micros); got != c.want {
			t.Errorf("FormatTimestamp(%d) = %s, want %s", c.micros, got, c.want)
		}
	}
	if got := string(AppendTimestamp(nil, 0, true)); got != "1970-01-01 00:00:00+00" {
		t.Errorf("AppendTimestamp(tz) = %s", got)
	}
	if got := FormatDate(-1); got != "1969-12-31" {
		t.Errorf("FormatDate(-1) = %s", got)
	}
	if tod, err := ParseTime("13:45:00.25"); err != nil || FormatScalar(tod, arrow.FixedWidthTypes.Time64us) != "13:45:00.25" {
		t.Errorf("ParseTime = %d, %v", tod, err)
	}
}
