package bench

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// tpchColumn is one column of a TPC-H table: its name, the type the Parquet
// file has (the spec's: DECIMAL(15,2) for money, DATE for dates) and how
// the generator's raw value becomes that type.
type tpchColumn struct {
	name string
	typ  string
	raw  rawKind
}

// rawKind is the form dbgen hands a column's value in.
type rawKind int

const (
	rawInt   rawKind = iota // an integer, stored as is
	rawCents                // money or a rate in hundredths (dbgen keeps 0.04 as 4)
	rawWhole                // a whole quantity stored as DECIMAL
	rawText                 // a string
	rawDate                 // a YYYY-MM-DD string
)

// stagingType is the DuckDB type the appender writes a raw value into.
func (k rawKind) stagingType() string {
	switch k {
	case rawText, rawDate:
		return "VARCHAR"
	}
	return "BIGINT"
}

// convert is the SQL that turns the staged value into the column's type.
func (c tpchColumn) convert() string {
	switch {
	case c.raw == rawCents:
		// BIGINT × DECIMAL(3,2) is exact decimal arithmetic, no double.
		return fmt.Sprintf("CAST(%s * 0.01 AS %s) AS %s", c.name, c.typ, c.name)
	case c.typ == c.raw.stagingType():
		return c.name
	}
	return fmt.Sprintf("CAST(%s AS %s) AS %s", c.name, c.typ, c.name)
}

// tpchTable is a TPC-H table in the order its columns are appended.
type tpchTable struct {
	name    string
	columns []tpchColumn
}

func col(name, typ string, raw rawKind) tpchColumn { return tpchColumn{name, typ, raw} }

const money = "DECIMAL(15,2)"

// tpchTables are the eight tables of TPC-H 2.18 §1.4, smallest first.
var tpchTables = []tpchTable{
	{"region", []tpchColumn{col("r_regionkey", "BIGINT", rawInt), col("r_name", "VARCHAR", rawText), col("r_comment", "VARCHAR", rawText)}},
	{"nation", []tpchColumn{col("n_nationkey", "BIGINT", rawInt), col("n_name", "VARCHAR", rawText), col("n_regionkey", "BIGINT", rawInt), col("n_comment", "VARCHAR", rawText)}},
	{"supplier", []tpchColumn{col("s_suppkey", "BIGINT", rawInt), col("s_name", "VARCHAR", rawText), col("s_address", "VARCHAR", rawText),
		col("s_nationkey", "BIGINT", rawInt), col("s_phone", "VARCHAR", rawText), col("s_acctbal", money, rawCents), col("s_comment", "VARCHAR", rawText)}},
	{"customer", []tpchColumn{col("c_custkey", "BIGINT", rawInt), col("c_name", "VARCHAR", rawText), col("c_address", "VARCHAR", rawText),
		col("c_nationkey", "BIGINT", rawInt), col("c_phone", "VARCHAR", rawText), col("c_acctbal", money, rawCents),
		col("c_mktsegment", "VARCHAR", rawText), col("c_comment", "VARCHAR", rawText)}},
	{"part", []tpchColumn{col("p_partkey", "BIGINT", rawInt), col("p_name", "VARCHAR", rawText), col("p_mfgr", "VARCHAR", rawText),
		col("p_brand", "VARCHAR", rawText), col("p_type", "VARCHAR", rawText), col("p_size", "INTEGER", rawInt),
		col("p_container", "VARCHAR", rawText), col("p_retailprice", money, rawCents), col("p_comment", "VARCHAR", rawText)}},
	{"partsupp", []tpchColumn{col("ps_partkey", "BIGINT", rawInt), col("ps_suppkey", "BIGINT", rawInt), col("ps_availqty", "INTEGER", rawInt),
		col("ps_supplycost", money, rawCents), col("ps_comment", "VARCHAR", rawText)}},
	{"orders", []tpchColumn{col("o_orderkey", "BIGINT", rawInt), col("o_custkey", "BIGINT", rawInt), col("o_orderstatus", "VARCHAR", rawText),
		col("o_totalprice", money, rawCents), col("o_orderdate", "DATE", rawDate), col("o_orderpriority", "VARCHAR", rawText),
		col("o_clerk", "VARCHAR", rawText), col("o_shippriority", "INTEGER", rawInt), col("o_comment", "VARCHAR", rawText)}},
	{"lineitem", []tpchColumn{col("l_orderkey", "BIGINT", rawInt), col("l_partkey", "BIGINT", rawInt), col("l_suppkey", "BIGINT", rawInt),
		col("l_linenumber", "INTEGER", rawInt), col("l_quantity", money, rawWhole), col("l_extendedprice", money, rawCents),
		col("l_discount", money, rawCents), col("l_tax", money, rawCents), col("l_returnflag", "VARCHAR", rawText),
		col("l_linestatus", "VARCHAR", rawText), col("l_shipdate", "DATE", rawDate), col("l_commitdate", "DATE", rawDate),
		col("l_receiptdate", "DATE", rawDate), col("l_shipinstruct", "VARCHAR", rawText), col("l_shipmode", "VARCHAR", rawText),
		col("l_comment", "VARCHAR", rawText)}},
}

// tpchDataDir is where generated data sets live, outside git.
const tpchDataDir = ".tpch-data"

// tpchDataset returns the folder holding <table>.parquet for every TPC-H
// table at scale factor sf, generating it on first use. A folder is
// complete once its "done" marker exists, so an interrupted generation
// starts over rather than leaving half a data set.
func tpchDataset(ctx context.Context, sf int) (string, error) {
	dir, err := filepath.Abs(filepath.Join(tpchDataDir, fmt.Sprintf("sf%d", sf)))
	if err != nil {
		return "", err
	}
	return dir, ensureDataset(dir, func(dir string) error { return generateTPCH(ctx, sf, dir) })
}

// tpchSubset returns the folder of a deterministic subset of the SF=1 data,
// derived from it once by the SQL of subset (one SELECT per table, reading
// the SF=1 tables as views of the same names).
func tpchSubset(ctx context.Context, name string, subset func(table string) string) (string, error) {
	full, err := tpchDataset(ctx, 1)
	if err != nil {
		return "", err
	}
	dir, err := filepath.Abs(filepath.Join(tpchDataDir, name))
	if err != nil {
		return "", err
	}
	return dir, ensureDataset(dir, func(dir string) error { return writeSubset(ctx, full, dir, subset) })
}

func ensureDataset(dir string, build func(dir string) error) error {
	done := filepath.Join(dir, "done")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := build(dir); err != nil {
		return err
	}
	return os.WriteFile(done, nil, 0o644)
}

// generateTPCH runs go-tpc's port of dbgen at scale factor sf into DuckDB
// staging tables through appenders, then writes each table as Parquet with
// the spec's types.
func generateTPCH(ctx context.Context, sf int, dir string) error {
	begin := time.Now()
	db, err := openDuck()
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	appenders := map[string]*duckdb.Appender{}
	for _, t := range tpchTables {
		defs := make([]string, len(t.columns))
		for i, c := range t.columns {
			defs[i] = c.name + " " + c.raw.stagingType()
		}
		if _, err := conn.ExecContext(ctx, "CREATE TABLE "+t.name+" ("+strings.Join(defs, ", ")+")"); err != nil {
			return fmt.Errorf("duckdb: create staging table %s: %w", t.name, err)
		}
		err := conn.Raw(func(c any) error {
			a, err := duckdb.NewAppenderFromConn(c.(driver.Conn), "", t.name)
			appenders[t.name] = a
			return err
		})
		if err != nil {
			return fmt.Errorf("duckdb: appender for %s: %w", t.name, err)
		}
	}
	loaders := map[dbgen.Table]dbgen.Loader{
		dbgen.TRegion: rowLoader(appenders["region"], func(r *dbgen.Region) []driver.Value {
			return []driver.Value{int64(r.Code), r.Text, r.Comment}
		}),
		dbgen.TNation: rowLoader(appenders["nation"], func(n *dbgen.Nation) []driver.Value {
			return []driver.Value{int64(n.Code), n.Text, int64(n.Join), n.Comment}
		}),
		dbgen.TSupp: rowLoader(appenders["supplier"], func(s *dbgen.Supp) []driver.Value {
			return []driver.Value{int64(s.SuppKey), s.Name, s.Address, int64(s.NationCode), s.Phone, int64(s.Acctbal), s.Comment}
		}),
		dbgen.TCust: rowLoader(appenders["customer"], func(c *dbgen.Cust) []driver.Value {
			return []driver.Value{int64(c.CustKey), c.Name, c.Address, int64(c.NationCode), c.Phone, int64(c.Acctbal), c.MktSegment, c.Comment}
		}),
		dbgen.TPart: rowLoader(appenders["part"], func(p *dbgen.Part) []driver.Value {
			return []driver.Value{int64(p.PartKey), p.Name, p.Mfgr, p.Brand, p.Type, int64(p.Size), p.Container, int64(p.RetailPrice), p.Comment}
		}),
		dbgen.TPsupp: childLoader(appenders["partsupp"], func(p *dbgen.Part) [][]driver.Value {
			rows := make([][]driver.Value, len(p.S))
			for i, s := range p.S {
				rows[i] = []driver.Value{int64(s.PartKey), int64(s.SuppKey), int64(s.Qty), int64(s.SCost), s.Comment}
			}
			return rows
		}),
		dbgen.TOrder: rowLoader(appenders["orders"], func(o *dbgen.Order) []driver.Value {
			return []driver.Value{int64(o.OKey), int64(o.CustKey), string(o.Status), int64(o.TotalPrice), o.Date,
				o.OrderPriority, o.Clerk, o.ShipPriority, o.Comment}
		}),
		dbgen.TLine: childLoader(appenders["lineitem"], func(o *dbgen.Order) [][]driver.Value {
			rows := make([][]driver.Value, len(o.Lines))
			for i, l := range o.Lines {
				rows[i] = []driver.Value{int64(l.OKey), int64(l.PartKey), int64(l.SuppKey), int64(l.LCnt), int64(l.Quantity),
					int64(l.EPrice), int64(l.Discount), int64(l.Tax), string(l.RFlag), string(l.LStatus),
					l.SDate, l.CDate, l.RDate, l.ShipInstruct, l.ShipMode, l.Comment}
			}
			return rows
		}),
	}
	dbgen.InitDbGen(int64(sf))
	// dbgen keeps its random streams in package state: one generation at a
	// time, in the order go-tpc itself uses, so the rows are dbgen's.
	if err := dbgen.DbGen(loaders, []dbgen.Table{dbgen.TNation, dbgen.TRegion, dbgen.TCust, dbgen.TSupp, dbgen.TPartPsupp, dbgen.TOrderLine}); err != nil {
		return fmt.Errorf("dbgen at SF=%d: %w", sf, err)
	}
	for name, a := range appenders {
		if err := a.Close(); err != nil {
			return fmt.Errorf("duckdb: appending to %s: %w", name, err)
		}
	}
	for _, t := range tpchTables {
		exprs := make([]string, len(t.columns))
		for i, c := range t.columns {
			exprs[i] = c.convert()
		}
		if err := copyParquet(ctx, conn, "SELECT "+strings.Join(exprs, ", ")+" FROM "+t.name, filepath.Join(dir, t.name+".parquet")); err != nil {
			return err
		}
	}
	fmt.Printf("tpch: SF=%d generated into %s in %v\n", sf, dir, time.Since(begin).Round(time.Second))
	return nil
}

// copyParquet writes a query's rows as one Parquet file. Row groups of
// 122,880 rows (DuckDB's default) give the multi-row-group files a reader
// must handle.
func copyParquet(ctx context.Context, conn *sql.Conn, query, path string) error {
	_, err := conn.ExecContext(ctx, fmt.Sprintf("COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION zstd)", query, path))
	if err != nil {
		return fmt.Errorf("duckdb: write %s: %w", path, err)
	}
	return nil
}

// writeSubset writes each table of the subset from the full data set.
func writeSubset(ctx context.Context, full, dir string, subset func(table string) string) error {
	db, err := openDuck()
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, t := range tpchTables {
		view := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s')", t.name, filepath.Join(full, t.name+".parquet"))
		if _, err := conn.ExecContext(ctx, view); err != nil {
			return fmt.Errorf("duckdb: %w", err)
		}
	}
	for _, t := range tpchTables {
		if err := copyParquet(ctx, conn, subset(t.name), filepath.Join(dir, t.name+".parquet")); err != nil {
			return err
		}
	}
	return nil
}

// dbgenLoader adapts a function from a generated item to its rows to
// dbgen's Loader interface.
type dbgenLoader[T any] struct {
	app  *duckdb.Appender
	rows func(T) [][]driver.Value
}

func (l dbgenLoader[T]) Load(item any) error {
	for _, r := range l.rows(item.(T)) {
		if err := l.app.AppendRow(r...); err != nil {
			return err
		}
	}
	return nil
}

// Flush is a no-op: the appender flushes when it is closed.
func (l dbgenLoader[T]) Flush() error { return nil }

// rowLoader loads one row per generated item.
func rowLoader[T any](app *duckdb.Appender, row func(T) []driver.Value) dbgen.Loader {
	return dbgenLoader[T]{app, func(item T) [][]driver.Value { return [][]driver.Value{row(item)} }}
}

// childLoader loads the rows an item holds (an order's lines, a part's
// suppliers).
func childLoader[T any](app *duckdb.Appender, rows func(T) [][]driver.Value) dbgen.Loader {
	return dbgenLoader[T]{app, rows}
}
