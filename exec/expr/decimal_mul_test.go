package expr

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func TestDecimalMulFastPathMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 62, -(1 << 62), 99999, -12345}
	for range 2000 {
		vals = append(vals, r.Int64()>>r.IntN(63))
	}
	for _, prec := range []int32{18, 38} {
		m := &decimalMath{sa: 2, sb: 0, s: 2, prec: prec}
		ref := &decimalMath{sa: 2, sb: 0, s: 2, prec: prec}
		for i, a := range vals {
			b := vals[(i*7+3)%len(vals)]
			x, y := decimal128.FromI64(a), decimal128.FromI64(b)
			got, o1 := m.mul(x, y)
			toBig(&ref.x, x)
			toBig(&ref.y, y)
			ref.x.Mul(&ref.x, &ref.y)
			want, o2 := ref.result(&ref.x)
			if o1 != o2 || got != want {
				t.Fatalf("%d*%d prec %d: got %v %v want %v %v (%s)", a, b, prec, got.BigInt(), o1, want.BigInt(), o2, new(big.Int).Mul(big.NewInt(a), big.NewInt(b)))
			}
		}
	}
}

// TestDecimalRescaleFastPathMatchesBig checks the 64-bit rescaling (casts,
// add and sub of decimals at different scales) against big.Int, rounding
// half away from zero included.
func TestDecimalRescaleFastPathMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vals := []int64{0, 1, -1, 5, -5, 15, -15, 49, 50, -50, 99, math.MaxInt64, math.MinInt64, 1 << 62, -(1 << 62)}
	for range 2000 {
		vals = append(vals, r.Int64()>>r.IntN(63))
	}
	for _, v := range vals {
		for _, scales := range [][2]int32{{2, 4}, {4, 2}, {0, 18}, {18, 0}, {3, 1}, {1, 3}, {10, 28}, {20, 1}} {
			from, to := scales[0], scales[1]
			m := &decimalMath{prec: 38}
			got, o1 := m.fit(m.rescale(decimal128.FromI64(v), from, to))
			ref := &decimalMath{prec: 38}
			rescaleBig(toBig(&ref.x, decimal128.FromI64(v)), from, to, &ref.t)
			want, o2 := ref.result(&ref.x)
			if o1 != o2 || got != want {
				t.Fatalf("rescale %d from %d to %d: got %v %v want %v %v", v, from, to, got.BigInt(), o1, want.BigInt(), o2)
			}
		}
	}
}
