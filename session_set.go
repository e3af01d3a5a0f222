package lakesql

import (
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// set changes a session setting: SET pruning = on|off, and the time zone
// (SET TIME ZONE 'UTC', or Spark's spark.sql.session.timeZone as the
// tutorials write it). lakesql computes in UTC; other zones are refused
// rather than silently ignored.
func (s *Session) set(st *sql.Set) (*Result, error) {
	value := strings.ToLower(strings.TrimSpace(st.Value))
	switch strings.ToLower(st.Name) {
	case "pruning":
		switch value {
		case "on", "true", "1":
			s.noPruning = false
		case "off", "false", "0":
			s.noPruning = true
		default:
			return nil, fmt.Errorf("SET pruning takes on or off, not %q", st.Value)
		}
		return message("OK"), nil
	case "timezone", "time zone", "spark.sql.session.timezone":
		switch value {
		case "utc", "gmt", "z", "+00:00", "etc/utc":
			return message("OK"), nil
		}
		return nil, fmt.Errorf("time zone %q is not supported yet: lakesql computes in UTC", st.Value)
	}
	return nil, fmt.Errorf("unknown setting %s (settings: pruning, timezone)", st.Name)
}
