package lakesql

import (
	"fmt"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// set changes a session setting: SET pruning = on|off, and the time zone
// (SET TIME ZONE 'Europe/Berlin' or '+02:00', or Spark's
// spark.sql.session.timeZone as the tutorials write it). The zone decides
// how TIMESTAMPTZ values show, read zone-less text, and their calendar
// fields (planner/timezone.go).
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
		loc, err := sql.LoadZone(st.Value)
		if err != nil {
			return nil, fmt.Errorf("SET TIME ZONE: %v", err)
		}
		s.loc = loc
		if sql.IsUTC(loc) {
			s.loc = nil
		}
		return message("OK"), nil
	}
	return nil, fmt.Errorf("unknown setting %s (settings: pruning, timezone)", st.Name)
}
