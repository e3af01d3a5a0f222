package value

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// AppendBlob appends printable ASCII as is and other bytes as \xHH, as
// DuckDB prints BLOBs.
func AppendBlob(dst, b []byte) []byte {
	const digits = "0123456789ABCDEF"
	for _, c := range b {
		if c >= 0x20 && c < 0x7f && c != '\\' {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '\\', 'x', digits[c>>4], digits[c&15])
	}
	return dst
}

// AppendUUID appends the 16 bytes of a UUID in the canonical 8-4-4-4-12 form.
func AppendUUID(dst, b []byte) []byte {
	var buf [36]byte
	hex.Encode(buf[0:8], b[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], b[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], b[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], b[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:], b[10:16])
	return append(dst, buf[:]...)
}

// ParseUUID accepts the canonical form, with or without hyphens and braces.
func ParseUUID(s string) ([16]byte, error) {
	var out [16]byte
	clean := strings.NewReplacer("-", "", "{", "", "}", "").Replace(strings.TrimSpace(s))
	if len(clean) != 32 {
		return out, fmt.Errorf("invalid UUID %q", s)
	}
	if _, err := hex.Decode(out[:], []byte(clean)); err != nil {
		return out, fmt.Errorf("invalid UUID %q", s)
	}
	return out, nil
}
