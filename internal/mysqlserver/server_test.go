package mysqlserver

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"testing"
)

// Every type comes back with MySQL's column type and its value, NULLs as NULL.
func TestResultTypesAndValues(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "shop")
	rows, err := db.Query("SELECT * FROM items ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	types, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	var got []string
	for _, ct := range types {
		name := ct.Name() + " " + ct.DatabaseTypeName()
		if p, s, ok := ct.DecimalSize(); ok && ct.DatabaseTypeName() != "DOUBLE" {
			name += "(" + strconv.FormatInt(p, 10) + "," + strconv.FormatInt(s, 10) + ")"
		}
		got = append(got, name)
	}
	want := []string{"id BIGINT", "small INT", "flag TINYINT", "ratio DOUBLE", "price DECIMAL(10,2)", "day DATE",
		"at DATETIME(6,6)", "at_tz DATETIME(6,6)", "name TEXT", "raw BLOB"}
	if !slices.Equal(got, want) {
		t.Errorf("column types:\n got %v\nwant %v", got, want)
	}
	wantRows := []string{
		"1|10|1|0.5|12.34|2026-01-15|2026-01-15 10:20:30.123456|2026-01-15 10:20:30|apple|ab",
		"2|NULL|0|NULL|NULL|NULL|2026-01-16 00:00:00|NULL|NULL|NULL",
		"3|-7|NULL|-1.25|0.01|1969-12-31|2026-01-17 23:59:59|1969-12-31 23:59:59|it's|",
	}
	if got := queryRows(t, db, "SELECT * FROM items ORDER BY id"); !slices.Equal(got, wantRows) {
		t.Errorf("rows:\n got %q\nwant %q", got, wantRows)
	}
	// The session time zone applies to TIMESTAMPTZ, as MySQL's time_zone does.
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "SET TIME ZONE 'America/New_York'"); err != nil {
		t.Fatal(mysqlError(err))
	}
	r := conn.QueryRowContext(context.Background(), "SELECT at_tz FROM items WHERE id = 1")
	var at string
	if err := r.Scan(&at); err != nil || at != "2026-01-15 05:20:30" {
		t.Errorf("at_tz in New York: %q, %v", at, err)
	}
	// go-sql-driver's parseTime reads DATETIME and DATE into time.Time.
	ptdb := open(t, srv, "shop", "parseTime=true")
	var day, ts sql.NullTime
	if err := ptdb.QueryRow("SELECT day, at FROM items WHERE id = 1").Scan(&day, &ts); err != nil {
		t.Fatal(err)
	}
	if day.Time.Format("2006-01-02") != "2026-01-15" || ts.Time.Format("15:04:05.000000") != "10:20:30.123456" {
		t.Errorf("parseTime: %v %v", day.Time, ts.Time)
	}
}

