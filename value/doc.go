// Package value is lakesql's one text form of SQL values and its parsers:
// CAST to and from STRING, constants folded at plan time, the CLI's result
// cells and the golden tests all print and read values here, so what a test
// checks is what a user sees. The forms follow DuckDB: DOUBLE in shortest
// round-trip form with a fractional part (1.0, 0.1, 1e+20, nan, inf, -inf),
// DECIMAL with exactly its scale, DATE 2024-01-31, TIMESTAMP 2024-01-31
// 13:45:00.25, TIMESTAMPTZ with its offset in the session zone (+00, +05:30),
// INTERVAL 1 year 2 months 3 days 04:05:06, BLOB with \xHH escapes. Time
// zones are loaded here too, since they decide a TIMESTAMPTZ's text.
package value
