package value

import "unsafe"

// Signed is the signed integer types.
type Signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// MinOf is the smallest value of a signed integer type.
func MinOf[T Signed]() T {
	var z T
	return T(-1) << (unsafe.Sizeof(z)*8 - 1)
}

// MulChecked is x × y; false when the product does not fit in T.
func MulChecked[T Signed](x, y T) (T, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	p := x * y
	if p/y != x || (x == -1 && y == MinOf[T]()) || (y == -1 && x == MinOf[T]()) {
		return 0, false
	}
	return p, true
}
