package value

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestMultiplyInterval(t *testing.T) {
	iv := func(m, d int32, ns int64) arrow.MonthDayNanoInterval {
		return arrow.MonthDayNanoInterval{Months: m, Days: d, Nanoseconds: ns}
	}
	cases := []struct {
		in   arrow.MonthDayNanoInterval
		n    int64
		want arrow.MonthDayNanoInterval
		ok   bool
	}{
		{iv(1, 2, 3), 3, iv(3, 6, 9), true},
		{iv(1, -2, 3), -1, iv(-1, 2, -3), true},
		{iv(1, 2, 3), 0, iv(0, 0, 0), true},
		{iv(math.MaxInt32, 0, 0), 1, iv(math.MaxInt32, 0, 0), true},
		{iv(math.MaxInt32, 0, 0), 2, iv(0, 0, 0), false},
		{iv(0, math.MinInt32, 0), -1, iv(0, 0, 0), false},
		{iv(0, 0, math.MinInt64), -1, iv(0, 0, 0), false},
		{iv(0, 0, -1), math.MinInt64, iv(0, 0, 0), false},
		{iv(0, 0, 1<<40), 1 << 30, iv(0, 0, 0), false},
	}
	for _, c := range cases {
		got, ok := MultiplyInterval(c.in, c.n)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("MultiplyInterval(%v, %d) = %v, %v; want %v, %v", c.in, c.n, got, ok, c.want, c.ok)
		}
	}
}
