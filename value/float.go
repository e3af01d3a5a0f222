package value

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// AppendFloat appends f like DuckDB (and Python's repr): the shortest text
// that reads back as the same value, positional for exponents in [-4, 15]
// and always with a fractional part ("1.0"), scientific otherwise ("1e+20").
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	sci := strconv.AppendFloat(nil, f, 'e', -1, bitSize)
	exp, _ := strconv.Atoi(string(sci[strings.LastIndexByte(string(sci), 'e')+1:]))
	if exp < -4 || exp > 15 {
		return append(dst, sci...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, bitSize)
	if !strings.ContainsRune(string(dst[start:]), '.') {
		dst = append(dst, ".0"...)
	}
	return dst
}

// ParseFloat reads a DOUBLE (bitSize 64) or FLOAT (32) from text, including
// the nan, inf and -inf that AppendFloat writes; a finite number too large
// for the type is an error.
func ParseFloat(s string, bitSize int) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), bitSize)
	if err != nil {
		return 0, fmt.Errorf("invalid %s %s", floatName(bitSize), Quote(s))
	}
	return f, nil
}

func floatName(bitSize int) string {
	if bitSize == 32 {
		return "FLOAT"
	}
	return "DOUBLE"
}
