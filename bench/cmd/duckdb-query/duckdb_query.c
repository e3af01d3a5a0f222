// duckdb-query runs one SQL statement in an in-memory DuckDB and prints its
// result as CSV with a header row. It is the "DuckDB process" of the bench's
// whole-process timings (start-up included), where no duckdb CLI is
// installed: like the CLI, it is one native process, linked with DuckDB's
// static library, that opens a database, runs the statement and prints the
// rows. It uses DuckDB's C API directly, so no other runtime adds to its
// time. The bench builds it with gcc (processSetup in
// process_startup_bench_test.go).
//
// Usage: duckdb-query SQL. Exit status 1 on a DuckDB error, 2 on bad usage.
#include <stdio.h>
#include <string.h>

#include "duckdb.h"

// put_field prints one CSV field (RFC 4180): quoted when it holds a comma,
// a quote, CR or LF, with each embedded quote doubled. NULL is empty.
static void put_field(const char *s) {
	if (s == NULL) {
		return;
	}
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"') {
			putchar('"');
		}
		putchar(*s);
	}
	putchar('"');
}

// query runs sql on con, reporting DuckDB's message on failure. On success
// the caller owns *res; on failure it has been destroyed.
static int query(duckdb_connection con, const char *sql, duckdb_result *res) {
	if (duckdb_query(con, sql, res) == DuckDBSuccess) {
		return 0;
	}
	fprintf(stderr, "Error: %s\n", duckdb_result_error(res));
	duckdb_destroy_result(res);
	return 1;
}

// printable tells whether duckdb_value_varchar gives a column's values as
// text: it is DuckDB's own cast to VARCHAR, but only for these types; for
// any other (lists, structs, TIMESTAMPTZ, ENUM, UUID...) it returns NULL,
// which would print as an empty field instead of the value.
static int printable(duckdb_type type) {
	switch (type) {
	case DUCKDB_TYPE_BOOLEAN: case DUCKDB_TYPE_TINYINT: case DUCKDB_TYPE_SMALLINT:
	case DUCKDB_TYPE_INTEGER: case DUCKDB_TYPE_BIGINT: case DUCKDB_TYPE_UTINYINT:
	case DUCKDB_TYPE_USMALLINT: case DUCKDB_TYPE_UINTEGER: case DUCKDB_TYPE_UBIGINT:
	case DUCKDB_TYPE_HUGEINT: case DUCKDB_TYPE_UHUGEINT: case DUCKDB_TYPE_FLOAT:
	case DUCKDB_TYPE_DOUBLE: case DUCKDB_TYPE_DECIMAL: case DUCKDB_TYPE_DATE:
	case DUCKDB_TYPE_TIME: case DUCKDB_TYPE_TIMESTAMP: case DUCKDB_TYPE_INTERVAL:
	case DUCKDB_TYPE_VARCHAR: case DUCKDB_TYPE_BLOB:
		return 1;
	default:
		return 0;
	}
}

// print_csv prints the header row, then every row; NULL prints as an empty
// field. It fails, printing nothing, when a column is not printable.
static int print_csv(duckdb_result *res) {
	idx_t cols = duckdb_column_count(res), rows = duckdb_row_count(res);
	for (idx_t c = 0; c < cols; c++) {
		if (!printable(duckdb_column_type(res, c))) {
			fprintf(stderr, "Error: column %llu (%s): duckdb-query prints only numbers, VARCHAR, BLOB, "
			                "DATE, TIME, TIMESTAMP and INTERVAL; cast it to VARCHAR\n",
			        (unsigned long long)c + 1, duckdb_column_name(res, c));
			return 1;
		}
	}
	for (idx_t c = 0; c < cols; c++) {
		if (c > 0) {
			putchar(',');
		}
		put_field(duckdb_column_name(res, c));
	}
	putchar('\n');
	for (idx_t r = 0; r < rows; r++) {
		for (idx_t c = 0; c < cols; c++) {
			if (c > 0) {
				putchar(',');
			}
			char *v = duckdb_value_varchar(res, c, r); // NULL for NULL
			put_field(v);
			duckdb_free(v);
		}
		putchar('\n');
	}
	return 0;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fputs("usage: duckdb-query SQL\n", stderr);
		return 2;
	}
	duckdb_database db;
	char *open_err = NULL;
	if (duckdb_open_ext(NULL, &db, NULL, &open_err) == DuckDBError) { // NULL path: in memory
		fprintf(stderr, "Error: %s\n", open_err ? open_err : "cannot open an in-memory database");
		duckdb_free(open_err);
		return 1;
	}
	duckdb_connection con;
	if (duckdb_connect(db, &con) == DuckDBError) {
		fputs("Error: cannot connect to the in-memory database\n", stderr);
		duckdb_close(&db);
		return 1;
	}
	duckdb_result res;
	// UTC, as the bench's in-process DuckDB: lakesql computes in UTC only.
	int status = query(con, "SET TimeZone = 'UTC'", &res);
	if (status == 0) {
		duckdb_destroy_result(&res);
		status = query(con, argv[1], &res);
	}
	if (status == 0) {
		status = print_csv(&res);
		duckdb_destroy_result(&res);
	}
	duckdb_disconnect(&con);
	duckdb_close(&db);
	if (fflush(stdout) != 0) {
		fputs("Error: cannot write the result\n", stderr);
		return 1;
	}
	return status;
}
