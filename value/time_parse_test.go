package value

import (
	"strings"
	"testing"
	"time"
)

func TestTimeParser(t *testing.T) {
	for _, tc := range []struct {
		dialect, pattern, text string
		want                   string // RFC 3339 in UTC, or "error: …"
	}{
		{FormatStrftime, "%Y-%m-%d %H:%M:%S.%f", "2024-02-29 13:45:30.5", "2024-02-29T13:45:30.5Z"},
		{FormatStrftime, "%d %b %Y", "\t1 mar 1969 ", "1969-03-01T00:00:00Z"},
		{FormatStrftime, "%a, %d %B %Y %I %p", "Sun, 31 December 2000 12 PM", "2000-12-31T12:00:00Z"},
		{FormatStrftime, "%H:%M %z", "10:00 -0130", "1900-01-01T11:30:00Z"},
		{FormatStrftime, "%Y%m%d", "20240229", "2024-02-29T00:00:00Z"},
		{FormatStrftime, "%Y-%m-%d", "2023-02-29", "error: there is no day 2023-02-29"},
		{FormatStrftime, "%Y %p", "2020 XM", "error: expected AM or PM at character 6"},
		{FormatStrftime, "%z", "+2", "error: expected a UTC offset"},
		{FormatSpark, "yyyy-MM-dd'T'HH:mm:ss.SSS", "2024-02-29T01:02:03.004", "2024-02-29T01:02:03.004Z"},
		{FormatSpark, "dd/MM/yy", "31/12/99", "2099-12-31T00:00:00Z"},
		{FormatSpark, "EEE MMM d yyyy", "Thu Feb 29 2024", "2024-02-29T00:00:00Z"},
	} {
		tp, err := CompileTimeParser(tc.dialect, tc.pattern)
		if err != nil {
			t.Fatalf("%s %q: %v", tc.dialect, tc.pattern, err)
		}
		micros, err := tp.Parse([]byte(tc.text))
		got := time.UnixMicro(micros).UTC().Format(time.RFC3339Nano)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && strings.Contains(got, tc.want[7:])) {
			t.Errorf("%s %q of %q: got %s, want %s", tc.dialect, tc.pattern, tc.text, got, tc.want)
		}
	}
}

func TestCompileTimeParserErrors(t *testing.T) {
	for _, tc := range []struct{ dialect, pattern, want string }{
		{FormatStrftime, "%Y-%Q", "unknown conversion %Q"},
		{FormatStrftime, "%", "it ends in %"},
		{FormatSpark, "yyyy QQ", "quarter cannot be parsed"},
		{FormatSpark, "yyyy G", "unsupported pattern letter G"},
		{FormatPostgres, "YYYY", "unknown time format dialect"},
	} {
		_, err := CompileTimeParser(tc.dialect, tc.pattern)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: got %v, want %q", tc.dialect, tc.pattern, err, tc.want)
		}
	}
}
