package value

import (
	"fmt"
	"strings"
)

// ParseBool accepts true/false, t/f, yes/no, y/n, on/off and 1/0 in any case.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "on", "1":
		return true, nil
	case "false", "f", "no", "n", "off", "0":
		return false, nil
	}
	return false, fmt.Errorf("invalid boolean %q", s)
}
