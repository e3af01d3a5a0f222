package value

import "testing"

func TestRoundDecimalText(t *testing.T) {
	cases := []struct {
		in       string
		frac     int
		halfEven bool
		want     string
	}{
		{"2.5", 0, true, "2"},
		{"3.5", 0, true, "4"},
		{"2.5", 0, false, "3"},
		{"2.675", 2, true, "2.68"},
		{"2.665", 2, true, "2.66"},
		{"2.6651", 2, true, "2.67"},
		{"0.125", 2, true, "0.12"},
		{"0.5", 0, true, "0"},
		{"9.5", 0, true, "10"},
		{"999.96", 1, true, "1000.0"},
		{"1234", -2, true, "1200"},
		{"1250", -2, true, "1200"},
		{"1350", -2, true, "1400"},
		{"9.5", -1, true, "10"},
		{"0.004", -3, true, "0"},
		{"12", 3, true, "12.000"},
		{"1.5", 4, true, "1.5000"},
		{"0", 2, true, "0.00"},
		{"007.25", 1, true, "7.2"},
	}
	for _, c := range cases {
		if got := RoundDecimalText(c.in, c.frac, c.halfEven); got != c.want {
			t.Errorf("RoundDecimalText(%q, %d, %v) = %q; want %q", c.in, c.frac, c.halfEven, got, c.want)
		}
	}
}

func TestGroupThousands(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "999": "999", "1000": "1,000", "-1234567.891": "-1,234,567.891", "123456": "123,456", "12.5": "12.5",
	} {
		if got := GroupThousands(in); got != want {
			t.Errorf("GroupThousands(%q) = %q; want %q", in, got, want)
		}
	}
}
