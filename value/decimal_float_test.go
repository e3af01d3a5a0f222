package value

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestDecimalToFloat64 checks that a decimal converts to the DOUBLE nearest
// to it, which parsing its text gives: small values take the division,
// large ones and extreme scales the text.
func TestDecimalToFloat64(t *testing.T) {
	cases := []struct {
		n     decimal128.Num
		scale int32
		want  float64
	}{
		{decimal128.FromI64(3), 1, 0.3},
		{decimal128.FromI64(-3), 1, -0.3},
		{decimal128.FromI64(7), 1, 0.7},
		{decimal128.FromI64(11), 1, 1.1},
		{decimal128.FromI64(1), 22, 1e-22},
		{decimal128.FromI64(0), 5, 0},
		{decimal128.FromI64(12345), 0, 12345},
	}
	for _, c := range cases {
		if got := DecimalToFloat64(c.n, c.scale); got != c.want {
			t.Errorf("%s: got %v, want %v", c.n.ToString(c.scale), got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		n := decimal128.New(int64(r.Uint64()>>r.IntN(64))*int64(1-2*r.IntN(2)), r.Uint64()>>r.IntN(64))
		if r.IntN(2) == 0 {
			n = decimal128.FromI64(r.Int64N(1<<54) - 1<<53)
		}
		scale := int32(r.IntN(39))
		want, err := strconv.ParseFloat(n.ToString(scale), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := DecimalToFloat64(n, scale); got != want {
			t.Fatalf("%s: got %v, want %v", n.ToString(scale), got, want)
		}
	}
}
