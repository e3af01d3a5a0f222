package sql

import (
	"slices"
	"strings"
)

// reservedWords cannot be unquoted identifiers; a column, table or alias with
// one of these names must be quoted. They are the words that can follow an
// expression or a table reference, which would otherwise be taken for an alias
// (SELECT a FROM t), plus the words that start an expression (CASE, NOT).
var reservedWords = []string{
	"all", "and", "as", "between", "by", "case", "cross", "distinct", "else", "end",
	"except", "exists", "false", "fetch", "for", "from", "full", "group", "having", "ilike",
	"in", "inner", "intersect", "is", "join", "lateral", "left", "like", "limit", "natural",
	"not", "null", "offset", "on", "or", "order", "outer", "qualify", "right", "select", "tablesample", "then",
	"true", "union", "using", "values", "when", "where", "window", "with",
}

// nonReservedWords have a meaning in some context but remain usable as names:
// date and day are common column names, day(ts) a partition transform.
var nonReservedWords = []string{
	// statements and their clauses
	"add", "alter", "analyze", "call", "cascade", "catalogs", "column", "columns", "comment",
	"create", "data", "database", "databases", "delete", "describe", "desc", "detail",
	"drop", "dry", "explain", "extended", "field", "formatted", "history", "iceberg",
	"if", "insert", "into", "locally", "matched", "merge", "source", "target", "update", "namespace", "namespaces", "optimize",
	"ordered", "overwrite", "partition", "partitioned", "partitions", "purge", "rename",
	"replace", "restrict", "retain", "run", "schema", "schemas", "set", "show", "table",
	"tables", "tblproperties", "to", "type", "unordered", "unset", "use", "vacuum",
	"write", "zorder",
	// views, RESET, Delta's CLUSTER BY and the Hive statements answered with
	// their Iceberg equivalents
	"cluster", "global", "location", "msck", "none", "refresh", "repair", "reset", "sync", "temp",
	"temporary", "view", "views", "within",
	// queries and expressions
	"asc", "at", "both", "cast", "current", "current_date", "current_time", "current_timestamp",
	"any", "some", "bernoulli", "cube", "escape", "ignore", "respect", "pivot", "unpivot", "include", "exclude", "extract", "filter", "first", "following", "grouping", "name", "percent",
	"repeatable", "reservoir", "sample", "system", "interval", "semi", "anti", "asof", "positional", "last", "leading", "nulls",
	"groups", "no", "of", "ordinality", "others", "over", "preceding", "range", "rollup", "row", "rows", "recursive", "sets", "next", "only", "position", "substring", "system_time",
	"system_version", "ties", "trailing", "trim", "try_cast", "unbounded", "version", "without",
	"zone", "rlike", "regexp", "div",
	// types
	"bigint", "binary", "blob", "bool", "boolean", "bytea", "char", "date", "datetime",
	"decimal", "double", "float", "int", "integer", "long", "numeric", "precision",
	"real", "smallint", "string", "text", "time", "timestamp", "timestamp_ltz",
	"timestamp_ntz", "timestamptz", "tinyint", "uuid", "varbinary", "varchar",
	// interval units and partition transforms
	"year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours",
	"minute", "minutes", "second", "seconds", "millisecond", "milliseconds",
	"microsecond", "microseconds", "bucket", "date_hour", "identity", "truncate", "void",
}

var reserved = func() map[string]bool {
	m := make(map[string]bool, len(reservedWords))
	for _, w := range reservedWords {
		m[w] = true
	}
	return m
}()

// keywords is what Keywords returns: every word above, upper case and sorted.
var keywords = func() []string {
	var all []string
	for _, w := range slices.Concat(reservedWords, nonReservedWords) {
		all = append(all, strings.ToUpper(w))
	}
	slices.Sort(all)
	return slices.Compact(all)
}()
