package value

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseInt reads a signed integer of bitSize bits (8, 16, 32 or 64) from
// decimal text; surrounding spaces are ignored.
func ParseInt(s string, bitSize int) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, bitSize)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is out of range for a %d-bit integer", strings.TrimSpace(s), bitSize)
		}
		return 0, fmt.Errorf("invalid integer %q", s)
	}
	return v, nil
}
