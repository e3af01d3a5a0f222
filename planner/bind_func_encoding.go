package planner

import "github.com/apache/arrow-go/v18/arrow"

// Functions that write values as digits or base64 and read them back, as
// DuckDB has them.
const (
	// hex(x BIGINT|STRING|BINARY) → STRING: an integer in upper-case hex
	// digits without leading zeros, negative ones as their 64-bit two's
	// complement; a string's UTF-8 bytes or a binary's bytes as two digits
	// each.
	FnHex = "hex"
	// bin(x BIGINT|STRING|BINARY) → STRING: hex in binary digits, eight
	// to a byte.
	FnBin = "bin"
	// unhex(s STRING) → BINARY: the bytes two hex digits each give, either
	// case; an odd first digit is a byte alone. A character that is not a
	// hex digit is an error.
	FnUnhex = "unhex"
	// to_base64(x BINARY|STRING) → STRING: the bytes in standard padded
	// base64.
	FnToBase64 = "to_base64"
	// from_base64(s STRING) → BINARY: the bytes of standard padded
	// base64; anything else is an error.
	FnFromBase64 = "from_base64"
	// bit_count(x TINYINT|SMALLINT|INT|BIGINT) → TINYINT: the number of
	// bits set in x's two's complement at its type's width, so
	// bit_count(CAST(-1 AS TINYINT)) is 8.
	FnBitCount = "bit_count"
)

// digitsArg takes an integer as a BIGINT and strings and binaries as they
// are (bytesArg): hex and bin format either.
func digitsArg(e Expr) (Expr, bool) {
	if IsInteger(e.Type()) {
		return castFolded(e, TypeBigint), true
	}
	return bytesArg(e)
}

// ownIntegerArg takes an integer at its own type, whose width bit_count
// counts in; NULL becomes a BIGINT.
func ownIntegerArg(e Expr) (Expr, bool) {
	switch t := e.Type(); {
	case t.ID() == arrow.NULL:
		return castFolded(e, TypeBigint), true
	case IsInteger(t):
		return e, true
	}
	return nil, false
}
