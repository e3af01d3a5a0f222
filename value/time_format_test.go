package value

import (
	"strings"
	"testing"
	"time"
)

func TestCompileTimeFormat(t *testing.T) {
	at := time.Date(2024, 3, 5, 17, 8, 9, 123456000, time.UTC)
	morning := time.Date(2024, 11, 30, 7, 0, 5, 0, time.UTC)
	cases := []struct {
		dialect, pattern string
		t                time.Time
		want             string
	}{
		{FormatSpark, "yyyy-MM-dd HH:mm:ss", at, "2024-03-05 17:08:09"},
		{FormatSpark, "yy/M/d h:m:s a", morning, "24/11/30 7:0:5 AM"},
		{FormatSpark, "EEEE, MMMM d, yyyy", at, "Tuesday, March 5, 2024"},
		{FormatSpark, "EEE MMM dd", at, "Tue Mar 05"},
		{FormatSpark, "HH:mm:ss.SSS|S|SSSSSS|SSSSSSSSS", at, "17:08:09.123|1|123456|123456000"},
		{FormatSpark, "yyyy'T'HH 'o''clock' '' Q DDD D", at, "2024T17 o'clock ' 1 065 65"},
		{FormatSpark, "yyyy%MM%%", at, "2024%03%%"},
		{FormatStrftime, "%Y-%m-%d %H:%M:%S.%f %g", at, "2024-03-05 17:08:09.123456 123"},
		{FormatStrftime, "%-m/%-d/%y %I %p %a %b %j", morning, "11/30/24 07 AM Sat Nov 335"},
		{FormatPostgres, "YYYY-MM-DD HH24:MI:SS.MS", at, "2024-03-05 17:08:09.123"},
		{FormatPostgres, "HH12:MI AM, Q, US", at, "05:08 PM, 1, 123456"},
		{FormatPostgres, "Day|DAY|day|FMDay|Dy|DY|dy", at, "Tuesday  |TUESDAY  |tuesday  |Tuesday|Tue|TUE|tue"},
		{FormatPostgres, "Month|MONTH|FMMonth|Mon|MON|mon", at, "March    |MARCH    |March|Mar|MAR|mar"},
		{FormatPostgres, `FMMM/FMDD "of" YYYY, D, DDD, YY, YYY`, morning, "11/30 of 2024, 7, 335, 24, 024"},
		{FormatPostgres, "am pm %", morning, "am am %"},
	}
	for _, c := range cases {
		tf, err := CompileTimeFormat(c.dialect, c.pattern)
		if err != nil {
			t.Errorf("%s %q: %v", c.dialect, c.pattern, err)
			continue
		}
		if got := string(tf.AppendFormat(nil, c.t)); got != c.want {
			t.Errorf("%s %q = %q, want %q", c.dialect, c.pattern, got, c.want)
		}
	}
}

func TestCompileTimeFormatErrors(t *testing.T) {
	cases := []struct{ dialect, pattern, want string }{
		{FormatSpark, "yyyy-ww", "unsupported pattern letter w"},
		{FormatSpark, "yyyy'T", "unclosed quote"},
		{FormatSpark, "SSSSSSSSSS", "at most 9 S"},
		{FormatStrftime, "%Y %Q", "unknown conversion %Q"},
		{FormatStrftime, "%Y %", "stray % at the end of pattern"},
	}
	for _, c := range cases {
		_, err := CompileTimeFormat(c.dialect, c.pattern)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %q: error %v, want one line containing %q", c.dialect, c.pattern, err, c.want)
		}
	}
}
