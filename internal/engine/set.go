package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/value"
)

// settings are what SET changes.
type settings struct {
	noPruning bool // SET pruning = off
	// loc is the session time zone (SET TIME ZONE), nil for UTC.
	loc *time.Location
	// disabledRules are optimizer rules turned off by name (SET
	// disabled_optimizers = 'rule, …', DuckDB's setting).
	disabledRules map[string]bool
}

// Set changes a session setting: SET pruning = on|off, disabled_optimizers,
// and the time zone
// (SET TIME ZONE 'Europe/Berlin' or '+02:00', or Spark's
// spark.sql.session.timeZone as the tutorials write it). The zone decides
// how TIMESTAMPTZ values show, read zone-less text, and their calendar
// fields (planner/timezone.go).
func (s *Session) Set(st *sql.Set) (*Result, error) {
	setting := strings.ToLower(strings.TrimSpace(st.Value))
	switch strings.ToLower(st.Name) {
	case "pruning":
		switch setting {
		case "on", "true", "1":
			s.settings.noPruning = false
		case "off", "false", "0":
			s.settings.noPruning = true
		default:
			return nil, fmt.Errorf("SET pruning takes on or off, not %q", st.Value)
		}
		return Message("OK"), nil
	case "disabled_optimizers":
		disabled := map[string]bool{}
		for _, name := range strings.Split(setting, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			if !optimizer.IsRule(name) {
				return nil, fmt.Errorf("SET disabled_optimizers: unknown rule %s (rules: %s)", name, strings.Join(optimizer.RuleNames(), ", "))
			}
			disabled[name] = true
		}
		s.settings.disabledRules = disabled
		return Message("OK"), nil
	case "timezone", "time zone", "spark.sql.session.timezone":
		loc, err := value.LoadZone(st.Value)
		if err != nil {
			return nil, fmt.Errorf("SET TIME ZONE: %v", err)
		}
		s.settings.loc = loc
		if value.IsUTC(loc) {
			s.settings.loc = nil
		}
		return Message("OK"), nil
	}
	return nil, fmt.Errorf("unknown setting %s (settings: pruning, timezone, disabled_optimizers)", st.Name)
}
