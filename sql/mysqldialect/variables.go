package mysqldialect

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/sql"
)

// ServerVersion is the version lakesql reports to MySQL clients. Drivers and
// BI tools choose features by it, so it names a MySQL 8.0 they all know; the
// comment says what answers.
const ServerVersion = "8.0.33-lakesql"

// defaultVariables are the system variables clients read on connect
// (Connector/J, Metabase, Grafana, DBeaver and the mysql client ask for these).
// lakesql has no use for most of them; they answer what a MySQL server with
// default settings answers, so that clients configure themselves normally.
var defaultVariables = map[string]string{
	"version":                        ServerVersion,
	"version_comment":                "lakesql: SQL over Apache Iceberg tables",
	"version_compile_os":             "Linux",
	"version_compile_machine":        "x86_64",
	"protocol_version":               "10",
	"autocommit":                     "1",
	"auto_increment_increment":       "1",
	"auto_increment_offset":          "1",
	"character_set_client":           "utf8mb4",
	"character_set_connection":       "utf8mb4",
	"character_set_database":         "utf8mb4",
	"character_set_results":          "utf8mb4",
	"character_set_server":           "utf8mb4",
	"character_set_system":           "utf8mb3",
	"collation_connection":           "utf8mb4_0900_ai_ci",
	"collation_database":             "utf8mb4_0900_ai_ci",
	"collation_server":               "utf8mb4_0900_ai_ci",
	"default_storage_engine":         "Iceberg",
	"init_connect":                   "",
	"interactive_timeout":            "28800",
	"license":                        "Apache-2.0",
	"lower_case_table_names":         "0",
	"max_allowed_packet":             "67108864",
	"max_execution_time":             "0",
	"net_buffer_length":              "16384",
	"net_write_timeout":              "60",
	"performance_schema":             "0",
	"query_cache_size":               "0",
	"query_cache_type":               "OFF",
	"sql_auto_is_null":               "0",
	"sql_mode":                       "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION",
	"sql_select_limit":               "18446744073709551615",
	"session_track_schema":           "ON",
	"session_track_system_variables": "time_zone,autocommit,character_set_client,character_set_results,character_set_connection",
	"session_track_transaction_info": "OFF",
	"system_time_zone":               "UTC",
	"time_zone":                      "SYSTEM",
	"transaction_isolation":          "REPEATABLE-READ",
	"transaction_read_only":          "0",
	"tx_isolation":                   "REPEATABLE-READ",
	"tx_read_only":                   "0",
	"wait_timeout":                   "28800",
}

// Variables are one connection's MySQL system variables, and its user
// variables. SET changes them for the connection; @@name and SHOW
// VARIABLES read the system variables, @name a user variable.
type Variables struct {
	values map[string]string
	user   map[string]*sql.Literal // by lower-case name
}

// NewVariables returns the defaults.
func NewVariables() *Variables {
	return &Variables{values: maps.Clone(defaultVariables), user: map[string]*sql.Literal{}}
}

// User returns the value of user variable @name, NULL when it was never
// set (as in MySQL).
func (v *Variables) User(name string, pos sql.Pos) *sql.Literal {
	if lit, ok := v.user[strings.ToLower(name)]; ok {
		out := *lit
		out.Pos = pos
		return &out
	}
	return &sql.Literal{Kind: sql.LitNull, Pos: pos}
}

// Get returns the value of a variable (name in any case), and whether it exists.
func (v *Variables) Get(name string) (string, bool) {
	val, ok := v.values[strings.ToLower(name)]
	return val, ok
}

// Set sets a variable; names are case-insensitive.
func (v *Variables) Set(name, value string) {
	v.values[strings.ToLower(name)] = value
}

// Names lists the variables in order.
func (v *Variables) Names() []string {
	return slices.Sorted(maps.Keys(v.values))
}

// isInteger reports whether a variable's value is a number, which @@name
// returns as an integer (clients read @@autocommit and
// @@auto_increment_increment as integers).
func isInteger(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}
