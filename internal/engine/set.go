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
	// noRetentionCheck lets orphan removal and VACUUM delete files younger
	// than an hour (SET vacuum_retention_check = false, as Delta's
	// retentionDurationCheck).
	noRetentionCheck bool
	// statementTimeout stops a statement that runs longer (SET
	// statement_timeout = '30s'); 0 for no limit.
	statementTimeout time.Duration
}

// RetentionCheck reports whether orphan removal must refuse to delete files
// younger than its minimum retention.
func (s *Session) RetentionCheck() bool { return !s.settings.noRetentionCheck }

// parseBool reads a setting's on/off value.
func parseBool(name, value string) (bool, error) {
	switch value {
	case "on", "true", "1":
		return true, nil
	case "off", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("SET %s takes on or off, true or false, not %q", name, value)
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
		on, err := parseBool("pruning", setting)
		if err != nil {
			return nil, err
		}
		s.settings.noPruning = !on
		return Message("OK"), nil
	case "vacuum_retention_check", "spark.databricks.delta.retentiondurationcheck.enabled":
		on, err := parseBool("vacuum_retention_check", setting)
		if err != nil {
			return nil, err
		}
		s.settings.noRetentionCheck = !on
		return Message("OK"), nil
	case "statement_timeout":
		d, err := parseDuration(st.Value)
		if err != nil {
			return nil, err
		}
		s.settings.statementTimeout = d
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
	return nil, fmt.Errorf("unknown setting %s (settings: pruning, timezone, statement_timeout, disabled_optimizers, vacuum_retention_check)", st.Name)
}
