package engine

import (
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/optimizer"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
	"github.com/lakesql/lakesql/value"
)

// settings are what SET changes; the zero value is every setting's default,
// which is what RESET restores.
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
	// commitRetryTimeout is how long a commit that loses races with other
	// writers is retried (SET commit_retry_timeout); nil for
	// storage.DefaultCommitRetryTimeout.
	commitRetryTimeout *time.Duration
	// staticOverwrite makes INSERT OVERWRITE replace the whole table rather
	// than the partitions its rows fall in (Spark's
	// spark.sql.sources.partitionOverwriteMode = static).
	staticOverwrite bool
	// noExternalAccess confines file reads and writes to allowedDirs (SET
	// enable_external_access = false, DuckDB's setting); like DuckDB, a
	// session cannot turn it back on, nor then change allowedDirs.
	noExternalAccess bool
	allowedDirs      []string
	// ownMemoryLimit makes memory_limit the session's (memoryLimit, 0 for
	// the process's) rather than the process's (Options.SessionMemoryLimit);
	// no RESET changes it.
	ownMemoryLimit bool
	memoryLimit    int64
}

// setting is one name SET and RESET know, with the text SET shows.
type setting struct {
	name        string
	aliases     []string // other names, lower case (Spark's, Delta's)
	description string
	show        func(*settings) string
	// set reads a value; the empty string is never passed (RESET zeroes the
	// field through reset instead).
	set   func(*settings, string) error
	reset func(*settings)
}

// sessionSettings are the settings in the order SET lists them.
var sessionSettings = []setting{
	{
		name: "allowed_directories", description: "folders files may be read from and written to when enable_external_access is off, such as ['/data', '/exports']",
		show: func(s *settings) string { return strings.Join(s.allowedDirs, ", ") },
		set: func(s *settings, v string) error {
			if s.noExternalAccess {
				return fmt.Errorf("SET allowed_directories: cannot change it once enable_external_access is off")
			}
			s.allowedDirs = parseDirectories(v)
			return nil
		},
		reset: func(s *settings) {
			if !s.noExternalAccess {
				s.allowedDirs = nil
			}
		},
	},
	{
		name: "commit_retry_timeout", description: "how long a commit that loses to concurrent writers is retried, such as '30s' (0: not retried)",
		show: func(s *settings) string {
			if s.commitRetryTimeout == nil {
				return storage.DefaultCommitRetryTimeout.String()
			}
			return s.commitRetryTimeout.String()
		},
		set: func(s *settings, v string) error {
			d, err := parseDuration("commit_retry_timeout", v)
			if err == nil {
				s.commitRetryTimeout = &d
			}
			return err
		},
		reset: func(s *settings) { s.commitRetryTimeout = nil },
	},
	{
		name: "disabled_optimizers", description: "optimizer rules turned off, comma-separated (DuckDB's setting)",
		show: func(s *settings) string { return strings.Join(slices.Sorted(maps.Keys(s.disabledRules)), ", ") },
		set:  setDisabledRules, reset: func(s *settings) { s.disabledRules = nil },
	},
	{
		name: "enable_external_access", description: "read and write files outside the warehouse's tables (off: only in allowed_directories; cannot be turned back on)",
		show: func(s *settings) string { return onOff(!s.noExternalAccess) },
		set: func(s *settings, v string) error {
			on, err := parseBool("enable_external_access", v)
			switch {
			case err != nil:
				return err
			case on && s.noExternalAccess:
				return fmt.Errorf("SET enable_external_access: it cannot be turned back on in this session")
			}
			s.noExternalAccess = !on
			return nil
		},
		reset: func(*settings) {}, // on by default, and never turned back on
	},
	{
		name: "memory_limit", description: "memory the process may use, such as '4GB' (shared by every session; on a server, each connection's own, under the process's; ORDER BY, GROUP BY, DISTINCT, hash joins and windows spill to temp_directory as they near it; 0: no limit)",
		show: func(s *settings) string {
			if s.memoryLimit > 0 {
				return formatBytes(s.memoryLimit)
			}
			return formatBytes(exec.MemoryLimit())
		},
		set:   setMemoryLimit,
		reset: func(s *settings) { s.memoryLimit = 0; resetProcessMemoryLimit(s) },
	},
	{
		name: "partition_overwrite_mode", aliases: []string{"spark.sql.sources.partitionoverwritemode"},
		description: "INSERT OVERWRITE replaces the partitions its rows fall in (dynamic) or the whole table (static)",
		show: func(s *settings) string {
			if s.staticOverwrite {
				return "static"
			}
			return "dynamic"
		},
		set: func(s *settings, v string) error {
			switch strings.ToLower(v) {
			case "static", "dynamic":
				s.staticOverwrite = strings.EqualFold(v, "static")
				return nil
			}
			return fmt.Errorf("SET partition_overwrite_mode takes static or dynamic, not %q", v)
		},
		reset: func(s *settings) { s.staticOverwrite = false },
	},
	{
		name: "pruning", description: "partition, file and row-group pruning (off reads every file, for checking answers)",
		show: func(s *settings) string { return onOff(!s.noPruning) },
		set: func(s *settings, v string) error {
			on, err := parseBool("pruning", v)
			if err == nil {
				s.noPruning = !on
			}
			return err
		},
		reset: func(s *settings) { s.noPruning = false },
	},
	{
		name: "statement_timeout", description: "stop statements that run longer, such as '30s' or '5min' (0: no limit)",
		show: func(s *settings) string { return s.statementTimeout.String() },
		set: func(s *settings, v string) error {
			d, err := parseDuration("statement_timeout", v)
			if err == nil {
				s.statementTimeout = d
			}
			return err
		},
		reset: func(s *settings) { s.statementTimeout = 0 },
	},
	{
		name: "temp_directory", description: "where operators spill rows that do not fit in memory_limit (shared by every session)",
		show: func(*settings) string { return exec.TempDirectory() },
		set: func(_ *settings, v string) error {
			if info, err := os.Stat(v); err != nil || !info.IsDir() {
				return fmt.Errorf("SET temp_directory: %s is not a folder", v)
			}
			exec.SetTempDirectory(v)
			return nil
		},
		reset: func(*settings) { exec.SetTempDirectory("") },
	},
	{
		name: "timezone", aliases: []string{"time zone", "spark.sql.session.timezone"},
		description: "session time zone: how TIMESTAMPTZ values show and how zone-less text is read",
		show: func(s *settings) string {
			if s.loc == nil {
				return "UTC"
			}
			return s.loc.String()
		},
		set: func(s *settings, v string) error {
			loc, err := value.LoadZone(v)
			if err != nil {
				return fmt.Errorf("SET TIME ZONE: %v", err)
			}
			s.loc = loc
			if value.IsUTC(loc) {
				s.loc = nil
			}
			return nil
		},
		reset: func(s *settings) { s.loc = nil },
	},
	{
		name: "vacuum_retention_check", aliases: []string{"spark.databricks.delta.retentiondurationcheck.enabled"},
		description: "refuse to delete files younger than an hour in VACUUM and remove_orphan_files",
		show:        func(s *settings) string { return onOff(!s.noRetentionCheck) },
		set: func(s *settings, v string) error {
			on, err := parseBool("vacuum_retention_check", v)
			if err == nil {
				s.noRetentionCheck = !on
			}
			return err
		},
		reset: func(s *settings) { s.noRetentionCheck = false },
	},
}

// foreignPrefixes are the setting names of Spark and Databricks scripts
// that lakesql accepts without effect, so such scripts run unchanged.
var foreignPrefixes = []string{"spark.", "hive.", "mapreduce."}

// lookupSetting finds a setting by name or alias (lower case).
func lookupSetting(name string) (*setting, bool) {
	for i := range sessionSettings {
		st := &sessionSettings[i]
		if st.name == name || slices.Contains(st.aliases, name) {
			return st, true
		}
	}
	return nil, false
}

// RetentionCheck reports whether orphan removal must refuse to delete files
// younger than its minimum retention.
func (s *Session) RetentionCheck() bool { return !s.settings.noRetentionCheck }

// StaticOverwrite reports whether INSERT OVERWRITE replaces the whole table
// (partition_overwrite_mode = static) rather than the partitions it writes.
func (s *Session) StaticOverwrite() bool { return s.settings.staticOverwrite }

// parseBool reads a setting's on/off value.
func parseBool(name, value string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "on", "true", "1":
		return true, nil
	case "off", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("SET %s takes on or off, true or false, not %q", name, value)
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// setMemoryLimit sets the process's memory limit, or the session's own
// (ownMemoryLimit), which cannot exceed the process's: the sum of the
// connections' cannot then exceed what the machine gives the process.
func setMemoryLimit(s *settings, v string) error {
	n, err := parseBytes("memory_limit", v)
	switch {
	case err != nil:
		return err
	case !s.ownMemoryLimit:
		exec.SetMemoryLimit(n)
	case n > exec.MemoryLimit() && exec.MemoryLimit() > 0:
		return fmt.Errorf("SET memory_limit: %s is more than the server's memory_limit (%s), which every connection's is under", formatBytes(n), formatBytes(exec.MemoryLimit()))
	default:
		s.memoryLimit = n // 0: the server's
	}
	return nil
}

// resetProcessMemoryLimit restores the process's default memory limit,
// unless the session's limit is its own.
func resetProcessMemoryLimit(s *settings) {
	if !s.ownMemoryLimit {
		exec.SetMemoryLimit(exec.DefaultMemoryLimit())
	}
}

func setDisabledRules(s *settings, v string) error {
	disabled := map[string]bool{}
	for _, name := range strings.Split(strings.ToLower(v), ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if !optimizer.IsRule(name) {
			return fmt.Errorf("SET disabled_optimizers: unknown rule %s (rules: %s)", name, strings.Join(optimizer.RuleNames(), ", "))
		}
		disabled[name] = true
	}
	s.disabledRules = disabled
	return nil
}

// Set changes a session setting (SET name = value), shows one (SET name)
// or lists them all with their values and descriptions (SET alone). Spark and Databricks names
// lakesql has no use for are accepted with a notice, so that pipeline
// scripts run unchanged.
func (s *Session) Set(st *sql.Set) (*Result, error) {
	name := strings.ToLower(st.Name)
	if name == "" {
		return s.showSettings(), nil
	}
	def, ok := lookupSetting(name)
	if !ok {
		if foreignSetting(name) {
			return Message(fmt.Sprintf("%s has no effect in lakesql (accepted for Spark scripts)", st.Name)), nil
		}
		return nil, unknownSetting(st.Name)
	}
	if st.Show {
		return TextRows([]string{"name", "value", "description"}, [][]string{{def.name, def.show(&s.settings), def.description}}), nil
	}
	if err := def.set(&s.settings, strings.TrimSpace(st.Value)); err != nil {
		return nil, err
	}
	return Message("OK"), nil
}

// Reset restores one setting (RESET name) or all of them (RESET) to its
// default.
func (s *Session) Reset(st *sql.Reset) (*Result, error) {
	name := strings.ToLower(st.Name)
	if name == "" {
		for _, def := range sessionSettings {
			def.reset(&s.settings)
		}
		return Message("OK"), nil
	}
	def, ok := lookupSetting(name)
	if !ok {
		if foreignSetting(name) {
			return Message(fmt.Sprintf("%s has no effect in lakesql (accepted for Spark scripts)", st.Name)), nil
		}
		return nil, unknownSetting(st.Name)
	}
	def.reset(&s.settings)
	return Message("OK"), nil
}

func foreignSetting(name string) bool {
	return slices.ContainsFunc(foreignPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

func unknownSetting(name string) error {
	names := make([]string, len(sessionSettings))
	for i, st := range sessionSettings {
		names[i] = st.name
	}
	if near := sql.Closest(strings.ToLower(name), names); near != "" {
		return fmt.Errorf("unknown setting %s (did you mean %s?)", name, near)
	}
	return fmt.Errorf("unknown setting %s (settings: %s)", name, strings.Join(names, ", "))
}

// showSettings is SET's listing: name, value, description.
func (s *Session) showSettings() *Result {
	rows := make([][]string, len(sessionSettings))
	for i, st := range sessionSettings {
		rows[i] = []string{st.name, st.show(&s.settings), st.description}
	}
	return TextRows([]string{"name", "value", "description"}, rows)
}

// parseBytes reads a size as DuckDB writes them: '4GB' (powers of 1000),
// '4GiB' (powers of 1024), '500MB', a plain number of bytes; 0 (or a
// negative size) is no limit.
func parseBytes(name, value string) (int64, error) {
	v := strings.TrimSpace(value)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return max(n, 0), nil
	}
	n, err := humanize.ParseBytes(v)
	if err != nil || n > math.MaxInt64 {
		return 0, fmt.Errorf("SET %s takes a size such as '4GB' or '512MiB', not %q", name, value)
	}
	return int64(n), nil
}

// formatBytes writes a size as DuckDB's SET shows it ('1.8 GiB'); 0 is
// no limit.
func formatBytes(n int64) string {
	if n <= 0 {
		return "0 (no limit)"
	}
	return exec.FormatBytes(n)
}
