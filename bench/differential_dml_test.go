package bench

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakesql/lakesql"
)

// dmlCase is one table-changing scenario of the differential test: the
// same starting rows in a lakesql table (partitioned as partition says)
// and a DuckDB table, the same statement in both, then the resulting
// tables compared as multisets. The statements are written in the MERGE
// and UPDATE syntax the two engines share. Every scenario runs with the
// lakesql table in copy-on-write and in merge-on-read mode.
type dmlCase struct {
	name      string
	partition string   // lakesql's PARTITIONED BY clause of dml.t, or ""
	target    []string // VALUES rows of dml.t (id INT, region STRING, v DOUBLE), one INSERT each
	source    string   // VALUES rows of dml.s (id INT, region STRING, v DOUBLE, op STRING), or "" for none
	statement string
}

const (
	dmlSourceRows = `(1, 'eu', 10.0, 'u'), (2, 'eu', NULL, 'd'), (3, 'us', 30.0, 'u'), (8, 'us', 80.0, 'i'), (NULL, 'eu', 99.0, 'i'), (6, 'asia', NULL, 'u'), (9, NULL, 9.0, NULL)`
)

// dmlTargetRows fill dml.t in two INSERTs, so that its partitions have
// more than one file.
var dmlTargetRows = []string{
	`(1, 'eu', 1.0), (2, 'eu', 2.0), (3, 'us', 3.0), (4, 'us', NULL)`,
	`(5, 'asia', 5.0), (NULL, 'asia', 0.0), (6, NULL, 6.0), (7, 'eu', -7.5), (8, 'us', 8.5)`,
}

func dmlCases() []dmlCase {
	byRegion, byBucket := "PARTITIONED BY (region)", "PARTITIONED BY (bucket(4, id))"
	return []dmlCase{
		{"upsert", byRegion, dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN MATCHED AND s.op = 'd' THEN DELETE
			WHEN MATCHED THEN UPDATE SET v = s.v, region = s.region
			WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, s.region, s.v)`},
		{"clause order and NULL clause conditions", byBucket, dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN MATCHED AND s.v > 20 THEN UPDATE SET v = t.v + s.v
			WHEN MATCHED AND s.op = 'u' THEN DELETE
			WHEN NOT MATCHED AND s.op = 'i' THEN INSERT (id, region, v) VALUES (s.id, upper(s.region), s.v * 2)`},
		{"not matched by source", byRegion, dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN MATCHED THEN UPDATE SET v = 0
			WHEN NOT MATCHED BY SOURCE AND t.region = 'eu' THEN DELETE
			WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = -1`},
		{"target-only ON conjunct", byRegion, dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id AND t.region = 'eu'
			WHEN MATCHED THEN UPDATE SET v = s.v
			WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, 'new', s.v)`},
		{"null-safe ON", byRegion, dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id IS NOT DISTINCT FROM s.id
			WHEN MATCHED THEN UPDATE SET v = s.v
			WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, s.region, s.v)`},
		{"non-equi ON", "", dmlTargetRows, dmlSourceRows, `MERGE INTO dml.t AS t USING (SELECT 2 AS lo, 4 AS hi) AS s ON t.id BETWEEN s.lo AND s.hi
			WHEN MATCHED THEN UPDATE SET v = t.id * 100`},
		{"insert only, duplicate keys", byRegion, dmlTargetRows, dmlSourceRows + `, (8, 'eu', 81.0, 'i'), (1, 'us', 11.0, 'i')`, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, s.region, s.v)`},
		{"empty source", byRegion, dmlTargetRows, "", `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN MATCHED THEN DELETE
			WHEN NOT MATCHED BY SOURCE AND t.v > 2 THEN DELETE`},
		{"empty target", byRegion, nil, dmlSourceRows, `MERGE INTO dml.t AS t USING dml.s AS s ON t.id = s.id
			WHEN MATCHED THEN DELETE
			WHEN NOT MATCHED THEN INSERT (id, region, v) VALUES (s.id, s.region, s.v)`},
		{"update with NULL condition", byRegion, dmlTargetRows, "", `UPDATE dml.t SET v = v * 10 WHERE v > 1.5`},
		{"update moves partitions", byRegion, dmlTargetRows, "", `UPDATE dml.t SET region = CASE WHEN region = 'eu' THEN 'us' ELSE 'eu' END, v = id WHERE id >= 3 OR region IS NULL`},
		{"update every row", byBucket, dmlTargetRows, "", `UPDATE dml.t SET id = id + 1, v = coalesce(v, -1)`},
	}
}

// TestDifferentialDML runs each scenario in lakesql and DuckDB and fails on
// every one whose resulting tables differ.
func TestDifferentialDML(t *testing.T) {
	ctx := context.Background()
	lake, err := lakesql.Open(ctx, lakesql.Options{Warehouse: filepath.Join(t.TempDir(), "wh")})
	if err != nil {
		t.Fatal(err)
	}
	duck, err := openDuck()
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	if err := lakeExec(ctx, lake, `CREATE NAMESPACE dml`); err != nil {
		t.Fatal(err)
	}
	if err := duckExec(ctx, duck, `CREATE SCHEMA dml`); err != nil {
		t.Fatal(err)
	}
	passed, total := 0, 0
	for _, mode := range []string{"copy-on-write", "merge-on-read"} {
		for _, c := range dmlCases() {
			total++
			if msg := checkDML(ctx, lake, duck, c, mode); msg != "" {
				t.Errorf("%s (%s): %s\n  %s", c.name, mode, strings.Join(strings.Fields(c.statement), " "), msg)
				continue
			}
			passed++
		}
	}
	fmt.Printf("differential DML: %d of %d scenarios agree\n", passed, total)
}

// checkDML sets a scenario up in both engines (lakesql's table in mode), runs its statement and
// compares the target tables; "" when they agree.
func checkDML(ctx context.Context, lake *lakesql.Session, duck *sql.DB, c dmlCase, mode string) string {
	const (
		targetCols = `(id INT, region STRING, v DOUBLE)`
		sourceCols = `(id INT, region STRING, v DOUBLE, op STRING)`
	)
	lakeSetup := []string{`DROP TABLE IF EXISTS dml.t PURGE`, `DROP TABLE IF EXISTS dml.s PURGE`,
		`CREATE TABLE dml.t ` + targetCols + ` ` + c.partition + fmt.Sprintf(` TBLPROPERTIES ('write.delete.mode' = '%[1]s', 'write.update.mode' = '%[1]s', 'write.merge.mode' = '%[1]s')`, mode),
		`CREATE TABLE dml.s ` + sourceCols}
	duckSetup := []string{`DROP TABLE IF EXISTS dml.t`, `DROP TABLE IF EXISTS dml.s`,
		`CREATE TABLE dml.t ` + targetCols, `CREATE TABLE dml.s ` + sourceCols}
	for _, rows := range c.target {
		lakeSetup = append(lakeSetup, `INSERT INTO dml.t VALUES `+rows)
		duckSetup = append(duckSetup, `INSERT INTO dml.t VALUES `+rows)
	}
	if c.source != "" {
		lakeSetup = append(lakeSetup, `INSERT INTO dml.s VALUES `+c.source)
		duckSetup = append(duckSetup, `INSERT INTO dml.s VALUES `+c.source)
	}
	if err := lakeExec(ctx, lake, lakeSetup...); err != nil {
		return err.Error()
	}
	if err := duckExec(ctx, duck, duckSetup...); err != nil {
		return err.Error()
	}
	duckErr := duckExec(ctx, duck, c.statement)
	lakeErr := lakeExec(ctx, lake, c.statement)
	if duckErr != nil || lakeErr != nil {
		return fmt.Sprintf("statement failed\n  duckdb:  %v\n  lakesql: %v", duckErr, lakeErr)
	}
	const final = `SELECT id, region, v FROM dml.t`
	want, err := duckRows(ctx, duck, final)
	if err != nil {
		return "duckdb: " + err.Error()
	}
	got, err := lakeRows(ctx, lake, final)
	if err != nil {
		return "lakesql: " + err.Error()
	}
	if diff := diffResults(want, got, false); diff != "" {
		return fmt.Sprintf("%s\n  duckdb:\n%s  lakesql:\n%s", diff, formatRows(sortedRows(want.rows), 20), formatRows(sortedRows(got.rows), 20))
	}
	return ""
}
