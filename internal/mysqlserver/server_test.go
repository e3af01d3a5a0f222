package mysqlserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
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
		"1|10|1|0.5|12.34|2026-01-15|2026-01-15 10:20:30.123456|2026-01-15 10:20:30.000000|apple|ab",
		"2|NULL|0|NULL|NULL|NULL|2026-01-16 00:00:00.000000|NULL|NULL|NULL",
		"3|-7|NULL|-1.25|0.01|1969-12-31|2026-01-17 23:59:59.000000|1969-12-31 23:59:59.000000|it's|",
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
	if err := r.Scan(&at); err != nil || at != "2026-01-15 05:20:30.000000" {
		t.Errorf("at_tz in New York: %q, %v", at, err)
	}
	// MySQL's time_zone is the same setting, offsets included.
	for zone, want := range map[string]string{"'+05:30'": "2026-01-15 15:50:30.000000", "'SYSTEM'": "2026-01-15 10:20:30.000000"} {
		if _, err := conn.ExecContext(context.Background(), "SET time_zone = "+zone); err != nil {
			t.Fatal(mysqlError(err))
		}
		r := conn.QueryRowContext(context.Background(), "SELECT at_tz, @@time_zone FROM items WHERE id = 1")
		var variable string
		if err := r.Scan(&at, &variable); err != nil || at != want || "'"+variable+"'" != zone {
			t.Errorf("time_zone = %s: at_tz %q, @@time_zone %q, %v; want %q", zone, at, variable, err, want)
		}
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

// Every kind of statement a MySQL client sends runs, and those of
// lakesql's own dialect that TiDB's parser rejects run too.
func TestStatementKinds(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "")
	db.SetMaxOpenConns(1) // one session: USE carries over
	exec := func(stmt string, wantAffected int64) {
		t.Helper()
		res, err := db.Exec(stmt)
		if err != nil {
			t.Fatalf("%s: %s", stmt, mysqlError(err))
		}
		if n, _ := res.RowsAffected(); n != wantAffected {
			t.Errorf("%s: %d rows affected, want %d", stmt, n, wantAffected)
		}
	}
	want := func(query string, rows ...string) {
		t.Helper()
		if got := queryRows(t, db, query); !slices.Equal(got, rows) {
			t.Errorf("%s:\n got %q\nwant %q", query, got, rows)
		}
	}
	exec("CREATE DATABASE sales", 0)
	exec("USE sales", 0)
	want("SELECT DATABASE()", "sales")
	exec("CREATE TABLE `orders` (id BIGINT NOT NULL, customer VARCHAR(20), amount DECIMAL(8,2), placed DATETIME COMMENT 'when')", 0)
	exec("ALTER TABLE orders ADD PARTITION FIELD days(placed)", 0) // lakesql's dialect
	exec("INSERT INTO orders VALUES (1, 'ann', 10.50, '2026-03-01 10:00:00'), (2, 'bob', NULL, '2026-03-02 11:00:00'), (3, 'ann', 4.25, '2026-03-02 12:00:00')", 3)
	exec("INSERT INTO orders (id, customer) SELECT id + 10, customer FROM orders WHERE id = 1", 1)
	exec("UPDATE orders SET amount = IFNULL(amount, 0) + 1 WHERE customer = 'bob'", 1)
	exec("DELETE FROM orders WHERE id = 11", 1)
	want("SELECT customer, COUNT(*), SUM(amount) FROM orders GROUP BY customer ORDER BY customer",
		"ann|2|14.75", "bob|1|1.00")
	want("SELECT id FROM orders WHERE placed >= DATE_SUB('2026-03-03', INTERVAL 1 DAY) ORDER BY id LIMIT 1, 1", "3")
	want("SELECT id, SUM(amount) OVER (PARTITION BY customer ORDER BY id) FROM orders ORDER BY id",
		"1|10.50", "2|1.00", "3|14.75")
	want("WITH a AS (SELECT customer, amount FROM orders WHERE amount > 2) SELECT customer FROM a WHERE customer IN (SELECT customer FROM orders) ORDER BY 1",
		"ann", "ann")
	want("SHOW TABLES", "orders")
	want("SHOW COLUMNS FROM orders LIKE 'p%'", "placed|datetime(6)|YES||NULL|")
	want("SELECT column_name, column_comment FROM information_schema.columns WHERE table_schema = 'sales' AND column_name = 'placed'", "placed|when")
	exec("CALL system.rewrite_data_files(table => 'sales.orders')", 0) // lakesql's dialect
	want("SELECT count(*) FROM orders", "3")
	exec("SET autocommit = 1", 0)
	exec("SET NAMES utf8mb4", 0)
	exec("BEGIN", 0)
	exec("COMMIT", 0)
	exec("TRUNCATE TABLE orders", 0)
	want("SELECT count(*) FROM orders", "0")
	exec("DROP TABLE orders PURGE", 0) // lakesql's dialect: delete the files too
	exec("DROP DATABASE sales", 0)
	want("SHOW DATABASES", "information_schema", "shop", "tutorial")
}

// Errors arrive as MySQL error packets with the error number and SQLSTATE
// clients branch on, and one line saying what and where.
func TestErrors(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "")
	db.SetMaxOpenConns(1)
	cases := []struct{ stmt, want string }{
		{"SELECT * FROM shop.nope", "1146 42S02: table shop.nope does not exist (tables in shop: items)"},
		{"SELEC 1", "1064 42000: syntax error at line 1, column 5 near \"SELEC 1\""},
		{"SHOW TABLES", "1046 3D000: line 1, column 1: no database selected (USE a database or name one)"},
		{"USE nowhere", "1049 42000: namespace nowhere does not exist (known: shop, tutorial)"},
		{"SELECT nocolumn FROM shop.items", `1054 42S22: column "nocolumn" does not exist (columns: id, small, flag, ratio, price, day, at, at_tz, name, raw) (at line 1, column 8)`},
		{"SELECT no_such_fn(name) FROM shop.items", "1305 42000: unknown function no_such_fn (at line 1, column 8)"},
		{"REPLACE INTO shop.items (id) VALUES (1)", "1235 42000: line 1, column 1: REPLACE INTO is not supported in the MySQL dialect"},
		{"SELECT @@no_such_variable", "1105 HY000: line 1, column 8: unknown system variable 'no_such_variable'"},
	}
	for _, c := range cases {
		_, err := db.Exec(c.stmt)
		if got := mysqlError(err); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.stmt, got, c.want)
		}
	}
}

// Users log in with mysql_native_password, or caching_sha2_password over
// TLS (a plain connection proposed it is switched to the native method); a
// wrong password is refused with MySQL's access denied error.
func TestAuthentication(t *testing.T) {
	dir := warehouse(t)
	for _, c := range []struct {
		name, method string
		tls          bool
	}{{"native", "mysql_native_password", false}, {"sha2 switched to native", "caching_sha2_password", false}, {"sha2 over TLS", "caching_sha2_password", true}} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Addr: "127.0.0.1:0", Session: lakesql.Options{Warehouse: dir},
				Users: map[string]string{"analyst": "s3cret"}, DefaultAuth: c.method}
			params := []string{}
			if c.tls {
				cfg.TLS = selfSigned(t)
				params = append(params, "tls=skip-verify")
			}
			srv, err := Start(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			good, err := sql.Open("mysql", dsn(srv, "analyst", "s3cret", "shop", params...))
			if err != nil {
				t.Fatal(err)
			}
			defer good.Close()
			if got := queryRows(t, good, "SELECT CURRENT_USER(), count(*) FROM items"); !slices.Equal(got, []string{"analyst@%|3"}) {
				t.Errorf("logged in: %q", got)
			}
			for _, login := range [][2]string{{"analyst", "wrong"}, {"root", ""}} {
				bad, err := sql.Open("mysql", dsn(srv, login[0], login[1], "", params...))
				if err != nil {
					t.Fatal(err)
				}
				err = bad.Ping()
				bad.Close()
				if got := mysqlError(err); !strings.HasPrefix(got, "1045 28000: Access denied for user '"+login[0]+"'") {
					t.Errorf("login %s/%s: %s", login[0], login[1], got)
				}
			}
		})
	}
	if _, err := Start(Config{Addr: "127.0.0.1:0", DefaultAuth: "sha256_password"}); err == nil ||
		err.Error() != `unknown authentication method "sha256_password" (methods: mysql_native_password, caching_sha2_password)` {
		t.Errorf("unknown method: %v", err)
	}
}

// Prepared statements bind their ? arguments by type, and results come back
// in the binary protocol with the same values as the text protocol's.
func TestPreparedStatements(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "shop")
	text := queryRows(t, db, "SELECT * FROM items ORDER BY id")
	binary := queryRows(t, db, "SELECT * FROM items WHERE id > ? ORDER BY id", 0)
	if !slices.Equal(text, binary) {
		t.Errorf("binary protocol:\n got %q\nwant %q", binary, text)
	}
	stmt, err := db.Prepare("SELECT id, name FROM items WHERE day >= ? AND price < ? AND name <> ? ORDER BY id")
	if err != nil {
		t.Fatal(mysqlError(err))
	}
	defer stmt.Close()
	day := time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		price float64
		want  []string
	}{{100, []string{"1|apple", "3|it's"}}, {1, []string{"3|it's"}}} {
		got, err := scanRows(stmt.Query(day, c.price, "pear"))
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("price < %v: got %q, %v; want %q", c.price, got, err, c.want)
		}
	}
	if got := queryRows(t, db, "SELECT ? + 1, ?, ?", int64(41), nil, []byte("b")); !slices.Equal(got, []string{"42|NULL|b"}) {
		t.Errorf("argument types: %q", got)
	}
	res, err := db.Exec("INSERT INTO items (id, name) VALUES (?, ?)", 4, "pear")
	if err != nil {
		t.Fatal(mysqlError(err))
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Errorf("INSERT with arguments: %d rows affected", n)
	}
	if _, err := db.Exec("SELECT * FROM items WHERE id = ? AND name = ?", 1); err == nil || !strings.Contains(err.Error(), "expected 2 arguments, got 1") {
		t.Errorf("missing argument: %v", err)
	}
}

// Several statements in one query (CLIENT_MULTI_STATEMENTS) run in order,
// each with its result.
func TestMultiStatements(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "", "multiStatements=true")
	rows, err := db.Query("USE shop; SELECT count(*) FROM items; SELECT max(id) FROM items")
	if err != nil {
		t.Fatal(mysqlError(err))
	}
	defer rows.Close()
	var got []int64
	for {
		for rows.Next() {
			var n int64
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			got = append(got, n)
		}
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(mysqlError(err))
	}
	if !slices.Equal(got, []int64{3, 3}) {
		t.Errorf("results %v, want [3 3]", got)
	}
}

// tutorialQueries are the seed tutorial's questions, in MySQL's dialect.
var tutorialQueries = []string{
	"SELECT event_type, COUNT(*) AS events FROM retail_clickstream_events GROUP BY event_type ORDER BY events DESC, event_type",
	"SELECT DATE(event_time) AS day, COUNT(DISTINCT session_id) FROM retail_clickstream_events GROUP BY 1 ORDER BY 1",
	"SELECT category, SUM(price * quantity) AS revenue FROM retail_clickstream_events WHERE event_type = 'purchase' GROUP BY category ORDER BY revenue DESC, category LIMIT 5",
	"SELECT country, device, COUNT(*) FROM retail_clickstream_events WHERE event_time >= '2026-01-02' AND event_time < '2026-01-03' GROUP BY country, device ORDER BY 3 DESC, 1, 2 LIMIT 10",
	"SELECT event_date, event_type, event_count FROM retail_daily_traffic_summary ORDER BY event_date, event_type",
	"SELECT user_id, COUNT(*) AS n FROM retail_clickstream_events GROUP BY user_id HAVING COUNT(*) > 3 ORDER BY n DESC, user_id LIMIT 5",
}

// 32 connections run the tutorial queries at once; every answer equals
// the one a lakesql session gives in process.
func TestConcurrentConnections(t *testing.T) {
	dir := warehouse(t)
	srv := start(t, dir, nil)
	local := testutil.OpenWith(t, lakesql.Options{Warehouse: dir, Dialect: lakesql.DialectMySQL}, "USE tutorial")
	want := make([][]string, len(tutorialQueries))
	for i, q := range tutorialQueries {
		want[i] = testutil.RowsInOrder(t, local, q)
		if len(want[i]) == 0 {
			t.Fatalf("%s: no rows; the comparison would prove nothing", q)
		}
	}
	db := open(t, srv, "tutorial")
	db.SetMaxOpenConns(32)
	db.SetMaxIdleConns(32)
	var wg sync.WaitGroup
	errs := make(chan string, 32*len(tutorialQueries))
	for g := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.Conn(context.Background())
			if err != nil {
				errs <- err.Error()
				return
			}
			defer conn.Close()
			for k := range tutorialQueries {
				i := (g + k) % len(tutorialQueries)
				got, err := scanRows(conn.QueryContext(context.Background(), tutorialQueries[i]))
				if err != nil {
					errs <- tutorialQueries[i] + ": " + err.Error()
				} else if !slices.Equal(got, want[i]) {
					errs <- tutorialQueries[i] + ": answers differ:\n" + testutil.DiffRows(got, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := db.Stats().MaxOpenConnections; n != 32 {
		t.Errorf("pool allowed %d connections", n)
	}
}

// The queries Connector/J, Metabase, Grafana and DBeaver send on connect
// and while browsing (testdata/connect/*.sql, one statement per line
// after the comments) all succeed, in order, on one connection.
func TestClientConnectSequences(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	files, err := filepath.Glob("testdata/connect/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no connect sequences: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, srv, "")
			db.SetMaxOpenConns(1)
			n := 0
			for line := range strings.SplitSeq(string(data), "\n") {
				stmt := strings.TrimSuffix(strings.TrimSpace(line), ";")
				if stmt == "" || strings.HasPrefix(stmt, "--") {
					continue
				}
				if _, err := scanRows(db.Query(stmt)); err != nil {
					t.Errorf("%s: %s", stmt, mysqlError(err))
				}
				n++
			}
			if n == 0 {
				t.Fatal("no statements")
			}
		})
	}
}

// KILL QUERY from another connection stops a running statement, which
// fails with MySQL's "query interrupted"; the connection stays usable.
// KILL of an unknown connection is error 1094.
func TestKillQuery(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "tutorial")
	ctx := context.Background()
	victim, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	var id int64
	if err := victim.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		// 900³ rows: minutes of work unless it is stopped.
		var n int64
		done <- victim.QueryRowContext(ctx, `SELECT count(*) FROM retail_clickstream_events a,
			retail_clickstream_events b, retail_clickstream_events c WHERE a.user_id + b.user_id <> c.user_id`).Scan(&n)
	}()
	time.Sleep(300 * time.Millisecond)
	if _, err := db.Exec("KILL QUERY " + strconv.FormatInt(id, 10)); err != nil {
		t.Fatal(mysqlError(err))
	}
	select {
	case err := <-done:
		if got := mysqlError(err); !strings.HasPrefix(got, "1317 70100:") {
			t.Errorf("killed query: %s", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("KILL QUERY did not stop the statement within 20s")
	}
	var one int
	if err := victim.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("connection after KILL QUERY: %d, %v", one, err)
	}
	if _, err := db.Exec("KILL QUERY 999999"); !strings.HasPrefix(mysqlError(err), "1094 HY000: Unknown thread id: 999999") {
		t.Errorf("unknown thread: %s", mysqlError(err))
	}
}

// A client that asks for TLS gets it when the server has a certificate.
func TestTLS(t *testing.T) {
	srv, err := Start(Config{Addr: "127.0.0.1:0", Session: lakesql.Options{Warehouse: warehouse(t)},
		TLS: selfSigned(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// tls=skip-verify makes the driver refuse a server without TLS, so a
	// query that runs went over TLS.
	db := open(t, srv, "shop", "tls=skip-verify")
	var name string
	if err := db.QueryRow("SELECT name FROM items WHERE id = 1").Scan(&name); err != nil || name != "apple" {
		t.Fatalf("query over TLS: %q, %v", name, err)
	}
	plain := start(t, warehouse(t), nil)
	if err := open(t, plain, "", "tls=skip-verify").Ping(); err == nil || !strings.Contains(err.Error(), "TLS") {
		t.Errorf("TLS demanded of a server without it: %v", err)
	}
}

// A result of many batches streams to the client whole, and MySQL's
// max_execution_time stops a statement as statement_timeout does (3024).
func TestLargeResultAndExecutionTime(t *testing.T) {
	srv := start(t, warehouse(t), nil)
	db := open(t, srv, "tutorial")
	db.SetMaxOpenConns(1)
	rows, err := db.Query(`SELECT a.event_id, b.event_id FROM retail_clickstream_events a, retail_clickstream_events b`)
	if err != nil {
		t.Fatal(mysqlError(err))
	}
	n, sum := 0, int64(0)
	for rows.Next() {
		var x, y int64
		if err := rows.Scan(&x, &y); err != nil {
			t.Fatal(err)
		}
		n++
		sum += x - y
	}
	if err := rows.Err(); err != nil {
		t.Fatal(mysqlError(err))
	}
	rows.Close()
	if n != 900*900 || sum != 0 {
		t.Errorf("streamed %d rows (sum of differences %d), want %d and 0", n, sum, 900*900)
	}
	if _, err := db.Exec("SET max_execution_time = 200"); err != nil {
		t.Fatal(mysqlError(err))
	}
	_, err = db.Exec(`SELECT count(*) FROM retail_clickstream_events a, retail_clickstream_events b,
		retail_clickstream_events c WHERE a.user_id + b.user_id <> c.user_id`)
	if got := mysqlError(err); !strings.HasPrefix(got, "3024 HY000:") {
		t.Errorf("max_execution_time: %s", got)
	}
}

// selfSigned is a server TLS configuration with a certificate for 127.0.0.1.
func selfSigned(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}
