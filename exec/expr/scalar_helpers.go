package expr

import (
	"time"
	"unsafe"
)

// Small helpers shared by the scalar kernels: time units, calendar days,
// overflow-checked arithmetic and zero-copy text views.

const (
	microsPerSecond = int64(1e6)
	microsPerDay    = 86400 * microsPerSecond
)

// civil converts days since 1970-01-01 to a proleptic Gregorian date.
func civil(days int64) time.Time {
	return time.Unix(days*86400, 0).UTC()
}

func floorDivMod(x, y int64) (q, r int64) {
	q, r = x/y, x%y
	if r < 0 {
		q, r = q-1, r+y
	}
	return q, r
}

// mulAdd returns a*b+c and whether it overflows int64.
func mulAdd(a, b, c int64) (int64, bool) {
	p, o := intMul(a, b)
	if o != ValueOK {
		return 0, true
	}
	s, o := IntAdd(p, c)
	return s, o != ValueOK
}

// unsafeString views b as a string without copying, for parsers that do not
// retain their input.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
