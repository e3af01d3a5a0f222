package value

import (
	"fmt"
	"strings"
	"time"

	"github.com/lestrrat-go/strftime"
)

// Time formatting patterns of the three dialects users bring: DuckDB's
// strftime (C's %Y-%m-%d, plus %f microseconds and %g milliseconds), Spark's
// date_format (Java's yyyy-MM-dd HH:mm:ss) and PostgreSQL's to_char
// (YYYY-MM-DD HH24:MI:SS). The last two are translated into the first, so
// one well-kept strftime library formats them all; what C's conversions
// lack (fractions of a second to n digits, quarters, padded or upper-case
// names) becomes a custom conversion of that library.

// TimeFormat is a compiled pattern. Times are formatted as wall-clock
// times: the zone, if any, was applied before (time zones have no pattern
// letter here).
type TimeFormat struct{ f *strftime.Strftime }

// AppendFormat appends t formatted to dst.
func (tf *TimeFormat) AppendFormat(dst []byte, t time.Time) []byte { return tf.f.FormatBuffer(dst, t) }

// The dialects of CompileTimeFormat.
const (
	FormatStrftime = "strftime"
	FormatSpark    = "spark"
	FormatPostgres = "postgres"
	// FormatMySQL is MySQL's DATE_FORMAT pattern ('%Y-%m-%d %H:%i'), which
	// Trino's date_format and date_parse take too (MySQLPattern).
	FormatMySQL = "mysql"
)

// CompileTimeFormat compiles pattern in dialect.
func CompileTimeFormat(dialect, pattern string) (*TimeFormat, error) {
	b := &formatBuilder{customs: map[string]byte{}}
	var err error
	switch dialect {
	case FormatStrftime:
		b.pattern.WriteString(pattern)
		b.custom("micros", fractionDigits(6), 'f')
		b.custom("millis", fractionDigits(3), 'g')
	case FormatSpark:
		err = b.spark(pattern)
	case FormatPostgres:
		b.postgres(pattern)
	case FormatMySQL:
		var p string
		if p, _, err = MySQLPattern(pattern); err == nil {
			b.pattern.WriteString(p)
			b.custom("micros", fractionDigits(6), 'f')
		}
	default:
		return nil, fmt.Errorf("unknown time format dialect %s", dialect)
	}
	if err != nil {
		return nil, err
	}
	f, err := strftime.New(b.pattern.String(), b.options...)
	if err != nil {
		return nil, fmt.Errorf("invalid format %q: %s", pattern, strftimeError(err))
	}
	return &TimeFormat{f: f}, nil
}

// strftimeError shortens the library's error to what the user needs: the
// conversion it does not know, or its last clause.
func strftimeError(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "'%"); i >= 0 && i+3 <= len(msg) {
		return "unknown conversion " + msg[i+1:i+3]
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}

// formatBuilder collects a strftime pattern and the custom conversions it
// uses, each on a byte C's conversions leave free.
type formatBuilder struct {
	pattern strings.Builder
	options []strftime.Option
	customs map[string]byte
}

// freeBytes are conversion characters strftime does not define.
const freeBytes = "0123456789EJKLNOPQiqs"

func (b *formatBuilder) verbatim(s string) {
	b.pattern.WriteString(strings.ReplaceAll(s, "%", "%%"))
}

func (b *formatBuilder) spec(s string) { b.pattern.WriteString(s) }

// custom registers the conversion a under name (once) and returns its
// character; on is the character to use, or 0 for the next free one.
func (b *formatBuilder) custom(name string, a strftime.Appender, on byte) byte {
	if c, ok := b.customs[name]; ok {
		return c
	}
	if on == 0 {
		if len(b.customs) >= len(freeBytes) {
			return 0
		}
		on = freeBytes[len(b.customs)]
	}
	b.customs[name] = on
	b.options = append(b.options, strftime.WithSpecification(on, a))
	return on
}

func (b *formatBuilder) customSpec(name string, a strftime.Appender) error {
	c := b.custom(name, a, 0)
	if c == 0 {
		return fmt.Errorf("format pattern uses too many kinds of fields")
	}
	b.pattern.WriteByte('%')
	b.pattern.WriteByte(c)
	return nil
}

// fractionDigits appends the first n digits of the fraction of a second.
func fractionDigits(n int) strftime.Appender {
	return strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
		s := fmt.Sprintf("%09d", t.Nanosecond())
		return append(dst, s[:n]...)
	})
}

var quarter = strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
	return append(dst, byte('1'+(t.Month()-1)/3))
})

// spark translates a Java DateTimeFormatter pattern, as Spark's
// date_format reads it: runs of a letter are fields, 'quoted' text and any
// other character are literal.
func (b *formatBuilder) spark(p string) error {
	for i := 0; i < len(p); {
		c := p[i]
		if c == '\'' {
			n, err := b.sparkQuoted(p, i)
			if err != nil {
				return err
			}
			i += n
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.verbatim(string(c))
			i++
			continue
		}
		n := 1
		for i+n < len(p) && p[i+n] == c {
			n++
		}
		if err := b.sparkField(p, c, n); err != nil {
			return err
		}
		i += n
	}
	return nil
}

// sparkQuoted takes the quoted text at p[i]: ” alone is a quote, and so
// is ” inside quoted text ('o”clock').
func (b *formatBuilder) sparkQuoted(p string, i int) (int, error) {
	if strings.HasPrefix(p[i:], "''") {
		b.verbatim("'")
		return 2, nil
	}
	var text strings.Builder
	for j := i + 1; j < len(p); j++ {
		switch {
		case p[j] != '\'':
			text.WriteByte(p[j])
		case j+1 < len(p) && p[j+1] == '\'':
			text.WriteByte('\'')
			j++
		default:
			b.verbatim(text.String())
			return j + 1 - i, nil
		}
	}
	return 0, fmt.Errorf("invalid format %q: unclosed quote", p)
}

func (b *formatBuilder) sparkField(p string, c byte, n int) error {
	padded := func(short, long string) {
		if n == 1 {
			b.spec(short)
		} else {
			b.spec(long)
		}
	}
	switch c {
	case 'y', 'u':
		if n == 2 {
			b.spec("%y")
		} else {
			b.spec("%Y")
		}
	case 'M', 'L':
		switch {
		case n <= 2:
			padded("%-m", "%m")
		case n == 3:
			b.spec("%b")
		default:
			b.spec("%B")
		}
	case 'd':
		padded("%-d", "%d")
	case 'D':
		if n < 3 {
			b.spec("%-j")
		} else {
			b.spec("%j")
		}
	case 'H':
		padded("%-H", "%H")
	case 'h':
		padded("%-I", "%I")
	case 'm':
		padded("%-M", "%M")
	case 's':
		padded("%-S", "%S")
	case 'S':
		if n > 9 {
			return fmt.Errorf("invalid format %q: at most 9 S", p)
		}
		return b.customSpec(fractionSpecName(n), fractionDigits(n))
	case 'E':
		if n <= 3 {
			b.spec("%a")
		} else {
			b.spec("%A")
		}
	case 'a':
		b.spec("%p")
	case 'Q', 'q':
		return b.customSpec("quarter", quarter)
	default:
		return fmt.Errorf("invalid format %q: unsupported pattern letter %c (supported: y M d D H h m s S E a Q and 'text')", p, c)
	}
	return nil
}

// postgresFields are to_char's template patterns, longest first so that
// HH24 is not read as HH followed by 24. FM (fill mode) before a field
// drops its padding.
var postgresFields = []string{
	"HH24", "HH12", "YYYY", "MONTH", "Month", "month", "HH", "MI", "SS", "MS", "US",
	"YYY", "YY", "MON", "Mon", "mon", "MM", "DAY", "Day", "day", "DDD", "DY", "Dy", "dy",
	"DD", "AM", "PM", "am", "pm", "D", "Q",
}

// postgres translates a to_char template; "double-quoted" text and
// anything that is no template pattern are literal.
func (b *formatBuilder) postgres(p string) {
	for i := 0; i < len(p); {
		if p[i] == '"' {
			end := strings.IndexByte(p[i+1:], '"')
			if end < 0 {
				end = len(p) - i - 1
			}
			b.verbatim(p[i+1 : i+1+end])
			i += end + 2
			continue
		}
		fill := strings.HasPrefix(p[i:], "FM")
		j := i
		if fill {
			j += 2
		}
		field := ""
		for _, f := range postgresFields {
			if strings.HasPrefix(p[j:], f) {
				field = f
				break
			}
		}
		if field == "" {
			b.verbatim(p[i : i+1])
			i++
			continue
		}
		b.postgresField(field, fill)
		i = j + len(field)
	}
}

func (b *formatBuilder) postgresField(f string, fill bool) {
	num := func(spec string) {
		if fill {
			spec = "%-" + spec[1:]
		}
		b.spec(spec)
	}
	switch f {
	case "YYYY":
		b.spec("%Y")
	case "YYY":
		_ = b.customSpec("year3", lastYearDigits(3))
	case "YY":
		b.spec("%y")
	case "MM":
		num("%m")
	case "DD":
		num("%d")
	case "DDD":
		num("%j")
	case "D":
		_ = b.customSpec("dow1", strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
			return append(dst, byte('1'+t.Weekday()))
		}))
	case "HH", "HH12":
		num("%I")
	case "HH24":
		num("%H")
	case "MI":
		num("%M")
	case "SS":
		num("%S")
	case "MS":
		_ = b.customSpec("frac3", fractionDigits(3))
	case "US":
		_ = b.customSpec("frac6", fractionDigits(6))
	case "AM", "PM":
		b.spec("%p")
	case "am", "pm":
		_ = b.customSpec("ampm-lower", strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
			if t.Hour() < 12 {
				return append(dst, "am"...)
			}
			return append(dst, "pm"...)
		}))
	case "Q":
		_ = b.customSpec("quarter", quarter)
	default: // month and day names, as written: MONTH, Month, month, MON, …
		_ = b.customSpec(f+fmt.Sprint(fill), nameField(f, fill))
	}
}

func lastYearDigits(n int) strftime.Appender {
	return strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
		s := fmt.Sprintf("%04d", t.Year())
		return append(dst, s[len(s)-n:]...)
	})
}

// nameField is a month or day name in the case the pattern is written in;
// full names are blank-padded to 9 characters unless in fill mode.
func nameField(f string, fill bool) strftime.Appender {
	upper := strings.ToUpper(f)
	month := strings.HasPrefix(upper, "MON")
	full := upper == "MONTH" || upper == "DAY"
	return strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
		name := t.Weekday().String()
		if month {
			name = t.Month().String()
		}
		if !full {
			name = name[:3]
		}
		switch {
		case f == upper:
			name = strings.ToUpper(name)
		case f == strings.ToLower(f):
			name = strings.ToLower(name)
		}
		if full && !fill {
			name = fmt.Sprintf("%-9s", name)
		}
		return append(dst, name...)
	})
}

// fractionSpecPrefix starts the name of the builder's conversion for a
// fraction of n digits (S…S), which the parser (time_parse.go) reads as a
// fraction of any width.
const fractionSpecPrefix = "frac"

func fractionSpecName(n int) string { return fmt.Sprintf("%s%d", fractionSpecPrefix, n) }
