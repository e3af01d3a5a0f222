package value

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lestrrat-go/strftime"
)

// MySQL's DATE_FORMAT and TIME_FORMAT patterns ('%Y-%m-%d %H:%i') share
// one table of conversions: DATE_FORMAT becomes the strftime pattern the
// table spells, and TIME_FORMAT formats a signed time of up to 838 hours
// with the same strftime conversions, some of them redefined for times.

// mysqlTimeRole is what a conversion prints in TIME_FORMAT, whose value has
// no date: MySQL reads it as hours, minutes and seconds in year 0, month 0,
// day 0.
type mysqlTimeRole uint8

const (
	ofTimeOfDay  mysqlTimeRole = iota // as for the time of day (minutes, seconds, 12-hour clock)
	ofTotalHours                      // %H, %k, %T: every hour, past 23 too
	ofZeroDate                        // %Y, %m, %d …: the zeros of year 0, month 0, day 0
	ofNoValue                         // names and day numbers of the date: the result is NULL
)

// mysqlConversion is one MySQL conversion: the strftime conversion it
// becomes (the '-' flag drops padding), and its role in TIME_FORMAT.
type mysqlConversion struct {
	strftime string
	time     mysqlTimeRole
}

// mysqlConversions are the MySQL conversions lakesql formats. Those without
// a strftime equivalent (%D: a day with its English suffix; %U %u %V %v %X
// %x: week numberings) are refused rather than formatted differently.
var mysqlConversions = map[byte]mysqlConversion{
	'a': {"%a", ofNoValue}, 'b': {"%b", ofNoValue}, 'c': {"%-m", ofZeroDate}, 'd': {"%d", ofZeroDate},
	'e': {"%-d", ofZeroDate}, 'f': {"%f", ofTimeOfDay}, 'H': {"%H", ofTotalHours}, 'h': {"%I", ofTimeOfDay},
	'I': {"%I", ofTimeOfDay}, 'i': {"%M", ofTimeOfDay}, 'j': {"%j", ofNoValue}, 'k': {"%-H", ofTotalHours},
	'l': {"%-I", ofTimeOfDay}, 'M': {"%B", ofNoValue}, 'm': {"%m", ofZeroDate}, 'p': {"%p", ofTimeOfDay},
	'r': {"%r", ofTimeOfDay}, 'S': {"%S", ofTimeOfDay}, 's': {"%S", ofTimeOfDay}, 'T': {"%T", ofTotalHours},
	'W': {"%A", ofNoValue}, 'w': {"%w", ofNoValue}, 'Y': {"%Y", ofZeroDate}, 'y': {"%y", ofZeroDate},
	'%': {"%%", ofTimeOfDay},
}

// mysqlSupported lists mysqlConversions for errors.
const mysqlSupported = "%Y %y %m %c %M %b %d %e %j %H %k %h %I %l %i %S %s %f %p %r %T %W %a %w %%"

// MySQLPattern translates a MySQL DATE_FORMAT pattern into a strftime one
// (CompileTimeFormat's FormatStrftime). It also reports whether the
// pattern has a conversion of the date that a time has not, which makes
// TIME_FORMAT's result NULL.
func MySQLPattern(pattern string) (strftimePattern string, needsDate bool, err error) {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(pattern) {
			b.WriteString("%%") // a trailing % is itself
			break
		}
		i++
		conv, ok := mysqlConversions[pattern[i]]
		if !ok {
			return "", false, fmt.Errorf("conversion %%%c is not supported (supported: %s)", pattern[i], mysqlSupported)
		}
		b.WriteString(conv.strftime)
		needsDate = needsDate || conv.time == ofNoValue
	}
	return b.String(), needsDate, nil
}

// mysqlParsePattern translates a MySQL pattern into the strftime one
// CompileTimeParser reads, whose conversions are one field each: %T is
// %H:%M:%S and %r %I:%M:%S %p.
func mysqlParsePattern(pattern string) (string, error) {
	p, _, err := MySQLPattern(pattern)
	if err != nil {
		return "", err
	}
	// "%%" first, so that a literal % before T or r stays one.
	return strings.NewReplacer("%%", "%%", "%T", "%H:%M:%S", "%r", "%I:%M:%S %p").Replace(p), nil
}

// DurationFormat formats signed times (MySQL's TIME, the INTERVAL of
// TIMEDIFF) with a MySQL TIME_FORMAT pattern.
type DurationFormat struct {
	f *strftime.Strftime
	// Null is set when the pattern asks for a part of the date (%M, %W,
	// %j …): MySQL's TIME_FORMAT is then NULL for every value.
	Null bool
}

// microsPerHour is an hour in microseconds.
const microsPerHour = 3600 * microsPerSecond

// CompileDurationFormat compiles a TIME_FORMAT pattern. A time is
// formatted as the instant that long after 1970-01-01 00:00 UTC, so that
// strftime's minutes, seconds, fractions and 12-hour clock are the time's;
// the hours (%H, %k, %T) count every hour, and the date's numbers are
// zeros, as MySQL prints TIME_FORMAT('100:00:00', '%H %Y') as '100 0000'.
func CompileDurationFormat(pattern string) (*DurationFormat, error) {
	p, needsDate, err := MySQLPattern(pattern)
	if err != nil {
		return nil, err
	}
	hours := func(t time.Time) int64 { return t.Unix() / 3600 }
	zeros := func(n int) strftime.Appender {
		return strftime.AppendFunc(func(dst []byte, _ time.Time) []byte {
			return append(dst, strings.Repeat("0", n)...)
		})
	}
	f, err := strftime.New(p,
		strftime.WithSpecification('f', fractionDigits(6)),
		strftime.WithSpecification('H', strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
			return appendPadded2(dst, hours(t))
		})),
		strftime.WithSpecification('T', strftime.AppendFunc(func(dst []byte, t time.Time) []byte {
			dst = appendPadded2(dst, hours(t))
			return t.AppendFormat(dst, ":04:05")
		})),
		strftime.WithSpecification('Y', zeros(4)),
		strftime.WithSpecification('y', zeros(2)),
		strftime.WithSpecification('m', zeros(2)),
		strftime.WithSpecification('d', zeros(2)),
	)
	if err != nil {
		return nil, fmt.Errorf("invalid format %q: %s", pattern, strftimeError(err))
	}
	return &DurationFormat{f: f, Null: needsDate}, nil
}

func appendPadded2(dst []byte, n int64) []byte {
	if n < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, n, 10)
}

// AppendFormat appends a time of micros microseconds (negative: before
// zero) formatted; a negative time starts with '-', whatever the pattern,
// as in MySQL.
func (df *DurationFormat) AppendFormat(dst []byte, micros int64) []byte {
	mag := uint64(micros)
	if micros < 0 {
		dst = append(dst, '-')
		mag = -mag
	}
	return df.f.FormatBuffer(dst, time.UnixMicro(int64(mag)).UTC())
}
